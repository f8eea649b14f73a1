package expfile

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/payload"
)

// Key prefixes of the open-ended settings.
const (
	producerPrefix     = "producer."
	topicConfigsPrefix = "topic.configs."
)

// field is one fixed setting of an experiment, addressed by its canonical
// dotted key. normalize checks a value written as text and returns the form
// to store; assign stores a normalized value into an experiment.
type field struct {
	key       string
	normalize func(raw, dir string) (string, error)
	assign    func(e *Experiment, v string)
	// typed converts a normalized value to the Go type YAML writes.
	typed func(v string) any
}

// settingFields are the fixed settings of an experiment, in the order
// YAML() writes them.
var settingFields = []field{
	stringField("name", checkName, func(e *Experiment) *string { return &e.Name }),
	stringField("description", nil, func(e *Experiment) *string { return &e.Description }),
	intField("cluster.brokers", 1, MaxBrokers, func(e *Experiment) *int { return &e.Cluster.Brokers }),
	stringField("cluster.kafka", checkKafka, func(e *Experiment) *string { return &e.Cluster.Kafka }),
	intField("cluster.controllers", 0, MaxControllers, func(e *Experiment) *int { return &e.Cluster.Controllers }),
	stringField("cluster.security", checkSecurity, func(e *Experiment) *string { return &e.Cluster.Security }),
	stringField("cluster.storage", checkStorage, func(e *Experiment) *string { return &e.Cluster.Storage }),
	stringField("cluster.cpus", checkCPUs, func(e *Experiment) *string { return &e.Cluster.CPUs }),
	intField("cluster.transaction.version", 0, MaxTransactionVersion, func(e *Experiment) *int { return &e.Cluster.TransactionVersion }),
	intField("topic.partitions", 1, math.MaxInt32, func(e *Experiment) *int { return &e.Topic.Partitions }),
	intField("topic.replication.factor", 1, math.MaxInt16, func(e *Experiment) *int { return &e.Topic.ReplicationFactor }),
	int64Field("workload.records", 1, MaxRecords, func(e *Experiment) *int64 { return &e.Workload.Records }),
	intField("workload.record.size", 1, MaxRecordSize, func(e *Experiment) *int { return &e.Workload.RecordSize }),
	stringField("workload.payload", checkPayload, func(e *Experiment) *string { return &e.Workload.Payload }),
	zeroOrField("workload.rate", "as fast as possible", "records/s", MinRate, MaxRate, func(e *Experiment) *float64 { return &e.Workload.Rate }),
	floatField("workload.timeout.s", MinTimeoutS, MaxTimeoutS, false, func(e *Experiment) *float64 { return &e.Workload.TimeoutS }),
	zeroOrField("workload.duration.s", "a burst of workload.records", "seconds", MinWindowS, MaxDurationS, func(e *Experiment) *float64 { return &e.Workload.DurationS }),
	zeroOrField("workload.warmup.s", "none", "seconds", MinWindowS, MaxDurationS, func(e *Experiment) *float64 { return &e.Workload.WarmupS }),
	int64Field("workload.warmup.records", 0, MaxRecords, func(e *Experiment) *int64 { return &e.Workload.WarmupRecords }),
	keySpaceFields[0], keySpaceFields[1], keySpaceFields[2], keySpaceFields[3],
	producersFields[0], producersFields[1], producersFields[2],
	kip1269Fields[0], kip1269Fields[1],
	trogdorFields[0], trogdorFields[1], trogdorFields[2],
	zoneFields[0], zoneFields[1], zoneFields[2], zoneFields[3], zoneFields[4], zoneFields[5],
	floatField("timeline.interval.ms", 0, MaxTimelineIntervalMs, false, func(e *Experiment) *float64 { return &e.TimelineIntervalMs }),
	stringField("client", checkClient, func(e *Experiment) *string { return &e.Client }),
	delayField("network.rtt.ms", func(e *Experiment) *float64 { return &e.Network.RTTMs }),
	delayField("network.jitter.ms", func(e *Experiment) *float64 { return &e.Network.JitterMs }),
	bandwidthField("network.bandwidth", func(e *Experiment) *float64 { return &e.Network.BandwidthMbit }),
	delayField("network.replication.rtt.ms", func(e *Experiment) *float64 { return &e.Network.ReplicationRTTMs }),
	intField("network.cut.every", 0, math.MaxInt32, func(e *Experiment) *int { return &e.Network.CutEvery }),
	boolField("network.proxy", func(e *Experiment) *bool { return &e.Network.Proxy }),
	boolField("audit", func(e *Experiment) *bool { return &e.Audit }),
	boolField("expect.lost", func(e *Experiment) *bool { return &e.Expect.Lost }),
	boolField("expect.duplicates", func(e *Experiment) *bool { return &e.Expect.Duplicates }),
	boolField("expect.reordered", func(e *Experiment) *bool { return &e.Expect.Reordered }),
	boolField("expect.phantom", func(e *Experiment) *bool { return &e.Expect.Phantom }),
	boolField("expect.aborted.visible", func(e *Experiment) *bool { return &e.Expect.AbortedVisible }),
}

