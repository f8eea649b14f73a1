package netem

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// toProxy rewrites 127.0.0.1:9092 to proxy.local:40001 and leaves anything
// else alone.
func toProxy(host string, port int32) (string, int32, bool) {
	if host == "127.0.0.1" && port == 9092 {
		return "proxy.local", 40001, true
	}
	return host, port, false
}

// responseFrame encodes resp as a broker would: size, correlation id, the
// response header tag section for flexible versions, body.
func responseFrame(corr int32, resp kmsg.Response) []byte {
	f := binary.BigEndian.AppendUint32(make([]byte, 4), uint32(corr))
	if resp.IsFlexible() {
		f = append(f, 0)
	}
	f = resp.AppendTo(f)
	binary.BigEndian.PutUint32(f, uint32(len(f)-4))
	return f
}

// decodeFrame is the client side: checks the size prefix and correlation id
// and decodes the body into resp.
func decodeFrame(t *testing.T, f []byte, corr int32, resp kmsg.Response) {
	t.Helper()
	if got := int(binary.BigEndian.Uint32(f)); got != len(f)-4 {
		t.Fatalf("size prefix %d, frame has %d bytes after it", got, len(f)-4)
	}
	if got := int32(binary.BigEndian.Uint32(f[4:])); got != corr {
		t.Fatalf("correlation id %d, want %d", got, corr)
	}
	body := f[8:]
	if resp.IsFlexible() {
		body = body[1:]
	}
	if err := resp.ReadFrom(body); err != nil {
		t.Fatalf("decode rewritten frame: %v", err)
	}
}

func metadataResponse(version int16) *kmsg.MetadataResponse {
	m := kmsg.NewPtrMetadataResponse()
	m.Version = version
	for i, hp := range []struct {
		h string
		p int32
	}{{"127.0.0.1", 9092}, {"10.0.0.7", 9092}} {
		b := kmsg.NewMetadataResponseBroker()
		b.NodeID, b.Host, b.Port = int32(i), hp.h, hp.p
		m.Brokers = append(m.Brokers, b)
	}
	topic := kmsg.NewMetadataResponseTopic()
	topic.Topic = kmsg.StringPtr("t")
	topic.Partitions = append(topic.Partitions, kmsg.NewMetadataResponseTopicPartition())
	m.Topics = append(m.Topics, topic)
	return m
}

func findCoordinatorResponse(version int16) *kmsg.FindCoordinatorResponse {
	fc := kmsg.NewPtrFindCoordinatorResponse()
	fc.Version = version
	if version < 4 {
		fc.NodeID, fc.Host, fc.Port = 0, "127.0.0.1", 9092
		return fc
	}
	for _, hp := range []struct {
		h string
		p int32
	}{{"127.0.0.1", 9092}, {"10.0.0.7", 9092}} {
		c := kmsg.NewFindCoordinatorResponseCoordinator()
		c.Key, c.Host, c.Port = "group", hp.h, hp.p
		fc.Coordinators = append(fc.Coordinators, c)
	}
	return fc
}

