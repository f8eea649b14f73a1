package expfile

import (
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// Producer settings, their ConfigDef types and Kafka's validators belong to
// kafkaconf; expfile checks experiment values through it.

// configType is the ConfigDef type of a producer or topic setting.
type configType = kafkaconf.Type

const (
	typeString   = kafkaconf.TypeString
	typeInt      = kafkaconf.TypeInt
	typeLong     = kafkaconf.TypeLong
	typeShort    = kafkaconf.TypeShort
	typeDouble   = kafkaconf.TypeDouble
	typeBool     = kafkaconf.TypeBool
	typeList     = kafkaconf.TypeList
	typeClass    = kafkaconf.TypeClass
	typePassword = kafkaconf.TypePassword
)

// Extensions are prodlab's own producer settings (kafkaconf names them).
const (
	// MaxBufferedRecords bounds the producer buffer by a record count
	// rather than by bytes (franz-go's MaxBufferedRecords).
	MaxBufferedRecords = kafkaconf.MaxBufferedRecords
	// TransactionDurationMs is how long a transactional producer keeps a
	// transaction open before committing it.
	TransactionDurationMs = kafkaconf.TransactionDurationMs
)

// producerType returns the type of a producer setting, Kafka's or
// prodlab's, and whether it is known.
func producerType(name string) (configType, bool) { return kafkaconf.ProducerType(name) }

// producerNames returns every producer setting name, Kafka's and prodlab's,
// sorted.
func producerNames() []string { return kafkaconf.ProducerNames() }

// producerValue is the form in which two spellings of one value of the
// producer setting name compare equal: acks -1 is all, integers and
// numbers by value (05 is 5), booleans in any case, list elements without
// the blanks around them; other text as written. Two values of a matrix
// axis or an advise space with the same form are one setting twice.
func producerValue(name, v string) string {
	v = strings.TrimSpace(v)
	if name == kafkaconf.Acks && v == "-1" {
		return "all"
	}
	t, _ := producerType(name)
	switch t {
	case typeInt, typeLong, typeShort:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
	case typeDouble:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	case typeBool:
		return strings.ToLower(v)
	case typeList:
		parts := strings.Split(v, ",")
		for i, p := range parts {
			parts[i] = strings.TrimSpace(p)
		}
		return strings.Join(parts, ",")
	}
	return v
}
