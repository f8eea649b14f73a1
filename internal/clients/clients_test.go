package clients

import "testing"

// TestParse: the names every part of prodlab accepts, and those it refuses.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, kind, version string
		ok                  bool
	}{
		{"franz-go", Franz, "", true},
		{"java", Java, "", true},
		{"java@3.9.1", Java, "3.9.1", true},
		{"java@4.1.0-rc1", Java, "4.1.0-rc1", true},
		{"java@", "", "", false},       // no version after @
		{"java@latest", "", "", false}, // not a release
		{"franz-go@1.18.0", "", "", false},
		{"rdkafka", "", "", false},
	} {
		c, err := Parse(tc.name)
		if (err == nil) != tc.ok || c.Kind.Name != tc.kind || c.Version != tc.version {
			t.Errorf("Parse(%q) = %+v, %v; want kind %q version %q ok %v", tc.name, c, err, tc.kind, tc.version, tc.ok)
		}
	}
	if got, want := Syntax("<version>"), "franz-go, java or java@<version>"; got != want {
		t.Errorf("Syntax = %q, want %q", got, want)
	}
}