// fields are every fixed setting: the experiment's, then the run-level ones.
var fields = append(append(append(slices.Clip(settingFields), roundFields...), capacityFields...), adviseFields...)

// fieldByKey indexes fields by canonical key.
var fieldByKey = func() map[string]field {
	m := make(map[string]field, len(fields))
	for _, f := range fields {
		m[f.key] = f
	}
	return m
}()

// sections are the keys of the top level of a file that hold a mapping of
// fixed settings, and the canonical prefix of their entries.
var sections = []string{"cluster", "topic", "workload", "network", "timeline", "expect", "kip1269", "trogdor", "capacity"}

// shorthands maps a bare leaf ("record.size") to its canonical key
// ("workload.record.size") when the leaf is unique among the sections.
var shorthands = func() map[string]string {
	m := map[string]string{}
	dup := map[string]bool{}
	for _, f := range fields {
		sec, leaf, ok := strings.Cut(f.key, ".")
		if !ok || !slices.Contains(sections, sec) {
			continue
		}
		if _, seen := m[leaf]; seen {
			dup[leaf] = true
		}
		m[leaf] = f.key
	}
	for leaf := range dup {
		delete(m, leaf)
	}
	return m
}()

// Keys returns every canonical key of the fixed settings, in file order.
// Producer settings are "producer.<property>" and topic settings
// "topic.configs.<name>".
func Keys() []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.key
	}
	return out
}

// Canonical resolves a key as written in a matrix or --set — a canonical key,
// a section-unique shorthand or a bare Java producer property — to its
// canonical form.
func Canonical(key string) (string, error) {
	if c, ok := resolve(key); ok {
		return c, nil
	}
	return "", fmt.Errorf("unknown key %q%s", key, keyHint(key, tailKeys(key), keyCandidates(key)))
}

// tailKeys are the keys whose dotted tail a key written in a matrix or
// --set may be: every canonical key, or the keys of its namespace when it
// has a producer or topic-config prefix.
func tailKeys(key string) []string {
	if strings.HasPrefix(key, producerPrefix) || strings.HasPrefix(key, topicConfigsPrefix) {
		return keyCandidates(key)
	}
	out := Keys()
	for _, n := range producerNames() {
		out = append(out, producerPrefix+n)
	}
	for _, n := range topicConfigNames() {
		out = append(out, topicConfigsPrefix+n)
	}
	return out
}

// nestedForm shows where a canonical key goes in a file:
// "workload: {payload: …}", "topic: {configs: {retention.ms: …}}".
func nestedForm(canonical string) string {
	if name, ok := strings.CutPrefix(canonical, topicConfigsPrefix); ok {
		return fmt.Sprintf("topic: {configs: {%s: …}}", name)
	}
	if name, ok := strings.CutPrefix(canonical, clusterConfigsPrefix); ok {
		return fmt.Sprintf("cluster: {configs: {%s: …}}", name)
	}
	if sec, leaf, ok := strings.Cut(canonical, "."); ok && (sec == "producer" || slices.Contains(sections, sec)) {
		return fmt.Sprintf("%s: {%s: …}", sec, leaf)
	}
	return canonical + ": …"
}

