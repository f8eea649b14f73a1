package trogdor

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// hostileCoordinator answers the probe's requests like a coordinator whose
// probe task is done with status; body, when set, replaces every answer.
func hostileCoordinator(t *testing.T, status any, body []byte) *httptest.Server {
	t.Helper()
	st, err := json.Marshal(status)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body != nil {
			_, _ = w.Write(body)
			return
		}
		switch {
		case strings.HasPrefix(r.URL.Path, "/coordinator/tasks/"):
			_, _ = fmt.Fprintf(w, `{"state":"DONE","status":%s}`, st)
		default:
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestProbeRefusesHostileAnswers: a coordinator whose probe reports node
// names no host has (3 MB, terminal escapes, line breaks), more agents
// than prodlab drives, or an answer larger than any sane one is refused
// at once, and the message quotes the culprit clipped and escaped.
func TestProbeRefusesHostileAnswers(t *testing.T) {
	huge := strings.Repeat("n", 3<<20)
	many := map[string]any{}
	for i := range maxProbed + 1 {
		n := fmt.Sprintf("a%d", i)
		many[n] = map[string]any{"node": n}
	}
	tests := []struct {
		name   string
		status any
		body   []byte
		want   string
	}{
		{name: "3 MB node name", status: map[string]any{huge: map[string]any{"node": huge}}, want: "which no host has"},
		{name: "terminal escape in a name", status: map[string]any{"a\x1b[2J": map[string]any{"node": "a\x1b[2J"}}, want: `"a\x1b[2J"`},
		{name: "line break in an agent list", status: map[string]any{"a": map[string]any{"node": "a", "agents": []string{"a", "b\r\nc"}}}, want: "which no host has"},
		{name: "too many agents", status: many, want: "more than the 1024 prodlab drives"},
		{name: "an answer of 65 MiB", body: []byte(`{"x":"` + strings.Repeat("x", 65<<20) + `"}`), want: "larger than 64 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := hostileCoordinator(t, tt.status, tt.body)
			start := time.Now()
			_, err := Probe(context.Background(), NewClient(srv.URL), 5*time.Second)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %.300v, want %q", err, tt.want)
			}
			if msg := err.Error(); len(msg) > 1000 || strings.ContainsAny(msg, "\x1b\r\n") {
				t.Errorf("error of %d bytes, want one escaped line under 1000: %.200q", len(msg), msg)
			}
			if took := time.Since(start); took > 4*time.Second {
				t.Errorf("took %v, want the answer refused at once", took)
			}
		})
	}
}
