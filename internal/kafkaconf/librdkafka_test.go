package kafkaconf

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// librdkafkaTableSample is a cut of librdkafka's own property table
// (rd_kafka_conf_properties_show, CONFIGURATION.md), with the lines a
// parser must skip: headings, column headers, separators, the legend.
const librdkafkaTableSample = `# Configuration properties
## Global configuration properties

Property                                 | C/P | Range           |       Default | Importance | Description
-----------------------------------------|-----|-----------------|--------------:|------------| --------------------------
builtin.features                         |  *  |                 | gzip, snappy, ssl | low        | Indicates the builtin features. <br>*Type: CSV flags*
bootstrap.servers                        |  *  |                 |               | high       | Alias for ` + "`metadata.broker.list`" + `: Initial list of brokers. <br>*Type: string*
batch.num.messages                       |  P  | 1 .. 1000000    |         10000 | medium     | Maximum number of messages batched in one MessageSet. <br>*Type: integer*
debug                                    |  *  | generic, broker |               | medium     | A comma-separated list | of debug contexts (a pipe in the description). <br>*Type: CSV flags*
group.id                                 |  C  |                 |               | high       | Client group id string. <br>*Type: string*
dr_cb                                    |  P  |                 |               | low        | Delivery report callback. <br>*Type: see dedicated API*

## Topic configuration properties

Property                                 | C/P | Range           |       Default | Importance | Description
-----------------------------------------|-----|-----------------|--------------:|------------| --------------------------
acks                                     |  P  | -1 .. 1000      |            -1 | high       | Alias for ` + "`request.required.acks`" + `: This field indicates the number of acknowledgements. <br>*Type: integer*
compression.codec                        |  P  | none, gzip      |       inherit | medium     | Compression codec to use. <br>*Type: enum value*

### C/P legend: C = Consumer, P = Producer, * = both
`

// TestParseLibrdkafkaTable: each table row becomes a property with its
// side, level (global until the topic heading), type, default and alias;
// headings, headers and separators are skipped; a description holding a
// '|' still yields its type.
func TestParseLibrdkafkaTable(t *testing.T) {
	got, err := ParseLibrdkafkaTable(librdkafkaTableSample)
	if err != nil {
		t.Fatal(err)
	}
	want := []LibrdkafkaProp{
		{Name: "builtin.features", Side: "*", Type: "CSV flags", Default: "gzip, snappy, ssl"},
		{Name: "bootstrap.servers", Side: "*", Type: "string", AliasOf: "metadata.broker.list"},
		{Name: "batch.num.messages", Side: "P", Type: "integer", Default: "10000", Range: "1 .. 1000000"},
		{Name: "debug", Side: "*", Type: "CSV flags", Range: "generic, broker"},
		{Name: "group.id", Side: "C", Type: "string"},
		{Name: "dr_cb", Side: "P", Type: "see dedicated API"},
		{Name: "acks", Side: "P", Topic: true, Type: "integer", Default: "-1", AliasOf: "request.required.acks", Range: "-1 .. 1000"},
		{Name: "compression.codec", Side: "P", Topic: true, Type: "enum value", Default: "inherit", Range: "none, gzip"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseLibrdkafkaTable:\n got %+v\nwant %+v", got, want)
	}

	// A text without a single row is an error, not an empty table.
	for _, md := range []string{"", "## Global configuration properties\n\nProperty | C/P\n---|---\n"} {
		if props, err := ParseLibrdkafkaTable(md); err == nil {
			t.Errorf("ParseLibrdkafkaTable(%q) = %v, nil; want an error", md, props)
		}
	}
}

// TestLibrdkafkaTSV: FormatLibrdkafkaTSV and ParseLibrdkafkaTSV round-trip
// (a tab in a default becomes a space, the one thing the format cannot
// hold), and a malformed file is refused with its line number.
func TestLibrdkafkaTSV(t *testing.T) {
	props := []LibrdkafkaProp{
		{Name: "client.id", Side: "*", Type: "string", Default: "rdkafka"},
		{Name: "linger.ms", Side: "P", Type: "float", Default: "5", AliasOf: "queue.buffering.max.ms"},
		{Name: "acks", Side: "P", Topic: true, Type: "integer", Default: "-1", AliasOf: "request.required.acks", Range: "-1 .. 1000"},
		{Name: "metadata.broker.list", Side: "*", Type: "string"},
		{Name: "odd", Side: "*", Type: "string", Default: "a\tb"},
	}
	tsv := FormatLibrdkafkaTSV(props)
	if first, _, _ := strings.Cut(tsv, "\n"); first != "name\tside\tlevel\ttype\tdefault\talias_of\trange" {
		t.Errorf("header = %q", first)
	}
	if !strings.Contains(tsv, "acks\tP\ttopic\tinteger\t-1\trequest.required.acks\t-1 .. 1000\n") {
		t.Errorf("topic row not written as expected:\n%s", tsv)
	}
	got, err := ParseLibrdkafkaTSV(tsv)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(props)
	want[4].Default = "a b"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, want)
	}

	for _, tc := range []struct {
		name, tsv, wantErr string
	}{
		// Not the file: no header.
		{"no header", "client.id\t*\tglobal\tstring\trdkafka\t\t\n", "want the header"},
		// Empty input has no header either.
		{"empty", "", "want the header"},
		// A row missing its alias column is refused, naming its line.
		{"short row", tsvHeader + "\nclient.id\t*\tglobal\tstring\n", "line 2: want 7 fields, got 4"},
		// A row with a stray tab too.
		{"long row", tsvHeader + "\na\t*\tglobal\tstring\t\t\t\t\nb\t*\tglobal\tstring\t\t\t\n", "line 2: want 7 fields, got 8"},
	} {
		if _, err := ParseLibrdkafkaTSV(tc.tsv); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: ParseLibrdkafkaTSV error %v, want one containing %q", tc.name, err, tc.wantErr)
		}
	}
}

