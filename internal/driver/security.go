package driver

import "github.com/prodlab/prodlab/internal/kafkaconf"

// WithConnection returns producer settings with conn, the properties a
// target needs every client to use to reach its brokers (security.protocol,
// the truststore, the SASL login of a secured embedded cluster), laid over
// them: the cluster's own credentials win over anything an experiment set.
// s itself is not changed; with no conn it is returned as is.
func WithConnection(s kafkaconf.Settings, conn map[string]string) kafkaconf.Settings {
	return s.With(conn)
}
