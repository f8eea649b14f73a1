package cluster

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParseConfigDef checks the reader of the worker's output, and that it
// refuses what is not a definition list.
func TestParseConfigDef(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]string
		wantErr  string
	}{
		{"two", "num.io.threads\tINT\nlog.dirs\tSTRING\n", map[string]string{"num.io.threads": "INT", "log.dirs": "STRING"}, ""},
		{"empty", "", nil, "no config definitions"},
		{"no tab", "num.io.threads INT\n", nil, "want NAME<TAB>TYPE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseConfigDef([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseConfigDef = %v, %v; want error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("parseConfigDef = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestUnknownBrokerConfigs checks which names are refused: those the
// definitions lack, except per-listener overrides.
func TestUnknownBrokerConfigs(t *testing.T) {
	def := map[string]string{"num.io.threads": "INT", "num.network.threads": "INT"}
	tests := []struct {
		name  string
		names []string
		want  []string
	}{
		{"known", []string{"num.io.threads"}, nil},
		{"typo", []string{"num.netwrok.threads", "num.io.threads", "a.b"}, []string{"a.b", "num.netwrok.threads"}},
		{"listener override", []string{"listener.name.replication.ssl.keystore.location"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnknownBrokerConfigs(def, tt.names); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("UnknownBrokerConfigs = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestBrokerConfigDefCache checks that a release's definitions come from
// the cache without Java or the worker, and that a missing worker is a
// clear error when there is no cache.
func TestBrokerConfigDefCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("PRODLAB_CACHE", cache)
	if err := os.MkdirAll(filepath.Join(cache, "broker-configs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, "broker-configs", "9.9.9.tsv"), []byte("x.y\tINT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	def, err := BrokerConfigDef(context.Background(), "9.9.9", "/nonexistent.jar")
	if err != nil || def["x.y"] != "INT" {
		t.Fatalf("BrokerConfigDef from cache = %v, %v", def, err)
	}
	_, err = BrokerConfigDef(context.Background(), "9.9.8", "/nonexistent.jar")
	if err == nil || !strings.Contains(err.Error(), "Java worker, which is not at /nonexistent.jar") {
		t.Fatalf("BrokerConfigDef without worker = %v, want the missing worker named", err)
	}
}