// resolve is Canonical without the message.
func resolve(key string) (string, bool) {
	if _, ok := fieldByKey[key]; ok {
		return key, true
	}
	if name, ok := strings.CutPrefix(key, producerPrefix); ok {
		_, known := producerType(name)
		return key, known
	}
	if name, ok := strings.CutPrefix(key, topicConfigsPrefix); ok {
		_, known := topicConfigs[name]
		return key, known
	}
	if name, ok := strings.CutPrefix(key, clusterConfigsPrefix); ok {
		if !isBrokerProp(name) {
			return "", false
		}
		return key, true
	}
	if c, ok := shorthands[key]; ok {
		return c, true
	}
	if _, ok := producerType(key); ok {
		return producerPrefix + key, true
	}
	return "", false
}

// keyCandidates lists the keys a mistyped key is compared with: the names
// of its own namespace when it has a producer or topic-config prefix, else
// every key and shorthand.
func keyCandidates(key string) []string {
	var out []string
	switch {
	case strings.HasPrefix(key, producerPrefix):
		for _, n := range producerNames() {
			out = append(out, producerPrefix+n)
		}
	case strings.HasPrefix(key, topicConfigsPrefix):
		for _, n := range topicConfigNames() {
			out = append(out, topicConfigsPrefix+n)
		}
	default:
		out = append(out, Keys()...)
		for s := range shorthands {
			out = append(out, s)
		}
		out = append(out, producerNames()...)
		sort.Strings(out)
	}
	return out
}

// topicConfigNames returns every topic config name, sorted.
func topicConfigNames() []string {
	return slices.Sorted(maps.Keys(topicConfigs))
}

// shortName is the shortest key that resolves to canonical: the shorthand
// leaf or bare producer property when there is one. It names keys in
// generated labels.
func shortName(canonical string) string {
	if sec, leaf, ok := strings.Cut(canonical, "."); ok && slices.Contains(sections, sec) {
		if shorthands[leaf] == canonical {
			return leaf
		}
	}
	if name, ok := strings.CutPrefix(canonical, producerPrefix); ok {
		return name
	}
	return canonical
}

// normalize checks raw as a value of the canonical key and returns the form
// to store. dir resolves relative paths.
func normalize(canonical, raw, dir string) (string, error) {
	if f, ok := fieldByKey[canonical]; ok {
		return f.normalize(raw, dir)
	}
	if name, ok := strings.CutPrefix(canonical, producerPrefix); ok {
		return raw, kafkaconf.CheckProducer(name, raw)
	}
	if name, ok := strings.CutPrefix(canonical, topicConfigsPrefix); ok {
		return raw, topicRules.Check(name, raw, topicConfigs[name])
	}
	if name, ok := strings.CutPrefix(canonical, clusterConfigsPrefix); ok {
		return raw, checkBrokerValue(name, raw)
	}
	return "", fmt.Errorf("unknown key %q", canonical)
}

// assign stores an already normalized value of the canonical key into e.
func assign(e *Experiment, canonical, v string) {
	if f, ok := fieldByKey[canonical]; ok {
		f.assign(e, v)
		return
	}
	if name, ok := strings.CutPrefix(canonical, producerPrefix); ok {
		e.Producer[name] = v
		return
	}
	if name, ok := strings.CutPrefix(canonical, topicConfigsPrefix); ok {
		e.Topic.Configs[name] = v
	}
	if name, ok := strings.CutPrefix(canonical, clusterConfigsPrefix); ok {
		setBrokerConfig(e, name, v)
	}
}

