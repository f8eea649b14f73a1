package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// perfPropsUnchecked are producer properties perf handles itself, so the
// experiment checks do not apply: the bootstrap list (app.ParseBootstrap) and
// the serializers (perf-test replaces them with byte-array ones).
var perfPropsUnchecked = map[string]bool{
	"bootstrap.servers": true,
	"key.serializer":    true,
	"value.serializer":  true,
}

// perfPropSpec is the smallest experiment file: checkPerfProp sets one
// producer property on it.
var perfPropSpec = []byte("name: perf\n")

// checkPerfProp checks one producer property exactly as `prodlab run`
// checks an experiment's (the name must be a Java producer property or
// prodlab's own, the value of the property's type, range and accepted
// values), so that `prodlab perf --producer-props acks=2` is refused
// before anything starts, as `prodlab run --set acks=2` is, rather than
// by the client once the cluster is up. It asks package expfile through its
// exported entry point, an experiment with the property --set, and
// reports expfile's own message under source (the flag the property came
// from).
func checkPerfProp(source, name, value string, bad func(string, ...any)) {
	if perfPropsUnchecked[name] {
		return
	}
	_, err := expfile.Parse(source, perfPropSpec, []string{"producer." + name + "=" + value})
	if err == nil {
		return
	}
	var list expfile.Errors
	if !errors.As(err, &list) {
		bad("%s %s: %v", source, textfmt.Shown(redactArg(name+"="+value)), err)
		return
	}
	for _, e := range list {
		// expfile names the property by its key in experiment files
		// (producer.NAME, "unknown key"); perf's users write the bare
		// property name.
		msg := strings.ReplaceAll(e.Msg, `"producer.`, `"`)
		msg = strings.Replace(msg, "unknown key", "unknown producer property", 1)
		bad("%s %s: %s", source, textfmt.Shown(redactArg(name+"="+value)), msg)
	}
}

// Limits on the size of one record, as the Java producer and the broker
// count it (a record batch of one record, magic v2).
const (
	// recordOverhead is the upper bound of a one-record batch's headers
	// with a null key: the batch header (61 bytes,
	// DefaultRecordBatch.RECORD_BATCH_OVERHEAD) and the record's own
	// (at most 21 bytes, DefaultRecord.MAX_RECORD_OVERHEAD).
	recordOverhead = 61 + 21
	// defaultMaxRequestSize is the Java producer's max.request.size, and
	// the franz-go driver's batch limit (ProducerBatchMaxBytes) unless
	// batch.size sets it.
	defaultMaxRequestSize = 1 << 20
	// brokerMessageMaxBytes is the embedded broker's message.max.bytes
	// (Kafka's default), the largest batch it accepts.
	brokerMessageMaxBytes = 1048588
)

// recordSizeLimit is the setting that bounds one record for client and
// its value in props (or its default).
func recordSizeLimit(client string, props map[string]string) (setting string, limit int64) {
	setting = kafkaconf.MaxRequestSize // an unknown client is refused elsewhere
	if c, err := clients.Parse(client); err == nil && c.Kind.RecordLimit != "" {
		setting = c.Kind.RecordLimit
	}
	limit = defaultMaxRequestSize
	if v, err := strconv.ParseInt(strings.TrimSpace(props[setting]), 10, 64); err == nil && v > 0 {
		limit = v
	}
	return setting, limit
}

// checkPerfRecordSize refuses a record (size bytes of value, no key) that
// cannot be sent: larger than the client's request limit allows, or, on
// the embedded cluster, than its broker accepts. Without the check the
// run starts a cluster and a client, then fails every record with
// RecordTooLargeException. what names the record's origin in the message
// (--record-size, or the payload file's largest payload).
func checkPerfRecordSize(what string, size int64, client string, props map[string]string, embedded bool) error {
	setting, limit := recordSizeLimit(client, props)
	need := size + recordOverhead
	if need > limit {
		return fmt.Errorf("%s: a record of %d bytes does not fit in one request: client %s's %s is %d bytes, which holds a value of at most %d bytes (%d bytes go to batch and record headers); raise it with --producer-props %s=%d (the brokers' message.max.bytes must allow it too)",
			what, size, client, setting, limit, limit-recordOverhead, recordOverhead, setting, need)
	}
	if embedded && need > brokerMessageMaxBytes {
		return fmt.Errorf("%s: a record of %d bytes is larger than the embedded broker accepts (message.max.bytes %d holds a value of at most %d bytes); use a cluster whose message.max.bytes is at least %d with --bootstrap-server",
			what, size, brokerMessageMaxBytes, brokerMessageMaxBytes-recordOverhead, need)
	}
	return nil
}
