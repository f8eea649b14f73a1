package clients

import (
	"strings"
	"testing"
)

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
	if got, want := Syntax("<version>"), "franz-go, java, java@<version>, librdkafka or librdkafka@2.11.1"; got != want {
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
		{name: Franz, trogdor: true, capWhy: true, recordLimit: "batch.size", maxInFlight: 5, txns: true},
		{name: Java, liftable: true, trogdor: true, recordLimit: "max.request.size", maxInFlight: 5, txns: true},
		{name: "java@3.9.1", liftable: true, trogdor: true, recordLimit: "max.request.size", maxInFlight: 5, txns: true},
		// librdkafka allows 1 to 5 in flight under idempotence (no fixed cap
		// to explain) and runs on Trogdor agents as its worker.
		{name: Librdkafka, trogdor: true, recordLimit: "message.max.bytes", maxInFlight: 5, txns: true},
		{name: "librdkafka@" + LibrdkafkaRelease, trogdor: true, recordLimit: "message.max.bytes", maxInFlight: 5, txns: true},
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
		if !k.LiftableCap && k.CapWhy == "" && k.IdempotentByDefault {
			t.Errorf("kind %s: cap not liftable, idempotent by default, but no CapWhy", k.Name)
		}
	}
}

// TestBundledRelease: librdkafka runs only the release its worker bundles;
// another is refused naming it, and the bundled one is the release.
func TestBundledRelease(t *testing.T) {
	c, err := Parse("librdkafka")
	if err != nil || c.Release("4.1.0") != LibrdkafkaRelease {
		t.Fatalf("Parse(librdkafka) = %+v, %v; release %q, want %s", c, err, c.Release("4.1.0"), LibrdkafkaRelease)
	}
	if _, err := Parse("librdkafka@" + LibrdkafkaRelease); err != nil {
		t.Errorf("the bundled release: %v", err)
	}
	_, err = Parse("librdkafka@2.3.0")
	if err == nil || !strings.Contains(err.Error(), "bundles librdkafka "+LibrdkafkaRelease) {
		t.Errorf("another release: %v, want a refusal naming %s", err, LibrdkafkaRelease)
	}
}

// TestFleetWorkers: every kind Trogdor agents run outside their own JVM
// names its worker command, executable first; the Java kind runs in the
// agents' JVM and names none.
func TestFleetWorkers(t *testing.T) {
	for _, k := range Kinds() {
		switch {
		case k.Name == Java && k.FleetWorker != nil:
			t.Errorf("java has a fleet worker %v: the agents run it in their JVM", k.FleetWorker)
		case k.Name != Java && k.OnTrogdor && (len(k.FleetWorker) < 2 || !strings.HasPrefix(k.FleetWorker[0], "prodlab")):
			t.Errorf("%s: fleet worker %v, want a prodlab executable and its arguments", k.Name, k.FleetWorker)
		}
	}
}
