package kafkaconf

// Java property names of the producer settings prodlab interprets itself
// (the others pass to the client as they are).
const (
	Acks              = "acks"
	EnableIdempotence = "enable.idempotence"
	MaxInFlight       = "max.in.flight.requests.per.connection"
	BatchSize         = "batch.size"
	LingerMs          = "linger.ms"
	CompressionType   = "compression.type"
	BufferMemory      = "buffer.memory"
	MaxRequestSize    = "max.request.size"
	TransactionalID   = "transactional.id"
	SecurityProtocol  = "security.protocol"
	RequestTimeoutMs  = "request.timeout.ms"
	// TransactionTimeoutMs is how long the coordinator lets a transaction
	// stay open (Java, franz-go and librdkafka share the name).
	TransactionTimeoutMs = "transaction.timeout.ms"
	// BatchNumMessages is librdkafka's own (no Java equivalent).
	BatchNumMessages = "batch.num.messages"
	// QueueBufferingMaxMessages is librdkafka's bound on its buffer in
	// records (no Java equivalent; prodlab's MaxBufferedRecords for
	// franz-go).
	QueueBufferingMaxMessages = "queue.buffering.max.messages"
)

// BufferedRecordsLimits are the settings that bound a client's buffer in
// records, each in its client's words: what can be in flight is never
// more.
var BufferedRecordsLimits = []string{MaxBufferedRecords, QueueBufferingMaxMessages}

// librdkafkaAliases are librdkafka's other names for the settings Parse
// reads, so that a librdkafka experiment written in its client's words is
// read the same (max.in.flight is max.in.flight.requests.per.connection,
// queue.buffering.max.ms is linger.ms, message.max.bytes bounds a request
// as max.request.size does).
var librdkafkaAliases = map[string][]string{
	Acks:            {"request.required.acks"},
	MaxInFlight:     {"max.in.flight"},
	LingerMs:        {"queue.buffering.max.ms"},
	CompressionType: {"compression.codec"},
	MaxRequestSize:  {"message.max.bytes"},
}

// Extensions are prodlab's own producer settings. They are not Kafka
// configurations: drivers that cannot honour one must reject it.
const (
	// MaxBufferedRecords bounds the producer buffer by a record count
	// rather than by bytes (franz-go's MaxBufferedRecords).
	MaxBufferedRecords = "max.buffered.records"
	// TransactionDurationMs is how long a transactional producer keeps a
	// transaction open before committing it.
	TransactionDurationMs = "transaction.duration.ms"
	// TransactionRecords ends a transaction after this many records (with
	// transaction.duration.ms too: whichever comes first).
	TransactionRecords = "transaction.records"
	// TransactionAbortRatio is the share of transactions a transactional
	// producer aborts on purpose (chosen by the trial's seed), so that the
	// audit can check that none of their records is ever visible.
	TransactionAbortRatio = "transaction.abort.ratio"
)

// TransactionSettings are the extensions that only a transactional
// producer (one with a transactional.id) honours.
var TransactionSettings = []string{TransactionDurationMs, TransactionRecords, TransactionAbortRatio}
