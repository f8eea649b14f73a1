// Package netem emulates a wide-area network between Kafka producers and
// brokers without root privileges or tc: one user-space TCP proxy per broker,
// bound to 127.0.0.1, through which clients reach the cluster.
//
// Each proxied connection is a pair of delay lines (client→broker and
// broker→client). Every chunk read from one side is stamped with its arrival
// time and written to the other side at arrival + RTT/2 (± jitter, clamped so
// delivery stays monotonic), optionally paced to a bandwidth. Reading never
// waits for earlier chunks to be delivered, so pipelined Kafka requests stay
// pipelined, exactly as on a real long link. With no impairment set, a
// direction skips the delay line while it is empty: its reader writes each
// chunk itself and splices the bodies of large produce requests (direct.go),
// so a proxy at rtt 0 costs as little CPU as an extra TCP hop allows.
//
// The proxy also follows the Kafka framing (size-prefixed requests and
// responses) without copying payloads, to report what the producer really put
// on the wire: produce requests, their size, how many were in flight per
// connection, and their round trip as the client saw it. Optionally it rewrites
// broker addresses in Metadata and FindCoordinator responses (for clusters
// whose advertised listeners cannot be changed) and cuts connections right
// after a produce request reached the broker, to exercise producer retries.
// Connections it cannot read (TLS) pass through unread (Config.Opaque,
// passthrough.go), keeping only the delay line, jitter and bandwidth.
package netem

// Measurement notes and limits:
//
//   - Round trip of a produce request: from its last byte entering the proxy
//     to the first byte of its response being delivered to the client, so the
//     emulated delay is included and the client-side stack is not.
//   - In flight: a produce request is outstanding from its last byte entering
//     the proxy to its response's first byte being delivered. MeanInFlight is
//     the per-send mean (each request samples the count including itself),
//     not time-weighted: it describes pipelining, independent of idle time.
//   - acks=0 produce requests get no response: acks is read from the request
//     (after client id, header tags and transactional id, within the first
//     1 KiB of the frame); such requests are counted but never in flight and
//     never cut. If acks cannot be found in that prefix, the request is
//     assumed to expect a response.
//   - Bandwidth applies per direction per connection, as serialisation delay
//     after the propagation delay, in pieces of about 1 ms.
//   - Jitter is clamped to keep delivery times monotonic, which raises the
//     mean delay slightly when chunks are closer together than the jitter.
//   - Only Metadata and FindCoordinator responses are rewritten
//     (DescribeCluster is not: Kafka producers do not route with it).
//   - Waits shorter than 2 ms end in nanosleep (on Linux and macOS), because
//     the Go netpoller wakes timers with millisecond granularity.
