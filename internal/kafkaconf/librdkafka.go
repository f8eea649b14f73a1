package kafkaconf

import (
	_ "embed"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// librdkafka's own settings. The C client (and every client built on it:
// confluent-kafka-python, -dotnet, -go, Confluent's JavaScript client,
// rust-rdkafka) names most settings its own way (batch.num.messages,
// queue.buffering.max.kbytes, sticky.partitioning.linger.ms), and prodlab
// accepts them in its words. The table is the bundled library's own
// (rd_kafka_conf_properties_show), written to librdkafka_properties.tsv by
// `prodlab-librdkafka properties` (make gen-librdkafka); a test of the
// worker fails when the file and the library part.

// LibrdkafkaProp is one librdkafka configuration property.
type LibrdkafkaProp struct {
	Name string
	// Side is "*" (both), "P" (producer) or "C" (consumer).
	Side string
	// Topic says it is a topic-level property (set per topic, or on the
	// default topic configuration).
	Topic bool
	// Type is librdkafka's type word: string, integer, boolean, enum value,
	// CSV flags, float, pattern list, see dedicated API.
	Type string
	// Default is the default as the table prints it.
	Default string
	// AliasOf names the property an alias stands for, "" for none.
	AliasOf string
	// Range is the table's range column: "1 .. 1000000" for a number, the
	// values of an enum or flags, "" for none.
	Range string
}

//go:embed librdkafka_properties.tsv
var librdkafkaTSV string

var librdkafkaProps = sync.OnceValue(func() map[string]LibrdkafkaProp {
	props, err := ParseLibrdkafkaTSV(librdkafkaTSV)
	if err != nil {
		panic("kafkaconf: librdkafka_properties.tsv: " + err.Error())
	}
	m := make(map[string]LibrdkafkaProp, len(props))
	for _, p := range props {
		m[p.Name] = p
	}
	return m
})

// Librdkafka returns librdkafka's property name, if it is one a producer
// can set (side * or P, not a callback or pointer).
func Librdkafka(name string) (LibrdkafkaProp, bool) {
	p, ok := librdkafkaProps()[name]
	if !ok || p.Side == "C" || p.Type == "see dedicated API" || p.Type == "pointer" {
		return LibrdkafkaProp{}, false
	}
	return p, true
}

// LibrdkafkaNames lists every property a librdkafka producer can set, sorted.
func LibrdkafkaNames() []string {
	var out []string
	for n := range librdkafkaProps() {
		if _, ok := Librdkafka(n); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Canonical is the property an alias stands for, or name itself.
func (p LibrdkafkaProp) Canonical() string {
	if p.AliasOf != "" {
		return p.AliasOf
	}
	return p.Name
}

var (
	tableAlias = regexp.MustCompile("^Alias for `([^`]+)`")
	tableType  = regexp.MustCompile(`\*Type: ([^*]+)\*`)
)

// ParseLibrdkafkaTable reads librdkafka's property table
// (rd_kafka_conf_properties_show's Markdown: "## Global configuration
// properties", then "## Topic configuration properties").
func ParseLibrdkafkaTable(md string) ([]LibrdkafkaProp, error) {
	var out []LibrdkafkaProp
	topic := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "## Topic"):
			topic = true
			continue
		case strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "Property ") || strings.HasPrefix(line, "---"):
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 6 {
			continue
		}
		desc := strings.TrimSpace(strings.Join(cells[5:], "|"))
		p := LibrdkafkaProp{
			Name:    strings.TrimSpace(cells[0]),
			Side:    strings.TrimSpace(cells[1]),
			Topic:   topic,
			Default: strings.TrimSpace(cells[3]),
			Range:   strings.TrimSpace(cells[2]),
		}
		if m := tableAlias.FindStringSubmatch(desc); m != nil {
			p.AliasOf = m[1]
		}
		if m := tableType.FindStringSubmatch(desc); m != nil {
			p.Type = strings.TrimSpace(m[1])
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no properties in librdkafka's table")
	}
	return out, nil
}

// tsvHeader is the first line of librdkafka_properties.tsv.
const tsvHeader = "name\tside\tlevel\ttype\tdefault\talias_of\trange"

// FormatLibrdkafkaTSV writes props as librdkafka_properties.tsv.
func FormatLibrdkafkaTSV(props []LibrdkafkaProp) string {
	var b strings.Builder
	b.WriteString(tsvHeader + "\n")
	for _, p := range props {
		level := "global"
		if p.Topic {
			level = "topic"
		}
		def := strings.ReplaceAll(p.Default, "\t", " ")
		rng := strings.ReplaceAll(p.Range, "\t", " ")
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.Side, level, p.Type, def, p.AliasOf, rng)
	}
	return b.String()
}

// ParseLibrdkafkaTSV reads librdkafka_properties.tsv.
func ParseLibrdkafkaTSV(s string) ([]LibrdkafkaProp, error) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 0 || lines[0] != tsvHeader {
		return nil, fmt.Errorf("want the header %q", tsvHeader)
	}
	var out []LibrdkafkaProp
	for i, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("line %d: want 7 fields, got %d", i+2, len(f))
		}
		out = append(out, LibrdkafkaProp{Name: f[0], Side: f[1], Topic: f[2] == "topic", Type: f[3], Default: f[4], AliasOf: f[5], Range: f[6]})
	}
	return out, nil
}

// LibrdkafkaTSV is the embedded table as written in
// librdkafka_properties.tsv, for the worker's test to hold it against the
// library's own.
func LibrdkafkaTSV() string { return librdkafkaTSV }
