package netem

import "time"

// Passthrough (Config.Opaque) is the proxy's mode for connections whose
// bytes are not Kafka's framing in the clear: TLS (security.protocol SSL or
// SASL_SSL). The proxy then forwards the encrypted stream unchanged, as raw
// TCP, with its delay line, jitter and bandwidth. What is lost, because the
// proxy cannot see requests inside TLS:
//
//   - Stats: ProduceRequests, MaxInFlight, MeanInFlight, MeanRequestBytes and
//     the produce round trips stay zero; Connections, BytesUp and BytesDown
//     (TLS records included) are still counted.
//   - Rewrite: Metadata responses cannot be rewritten, so clients follow the
//     addresses the brokers advertise. Embedded brokers advertise their
//     proxies already; an external TLS cluster cannot be put behind proxies.
//   - Faults: a connection cannot be cut after a produce request.
//
// SASL_PLAINTEXT needs no passthrough: after the SASL exchange (itself
// ordinary Kafka requests) the framing is in the clear.

// passDown forwards one chunk read from the broker unread, at its delivery
// time; false when the link is closing.
func (l *link) passDown(d *direction, data []byte, buf *[]byte, sched *schedule, direct bool) bool {
	now := time.Now()
	return l.emit(d, chunk{data: data, buf: buf, at: sched.deliverAt(now, l.p.config()), arrived: now}, direct)
}