// TestEmbeddedLibrdkafkaTable: the bundled table parses and says what
// librdkafka 2.11 says of the settings prodlab relies on.
func TestEmbeddedLibrdkafkaTable(t *testing.T) {
	props, err := ParseLibrdkafkaTSV(librdkafkaTSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(props) < 150 {
		t.Errorf("embedded table has %d properties, want librdkafka's ~190", len(props))
	}
	for _, p := range props {
		switch {
		case p.Name == "" || strings.TrimSpace(p.Name) != p.Name:
			t.Errorf("bad name %q", p.Name)
		case p.Side != "*" && p.Side != "P" && p.Side != "C":
			t.Errorf("%s: side %q, want *, P or C", p.Name, p.Side)
		case p.Type == "":
			t.Errorf("%s: no type", p.Name)
		}
		if p.AliasOf != "" {
			if _, ok := librdkafkaProps()[p.AliasOf]; !ok {
				t.Errorf("%s is an alias of %s, which the table lacks", p.Name, p.AliasOf)
			}
		}
	}
}

// TestLibrdkafka: the properties a librdkafka producer can set, with what
// the table says of them; consumer-only properties and callbacks are not
// among them.
func TestLibrdkafka(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ok        bool
		typ       string
		topic     bool
		canonical string
	}{
		// librdkafka's own producer setting.
		{"batch.num.messages", true, "integer", false, "batch.num.messages"},
		// Both sides, global.
		{"client.id", true, "string", false, "client.id"},
		// The Java name is an alias of librdkafka's.
		{"bootstrap.servers", true, "string", false, "metadata.broker.list"},
		// A float in librdkafka (an integer for Java), alias of queue.buffering.max.ms.
		{"linger.ms", true, "float", false, "queue.buffering.max.ms"},
		// A topic-level property, alias of request.required.acks.
		{"acks", true, "integer", true, "request.required.acks"},
		{"request.required.acks", true, "integer", true, "request.required.acks"},
		// Producer-only.
		{"enable.idempotence", true, "boolean", false, "enable.idempotence"},
		// Consumer-only: not a producer's.
		{"group.id", false, "", false, ""},
		{"max.partition.fetch.bytes", false, "", false, ""},
		// A callback (see dedicated API), set through the API, not by name.
		{"dr_cb", false, "", false, ""},
		{"error_cb", false, "", false, ""},
		// Java's, not librdkafka's.
		{"buffer.memory", false, "", false, ""},
		// Nothing's.
		{"no.such.setting", false, "", false, ""},
	} {
		p, ok := Librdkafka(tc.name)
		if ok != tc.ok {
			t.Errorf("Librdkafka(%q) ok = %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			if p != (LibrdkafkaProp{}) {
				t.Errorf("Librdkafka(%q) = %+v with ok false, want the zero value", tc.name, p)
			}
			continue
		}
		if p.Name != tc.name || p.Type != tc.typ || p.Topic != tc.topic || p.Canonical() != tc.canonical {
			t.Errorf("Librdkafka(%q) = %+v (canonical %s), want type %q topic %v canonical %s",
				tc.name, p, p.Canonical(), tc.typ, tc.topic, tc.canonical)
		}
	}
}

