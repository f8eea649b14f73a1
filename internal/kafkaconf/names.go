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
)

// Extensions are prodlab's own producer settings. They are not Kafka
// configurations: drivers that cannot honour one must reject it.
const (
	// MaxBufferedRecords bounds the producer buffer by a record count
	// rather than by bytes (franz-go's MaxBufferedRecords).
	MaxBufferedRecords = "max.buffered.records"
	// TransactionDurationMs is how long a transactional producer keeps a
	// transaction open before committing it.
	TransactionDurationMs = "transaction.duration.ms"
)
