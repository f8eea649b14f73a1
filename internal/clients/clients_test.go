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

// TestCapabilities: the capability flags of each kind, which the checks
// that once asked for a kind by name now read.
func TestCapabilities(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		liftable, trogdor, txns bool
		capWhy                  bool // a reason is given for a cap that cannot be lifted
		recordLimit             string
		maxInFlight             int
	}{
		{name: Franz, capWhy: true, recordLimit: "batch.size", maxInFlight: 5, txns: true},
		{name: Java, liftable: true, trogdor: true, recordLimit: "max.request.size", maxInFlight: 5, txns: true},
		{name: "java@3.9.1", liftable: true, trogdor: true, recordLimit: "max.request.size", maxInFlight: 5, txns: true},
	} {
		c, err := Parse(tc.name)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.name, err)
		}
		k := c.Kind
		if k.LiftableCap != tc.liftable || k.OnTrogdor != tc.trogdor || k.Transactions != tc.txns {
			t.Errorf("%s: LiftableCap %v OnTrogdor %v Transactions %v, want %v %v %v",
				tc.name, k.LiftableCap, k.OnTrogdor, k.Transactions, tc.liftable, tc.trogdor, tc.txns)
		}
		if (k.CapWhy != "") != tc.capWhy {
			t.Errorf("%s: CapWhy %q, want a reason: %v", tc.name, k.CapWhy, tc.capWhy)
		}
		if k.RecordLimit != tc.recordLimit || k.IdempotentMaxInFlight != tc.maxInFlight {
			t.Errorf("%s: RecordLimit %q IdempotentMaxInFlight %d, want %q %d",
				tc.name, k.RecordLimit, k.IdempotentMaxInFlight, tc.recordLimit, tc.maxInFlight)
		}
	}
	// Every kind states the settings the checks read.
	for _, k := range Kinds() {
		if k.RecordLimit == "" || k.IdempotentMaxInFlight <= 0 {
			t.Errorf("kind %s: RecordLimit %q, IdempotentMaxInFlight %d: both must be set", k.Name, k.RecordLimit, k.IdempotentMaxInFlight)
		}
		if !k.LiftableCap && k.CapWhy == "" {
			t.Errorf("kind %s: cap not liftable, but no CapWhy", k.Name)
		}
	}
}
