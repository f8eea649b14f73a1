package audit

import (
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Option adjusts how ReadBack reads a topic.
type Option func(*readConfig)

// readConfig holds ReadBack's settings; defaultReadConfig is the one place
// defaults live.
type readConfig struct {
	committed bool
	stall     time.Duration
	probe     time.Duration
	extra     []kgo.Opt
}

func defaultReadConfig() readConfig {
	return readConfig{stall: 30 * time.Second, probe: 5 * time.Second}
}

// ReadCommitted reads with read_committed isolation: records of aborted
// transactions are skipped and the read stops at each partition's last
// stable offset instead of its high watermark. Default: read_uncommitted
// (Java: isolation.level), which is what a non-transactional producer's
// audit wants: every record the broker holds.
func ReadCommitted() Option {
	return func(c *readConfig) { c.committed = true }
}

// StallTimeout bounds how long the read-back may go without any progress
// before it gives up and reports the audit incomplete. The Kafka client
// retries an unreachable broker silently, so without it a dead cluster would
// only be noticed when ctx ends. Default 30s; zero or less disables it and
// leaves ctx as the only bound.
func StallTimeout(d time.Duration) Option {
	return func(c *readConfig) { c.stall = d }
}

// ClientOpts adds options to the Kafka client ReadBack creates, e.g. TLS or
// SASL for an external cluster. They are applied after ReadBack's own, so
// they can override its consumer settings; don't override the partitions to
// consume.
func ClientOpts(opts ...kgo.Opt) Option {
	return func(c *readConfig) { c.extra = append(c.extra, opts...) }
}
