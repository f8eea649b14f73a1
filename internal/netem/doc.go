// Package netem emulates a wide-area network between Kafka producers and
// brokers without root privileges or tc: one user-space TCP proxy per broker,
// bound to 127.0.0.1, through which clients reach the cluster.
//
// Each proxied connection is a pair of delay lines (client→broker and
// broker→client). Every chunk read from one side is stamped with its arrival
// time and written to the other side at arrival + RTT/2 (± jitter, clamped so
// delivery stays monotonic), optionally paced to a bandwidth. Reading never
// waits for earlier chunks to be delivered, so pipelined Kafka requests stay
// pipelined, exactly as on a real long link.
//
// The proxy also follows the Kafka framing (size-prefixed requests and
// responses) without copying payloads, to report what the producer really put
// on the wire: produce requests, their size, how many were in flight per
// connection, and their round trip as the client saw it. Optionally it rewrites
// broker addresses in Metadata and FindCoordinator responses (for clusters
// whose advertised listeners cannot be changed) and cuts connections right
// after a produce request reached the broker, to exercise producer retries.
package netem