// TestLibrdkafkaNames: sorted, without duplicates, and exactly the names
// Librdkafka accepts.
func TestLibrdkafkaNames(t *testing.T) {
	names := LibrdkafkaNames()
	if !slices.IsSorted(names) {
		t.Error("LibrdkafkaNames is not sorted")
	}
	if c := slices.Compact(slices.Clone(names)); len(c) != len(names) {
		t.Errorf("LibrdkafkaNames has %d duplicates", len(names)-len(c))
	}
	for _, n := range names {
		if _, ok := Librdkafka(n); !ok {
			t.Errorf("LibrdkafkaNames lists %s, which Librdkafka refuses", n)
		}
	}
	accepted := 0
	for n := range librdkafkaProps() {
		if _, ok := Librdkafka(n); ok {
			accepted++
		}
	}
	if accepted != len(names) {
		t.Errorf("LibrdkafkaNames has %d names, Librdkafka accepts %d", len(names), accepted)
	}
	for _, n := range []string{"batch.num.messages", "queue.buffering.max.kbytes", "sticky.partitioning.linger.ms", "acks"} {
		if !slices.Contains(names, n) {
			t.Errorf("LibrdkafkaNames lacks %s", n)
		}
	}
	for _, n := range []string{"group.id", "dr_cb", "opaque"} {
		if slices.Contains(names, n) {
			t.Errorf("LibrdkafkaNames lists %s, not a producer's setting", n)
		}
	}
}

// TestProducerTypeLibrdkafka: ProducerType and ProducerNames know
// librdkafka's names too; a name both clients have keeps the Java type.
func TestProducerTypeLibrdkafka(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  Type
		ok   bool
	}{
		// librdkafka-only: typed as a string (its worker checks the value).
		{"batch.num.messages", TypeString, true},
		{"queue.buffering.max.ms", TypeString, true},
		// Shared with Java: the Java type wins.
		{BatchSize, TypeInt, true},
		{LingerMs, TypeLong, true},
		{"bootstrap.servers", TypeList, true},
		// prodlab's own.
		{MaxBufferedRecords, TypeLong, true},
		// librdkafka's consumer-only setting: no producer's.
		{"group.id", 0, false},
		// A callback: not settable by name.
		{"dr_msg_cb", 0, false},
	} {
		typ, ok := ProducerType(tc.name)
		if typ != tc.typ || ok != tc.ok {
			t.Errorf("ProducerType(%q) = %v, %v; want %v, %v", tc.name, typ, ok, tc.typ, tc.ok)
		}
	}

	names := ProducerNames()
	if !slices.IsSorted(names) {
		t.Error("ProducerNames is not sorted")
	}
	if c := slices.Compact(slices.Clone(names)); len(c) != len(names) {
		t.Errorf("ProducerNames has %d duplicates (a name both clients have listed twice?)", len(names)-len(c))
	}
	for _, n := range []string{"batch.num.messages", Acks, BufferMemory, MaxBufferedRecords} {
		if !slices.Contains(names, n) {
			t.Errorf("ProducerNames lacks %s", n)
		}
	}
	for _, n := range names {
		if _, ok := ProducerType(n); !ok {
			t.Errorf("ProducerNames lists %s, which ProducerType does not know", n)
		}
	}
	if slices.Contains(names, "group.id") {
		t.Error("ProducerNames lists the consumer's group.id")
	}
}
