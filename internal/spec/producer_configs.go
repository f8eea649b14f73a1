package spec

import "github.com/prodlab/prodlab/internal/kafkaconf"

// Producer settings, their ConfigDef types and Kafka's validators belong to
// kafkaconf; spec checks experiment values through it.

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