// TestRewriteFrame rewrites the matching broker and only it, across
// non-flexible and flexible versions, keeping the correlation id and fixing
// the size prefix.
func TestRewriteFrame(t *testing.T) {
	for _, v := range []int16{0, 1, 5, 8, 9, 12, 13} {
		t.Run(fmt.Sprintf("metadata v%d", v), func(t *testing.T) {
			out, err := rewriteFrame(apiMetadata, v, responseFrame(77, metadataResponse(v)), toProxy)
			if err != nil {
				t.Fatal(err)
			}
			got := &kmsg.MetadataResponse{Version: v}
			decodeFrame(t, out, 77, got)
			if b := got.Brokers[0]; b.Host != "proxy.local" || b.Port != 40001 {
				t.Errorf("broker 0 at %s:%d, want proxy.local:40001", b.Host, b.Port)
			}
			if b := got.Brokers[1]; b.Host != "10.0.0.7" || b.Port != 9092 {
				t.Errorf("broker 1 at %s:%d, want unchanged 10.0.0.7:9092", b.Host, b.Port)
			}
			if len(got.Topics) != 1 || *got.Topics[0].Topic != "t" {
				t.Errorf("topics lost in rewrite: %+v", got.Topics)
			}
		})
	}
	// FindCoordinator: v0-v3 carry a single coordinator (v3 is the first
	// flexible version), v4+ a Coordinators array.
	for _, v := range []int16{0, 1, 2, 3, 4, 6} {
		t.Run(fmt.Sprintf("find coordinator v%d", v), func(t *testing.T) {
			out, err := rewriteFrame(apiFindCoordinator, v, responseFrame(5, findCoordinatorResponse(v)), toProxy)
			if err != nil {
				t.Fatal(err)
			}
			got := &kmsg.FindCoordinatorResponse{Version: v}
			decodeFrame(t, out, 5, got)
			if v < 4 {
				if got.Host != "proxy.local" || got.Port != 40001 {
					t.Errorf("coordinator at %s:%d, want proxy.local:40001", got.Host, got.Port)
				}
				return
			}
			if c := got.Coordinators[0]; c.Host != "proxy.local" || c.Port != 40001 {
				t.Errorf("coordinator 0 at %s:%d, want proxy.local:40001", c.Host, c.Port)
			}
			if c := got.Coordinators[1]; c.Host != "10.0.0.7" || c.Port != 9092 {
				t.Errorf("coordinator 1 at %s:%d, want unchanged", c.Host, c.Port)
			}
		})
	}
	t.Run("unsupported version passes through with an error", func(t *testing.T) {
		in := responseFrame(1, metadataResponse(9))
		out, err := rewriteFrame(apiMetadata, 99, in, toProxy)
		if err == nil || string(out) != string(in) {
			t.Errorf("got err %v and a changed frame: want an error and the frame unchanged", err)
		}
	})
}

// TestRewriteThroughProxy: a Metadata response from a fake broker, read
// through the proxy in pieces, arrives rewritten; with Rewrite nil it is
// untouched.
func TestRewriteThroughProxy(t *testing.T) {
	meta := func(key, version int16, corr int32, req []byte) []byte {
		if key != apiMetadata {
			return ackResponse(key, version, corr, req)
		}
		return responseFrame(corr, metadataResponse(version))
	}
	for _, tc := range []struct {
		name     string
		rewrite  RewriteFunc
		wantHost string
	}{
		{"rewrite", toProxy, "proxy.local"},
		{"no rewrite", nil, "127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fb := &fakeBroker{delay: time.Millisecond, respond: meta}
			p := startProxy(t, fb.start(t), Config{RTT: 2 * time.Millisecond, Rewrite: tc.rewrite})
			c := dial(t, p.Addr())
			// A produce (not rewritten, in flight) then Metadata v12.
			if _, err := c.Write(produceFrame(9, 1, -1, 50, nil)); err != nil {
				t.Fatal(err)
			}
			req := kmsg.NewPtrMetadataRequest()
			req.Version = 12
			if _, err := c.Write(kmsg.NewRequestFormatter().AppendRequest(nil, req, 2)); err != nil {
				t.Fatal(err)
			}
			if _, err := readFrame(c); err != nil {
				t.Fatalf("produce response: %v", err)
			}
			f, err := readFrame(c)
			if err != nil {
				t.Fatalf("metadata response: %v", err)
			}
			got := &kmsg.MetadataResponse{Version: 12}
			decodeFrame(t, f, 2, got)
			if got.Brokers[0].Host != tc.wantHost {
				t.Errorf("broker 0 host %q, want %q", got.Brokers[0].Host, tc.wantHost)
			}
			if ev := p.Events(); len(ev) != 0 {
				t.Errorf("unexpected events: %+v", ev)
			}
		})
	}
}
