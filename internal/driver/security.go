package driver

import "maps"

// WithConnection returns producer properties with conn, the properties a
// target needs every client to use to reach its brokers (security.protocol,
// the truststore, the SASL login of a secured embedded cluster), laid over
// them: the cluster's own credentials win over anything an experiment set.
// props itself is not changed; with no conn it is returned as is.
func WithConnection(props, conn map[string]string) map[string]string {
	if len(conn) == 0 {
		return props
	}
	out := make(map[string]string, len(props)+len(conn))
	maps.Copy(out, props)
	maps.Copy(out, conn)
	return out
}
