package netem

import (
	"encoding/binary"
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// RewriteFunc maps a broker address advertised by the cluster to the address
// clients should use instead; ok=false leaves it unchanged. See
// Config.Rewrite.
type RewriteFunc func(host string, port int32) (newHost string, newPort int32, ok bool)

// rewriteFrame rewrites the broker addresses in one whole response frame
// (size prefix included) answering a Metadata or FindCoordinator request of
// the given version. It returns the original frame when nothing changed. The
// response header is kept byte for byte; only the body is re-encoded with
// kmsg, and the size prefix is recomputed.
func rewriteFrame(key, version int16, frame []byte, fn RewriteFunc) ([]byte, error) {
	var resp kmsg.Response
	switch key {
	case apiMetadata:
		resp = &kmsg.MetadataResponse{Version: version}
	case apiFindCoordinator:
		resp = &kmsg.FindCoordinatorResponse{Version: version}
	default:
		return frame, nil
	}
	if version < 0 || version > resp.MaxVersion() {
		return frame, fmt.Errorf("rewrite api key %d: version %d not supported by kmsg (max %d)", key, version, resp.MaxVersion())
	}
	if len(frame) < 8 {
		return frame, fmt.Errorf("rewrite api key %d v%d: short frame of %d bytes", key, version, len(frame))
	}
	hdrEnd := 8 // size + correlation id
	if resp.IsFlexible() {
		// Response header v1 adds a tagged field section.
		r := byteReader{b: frame[8:]}
		r.skipTags()
		if r.bad {
			return frame, fmt.Errorf("rewrite api key %d v%d: bad response header tags", key, version)
		}
		hdrEnd = len(frame) - len(r.b)
	}
	if err := resp.ReadFrom(frame[hdrEnd:]); err != nil {
		return frame, fmt.Errorf("rewrite api key %d v%d: decode: %w", key, version, err)
	}
	changed := false
	sub := func(host *string, port *int32) {
		if h, p, ok := fn(*host, *port); ok && (h != *host || p != *port) {
			*host, *port, changed = h, p, true
		}
	}
	switch r := resp.(type) {
	case *kmsg.MetadataResponse:
		for i := range r.Brokers {
			sub(&r.Brokers[i].Host, &r.Brokers[i].Port)
		}
	case *kmsg.FindCoordinatorResponse:
		if version < 4 {
			sub(&r.Host, &r.Port)
		}
		for i := range r.Coordinators {
			sub(&r.Coordinators[i].Host, &r.Coordinators[i].Port)
		}
	}
	if !changed {
		return frame, nil
	}
	out := make([]byte, 0, len(frame)+64)
	out = append(out, frame[:hdrEnd]...)
	out = resp.AppendTo(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out, nil
}