// intField is a fixed integer setting in lo..hi.
func intField(key string, lo, hi int64, get func(*Experiment) *int) field {
	return field{
		key: key,
		normalize: func(raw, _ string) (string, error) {
			n, err := parseInt(raw)
			if err != nil || n < lo || n > hi {
				return "", fmt.Errorf("%s must be an integer %s, got %q", key, rangeText(lo, hi), raw)
			}
			return strconv.FormatInt(n, 10), nil
		},
		assign: func(e *Experiment, v string) { n, _ := strconv.Atoi(v); *get(e) = n },
		typed:  func(v string) any { n, _ := strconv.ParseInt(v, 10, 64); return n },
	}
}

// int64Field is a fixed 64-bit integer setting in lo..hi.
func int64Field(key string, lo, hi int64, get func(*Experiment) *int64) field {
	f := intField(key, lo, hi, nil)
	f.assign = func(e *Experiment, v string) { n, _ := strconv.ParseInt(v, 10, 64); *get(e) = n }
	return f
}

// parseInt reads a decimal integer, also accepting an integral number
// written in exponent form ("1e6") as YAML users often do for counts.
func parseInt(s string) (int64, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("not an integer: %q", s)
	}
	return int64(f), nil
}

// floatField is a fixed numeric setting in lo..hi; openLo excludes lo.
// Infinity is refused even where hi is: no setting means it.
func floatField(key string, lo, hi float64, openLo bool, get func(*Experiment) *float64) field {
	var want string
	switch {
	case openLo && math.IsInf(hi, 1):
		want = fmt.Sprintf("> %g", lo)
	case math.IsInf(hi, 1):
		want = fmt.Sprintf("≥ %g", lo)
	default:
		want = fmt.Sprintf("in %s..%s", fmtNumber(lo), fmtNumber(hi))
	}
	return field{
		key: key,
		normalize: func(raw, _ string) (string, error) {
			f, err := strconv.ParseFloat(raw, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < lo || f > hi || (openLo && f == lo) {
				return "", fmt.Errorf("%s must be a number %s, got %q", key, want, raw)
			}
			return strconv.FormatFloat(f, 'g', -1, 64), nil
		},
		assign: func(e *Experiment, v string) { f, _ := strconv.ParseFloat(v, 64); *get(e) = f },
		typed:  func(v string) any { f, _ := strconv.ParseFloat(v, 64); return number(f) },
	}
}

// zeroOrField is a fixed numeric setting that is 0, meaning zero (what
// 0 does, for messages), or a number of unit in lo..hi: a value between 0 and lo would
// round to nothing or stand for no sensible setting, and one above hi is
// past what prodlab can carry out.
func zeroOrField(key, zero, unit string, lo, hi float64, get func(*Experiment) *float64) field {
	f := floatField(key, 0, hi, false, get)
	norm := f.normalize
	f.normalize = func(raw, dir string) (string, error) {
		v, err := norm(raw, dir)
		if n, _ := strconv.ParseFloat(v, 64); err != nil || (n != 0 && n < lo) {
			return "", fmt.Errorf("%s must be 0 (%s) or a number of %s in %s..%s, got %q", key, zero, unit, fmtNumber(lo), fmtNumber(hi), raw)
		}
		return v, nil
	}
	return f
}

// delayField is an added network delay in milliseconds: 0, or in
// MinDelayMs..MaxDelayMs.
func delayField(key string, get func(*Experiment) *float64) field {
	return zeroOrField(key, "none", "milliseconds", MinDelayMs, MaxDelayMs, get)
}

// bandwidthField is an added bandwidth limit in Mbit/s: 0 (unlimited),
// or in MinBandwidthMbit..MaxBandwidthMbit.
func bandwidthField(key string, get func(*Experiment) *float64) field {
	return zeroOrField(key, "unlimited", "Mbit/s", MinBandwidthMbit, MaxBandwidthMbit, get)
}

// fmtNumber writes a bound for messages without an exponent
// (100000000, 0.001).
func fmtNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// boolField is a fixed true/false setting.
func boolField(key string, get func(*Experiment) *bool) field {
	return field{
		key: key,
		normalize: func(raw, _ string) (string, error) {
			v := strings.ToLower(raw)
			if v != "true" && v != "false" {
				return "", fmt.Errorf("%s must be true or false, got %q", key, raw)
			}
			return v, nil
		},
		assign: func(e *Experiment, v string) { *get(e) = v == "true" },
		typed:  func(v string) any { return v == "true" },
	}
}

// stringField is a fixed text setting with an optional check.
func stringField(key string, check func(raw, dir string) (string, error), get func(*Experiment) *string) field {
	return field{
		key: key,
		normalize: func(raw, dir string) (string, error) {
			if check == nil {
				return raw, nil
			}
			return check(raw, dir)
		},
		assign: func(e *Experiment, v string) { *get(e) = v },
		typed:  func(v string) any { return v },
	}
}

// checkName requires a name usable in run directory names.
func checkName(raw, _ string) (string, error) {
	if strings.TrimSpace(raw) == "" || strings.ContainsAny(raw, `/\`) {
		return "", fmt.Errorf("name must be non-empty and contain no slash, got %q", raw)
	}
	// The name becomes part of the run directory's name and of topics.
	if strings.ContainsFunc(raw, unicode.IsControl) {
		return "", fmt.Errorf("name must not contain control characters (tabs, newlines, NUL), got %q", raw)
	}
	return raw, nil
}

// versionRE matches a release version such as 4.1.0 or 4.1.0-rc1.
var versionRE = regexp.MustCompile(`^\d+\.\d+(\.\d+)?([-.][0-9A-Za-z.-]+)?$`)

// checkClient accepts the names of clients.Kinds: franz-go, java,
// java@<version>, librdkafka and librdkafka@<its bundled release>.
func checkClient(raw, _ string) (string, error) {
	if _, err := clients.Parse(raw); err != nil {
		if base, _, ok := strings.Cut(raw, "@"); ok {
			if c, perr := clients.Parse(base); perr == nil && c.Kind.Bundled != "" {
				return "", err // names the bundled release
			}
		}
		return "", fmt.Errorf("client must be %s (like java@3.9.1), got %q", clients.Syntax("<version>"), raw)
	}
	return raw, nil
}

// checkKafka accepts "" (the pinned default), a release version, or an
// existing directory holding a Kafka distribution, which it makes absolute.
func checkKafka(raw, dir string) (string, error) {
	if raw == "" || versionRE.MatchString(raw) {
		return raw, nil
	}
	p := resolvePath(raw, dir)
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return "", fmt.Errorf("cluster.kafka must be a Kafka release version (like 4.1.0) or an existing distribution directory, got %q", raw)
	}
	return p, nil
}

// checkPayload accepts the built-in generators and file:PATH for an existing
// file, whose path it makes absolute.
func checkPayload(raw, dir string) (string, error) {
	if payload.IsGenerated(raw) {
		return raw, nil
	}
	name, ok := strings.CutPrefix(raw, payload.KindFile)
	if !ok || name == "" {
		return "", fmt.Errorf("workload.payload must be one of %s or %sPATH, got %q", strings.Join(payload.Kinds(), ", "), payload.KindFile, raw)
	}
	p := resolvePath(name, dir)
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("workload.payload file %q does not exist (relative paths start from the experiment file's directory)", name)
	}
	if err != nil {
		return "", fmt.Errorf("workload.payload file %q: %w", name, err)
	}
	if st.IsDir() {
		return "", fmt.Errorf("workload.payload file %q is a directory", name)
	}
	if st.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) != 0 {
		return "", fmt.Errorf("workload.payload file %q is a pipe or socket, not a file every trial can read again", name)
	}
	if err := payload.CheckFile(p); errors.Is(err, payload.ErrNoLines) {
		return "", fmt.Errorf("workload.payload file %q has no non-empty lines (each record's value is one line)", name)
	} else if err != nil {
		return "", fmt.Errorf("workload.payload file %q: %w", name, err)
	}
	return payload.KindFile + p, nil
}

// resolvePath makes p absolute, relative to dir when it is relative.
func resolvePath(p, dir string) string {
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
