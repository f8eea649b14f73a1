package expfile

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// topLevelKeys are the keys accepted at the top of an experiment file.
var topLevelKeys = []string{
	"name", "description", "cluster", "topic", "workload", "client", "client.zone", "producer",
	"network", "timeline", "faults", "audit", "expect", "trials", "warmup", "warmup.max.s",
	"precision", "budget", "equivalence", "compare", "matrix", "kip1269", "trogdor", "capacity",
	"schedule", "advise", "lives",
}

// Parse reads an experiment from data, applies the --set overrides in sets
// (each "key=value") and validates the result, expanded scenarios included.
// file names the source in messages and anchors relative paths (payload
// files, Kafka directories). Every problem found is returned in an Errors.
func Parse(file string, data []byte, sets []string) (*Experiment, error) {
	e := defaults()
	e.File = file
	e.dir = filepath.Dir(file)
	p := &fileParser{file: file, c: &collector{}, anchors: map[string]ast.Node{}}
	// A byte order mark (editors on Windows write one) is not a key.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if err := checkUTF8(file, data); err != nil {
		p.c.add(err)
	}
	if err := checkShape(file, data); err != nil {
		p.c.add(err)
	} else {
		p.parse(&e, data)
	}
	applySets(&e, sets, p.c)
	if len(p.c.errs) == 0 {
		e.parseConf(p.c)
	}
	if len(p.c.errs) == 0 {
		e.adviseCandidates(p.c)
	}
	e.duetDefaults()
	if _, ok := e.pos["name"]; !ok && len(p.c.errs) == 0 {
		p.c.add(&Error{File: file, Msg: `missing required key "name"`})
	}
	// Cross-setting checks only make sense once every setting is valid:
	// a rejected value leaves its default behind and would mislead them.
	if len(p.c.errs) == 0 {
		scs := e.expand(p.c)
		e.checkRounds(p.c)
		e.checkCapacity(scs, p.c)
		e.checkAdviseAtRate(scs, p.c)
		e.checkSustainableMetric(p.c)
		e.checkSLOOrder(p.c)
		e.checkDuet(scs, p.c)
		e.checkLives(scs, p.c)
		if len(p.c.errs) == 0 {
			e.checkDuetPairs(scs, e.comparisons(scs, p.c), p.c)
			e.checkBudget(scs, p.c)
			e.checkPlan(scs, p.c)
		}
	}
	if err := p.c.err(); err != nil {
		return nil, err
	}
	return &e, nil
}

// fileParser walks the YAML syntax tree of one file, keeping positions.
type fileParser struct {
	file    string
	c       *collector
	anchors map[string]ast.Node
	merged  int // mapping entries brought in by merge keys so far
	// mergeCapped is set once the merged entries passed maxMerged.
	mergeCapped bool
}

// parse fills e from the document in data.
func (p *fileParser) parse(e *Experiment, data []byte) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		p.c.add(p.syntaxError(err))
		return
	}
	if len(f.Docs) > 1 {
		p.c.add(p.at(f.Docs[1]).errorf("an experiment file holds one YAML document, found %d", len(f.Docs)))
		return
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		p.c.add(&Error{File: p.file, Msg: "empty experiment file"})
		return
	}
	entries, ok := p.mapping(f.Docs[0].Body)
	if !ok {
		p.c.add(p.at(f.Docs[0].Body).errorf("an experiment file must be a mapping of keys to values"))
		return
	}
	for _, mv := range entries {
		key, kpos := p.key(mv)
		switch key {
		case "name", "description", "client", "client.zone", "audit", "trials", "warmup", "warmup.max.s",
			"precision", "budget", "equivalence", "schedule", "lives":
			p.setScalar(e, key, kpos, mv.Value)
		case "compare":
			p.compare(e, mv.Value)
		case "cluster", "topic", "workload", "network", "timeline", "expect", "kip1269", "trogdor", "capacity":
			p.section(e, key, mv.Value)
			if key == "capacity" {
				e.Capacity.found(kpos)
			}
		case "producer":
			p.configs(e, "producer", producerPrefix, mv.Value, producerNames())
		case "faults":
			p.faults(e, mv.Value)
		case "matrix":
			p.matrix(e, mv.Value)
		case "advise":
			e.pos["advise"] = kpos
			p.advise(e, mv.Value)
		default:
			p.c.add(kpos.errorf("%s", unknownTopLevel(key)))
		}
	}
}

// checkUTF8 reports the first byte of data that is not UTF-8. The YAML
// parser would silently turn it into U+FFFD, and names, descriptions and
// labels would then reach run directories and reports changed.
func checkUTF8(file string, data []byte) *Error {
	if utf8.Valid(data) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x); save the file as UTF-8", data[i])}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += n
	}
	return nil
}

// unknownTopLevel is the message for an unknown key at the top of a file.
// A setting of a section written at the top ("payload:", "linger.ms:")
// is shown where it goes; otherwise the hint is keyHint's.
func unknownTopLevel(key string) string {
	if c, ok := resolveShort(key); ok {
		return fmt.Sprintf("unknown key %q at the top level; did you mean %s, written %s?", key, c, nestedForm(c))
	}
	return fmt.Sprintf("unknown key %q%s", key, keyHint(key, tailKeys(key), topLevelKeys))
}

// syntaxError converts a go-yaml error into an Error at its token.
func (p *fileParser) syntaxError(err error) *Error {
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		tk := ye.GetToken()
		return &Error{File: p.file, Line: tk.Position.Line, Col: tk.Position.Column, Msg: "YAML: " + ye.GetMessage()}
	}
	return &Error{File: p.file, Msg: fmt.Sprintf("YAML: %v", err)}
}

// at returns the position of a node.
func (p *fileParser) at(n ast.Node) pos {
	if n == nil || n.GetToken() == nil {
		return pos{File: p.file}
	}
	tk := n.GetToken()
	return pos{File: p.file, Line: tk.Position.Line, Col: tk.Position.Column}
}

// unwrap strips anchors and tags and follows aliases to the node they name.
func (p *fileParser) unwrap(n ast.Node) ast.Node {
	for {
		switch t := n.(type) {
		case *ast.AnchorNode:
			if t.Name != nil {
				p.anchors[t.Name.GetToken().Value] = t.Value
			}
			n = t.Value
		case *ast.AliasNode:
			target, ok := p.anchors[t.Value.GetToken().Value]
			if !ok {
				return n
			}
			n = target
		case *ast.TagNode:
			n = t.Value
		default:
			return n
		}
	}
}

// mapping returns the entries of a mapping node; a null node is an empty
// mapping. ok is false for any other node.
func (p *fileParser) mapping(n ast.Node) (entries []*ast.MappingValueNode, ok bool) {
	switch t := p.unwrap(n).(type) {
	case *ast.MappingNode:
		return p.merge(t.Values), true
	case *ast.MappingValueNode:
		return p.merge([]*ast.MappingValueNode{t}), true
	case *ast.NullNode, nil:
		return nil, true
	}
	return nil, false
}

// merge replaces the merge keys ("<<: *anchor") among entries by the
// entries they name, placed first; as YAML's merge key type says, keys
// written out win over merged ones, and earlier merges over later ones.
func (p *fileParser) merge(entries []*ast.MappingValueNode) []*ast.MappingValueNode {
	var merged, own []*ast.MappingValueNode
	seen := map[string]bool{}
	for _, mv := range entries {
		if _, ok := mv.Key.(*ast.MergeKeyNode); ok {
			merged = append(merged, p.mergeEntries(mv)...)
			continue
		}
		own = append(own, mv)
		k, _ := p.key(mv)
		seen[k] = true
	}
	if len(own) == len(entries) {
		return entries
	}
	out := make([]*ast.MappingValueNode, 0, len(merged)+len(own))
	for _, mv := range merged {
		if k, _ := p.key(mv); !seen[k] {
			seen[k] = true
			out = append(out, mv)
		}
	}
	return append(out, own...)
}

// sequence returns the entries of a sequence node; a null node is empty.
func (p *fileParser) sequence(n ast.Node) (entries []ast.Node, ok bool) {
	switch t := p.unwrap(n).(type) {
	case *ast.SequenceNode:
		return t.Values, true
	case *ast.NullNode, nil:
		return nil, true
	}
	return nil, false
}

// scalar returns the text of a scalar node as written (without quotes);
// null is "". ok is false for mappings and sequences.
func (p *fileParser) scalar(n ast.Node) (string, bool) {
	switch t := p.unwrap(n).(type) {
	case *ast.StringNode:
		return t.Value, true
	case *ast.LiteralNode:
		return strings.TrimSuffix(t.Value.Value, "\n"), true
	case *ast.NullNode:
		return "", true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return t.GetToken().Value, true
	}
	return "", false
}

// key returns the text and position of a mapping entry's key.
func (p *fileParser) key(mv *ast.MappingValueNode) (string, pos) {
	k, _ := p.scalar(mv.Key)
	return k, p.at(mv.Key)
}

// value reads a scalar value, or for a list-typed setting a sequence of
// scalars joined with commas as Kafka writes lists. It reports misuse.
func (p *fileParser) value(n ast.Node, list bool, what string) (string, bool) {
	if s, ok := p.scalar(n); ok {
		return s, true
	}
	if items, ok := p.sequence(n); ok && list {
		parts := make([]string, 0, len(items))
		for _, it := range items {
			s, ok := p.scalar(it)
			if !ok {
				p.c.add(p.at(it).errorf("%s must be a list of plain values", what))
				return "", false
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), true
	}
	p.c.add(p.at(n).errorf("%s must be a single value, not a mapping or list", what))
	return "", false
}

// setScalar checks and stores one setting written in the file.
func (p *fileParser) setScalar(e *Experiment, canonical string, kpos pos, n ast.Node) {
	p.setScalarAs(e, canonical, canonical, kpos, n)
}

// setScalarAs is setScalar for a setting the file writes under another
// key than its canonical one (advise.budget sets capacity.budget): its
// messages name the key as written.
func (p *fileParser) setScalarAs(e *Experiment, canonical, written string, kpos pos, n ast.Node) {
	raw, ok := p.value(n, isList(canonical), written)
	if !ok {
		return
	}
	v, err := normalize(canonical, raw, e.dir)
	if err != nil {
		p.c.add(p.at(n).errorf("%s", renameKey(err, canonical, written)))
		return
	}
	assign(e, canonical, v)
	e.pos[canonical] = kpos
}

// renameKey is err's message with the canonical key a setting's check
// names replaced by the key the user wrote (advise.precision for
// capacity.precision), so that the message points at what is in the file.
func renameKey(err error, canonical, written string) string {
	if canonical == written {
		return err.Error()
	}
	return strings.ReplaceAll(err.Error(), canonical, written)
}

// isList reports whether a producer or topic setting is a Kafka list.
func isList(canonical string) bool {
	if name, ok := strings.CutPrefix(canonical, producerPrefix); ok {
		t, _ := producerType(name)
		return t == typeList
	}
	if name, ok := strings.CutPrefix(canonical, topicConfigsPrefix); ok {
		return topicConfigs[name] == typeList
	}
	return false
}

// section reads one of the mappings of fixed settings (cluster, topic,
// workload, network).
func (p *fileParser) section(e *Experiment, sec string, n ast.Node) {
	entries, ok := p.mapping(n)
	if !ok {
		p.c.add(p.at(n).errorf("%s must be a mapping", sec))
		return
	}
	var valid []string
	for _, k := range Keys() {
		if leaf, ok := strings.CutPrefix(k, sec+"."); ok {
			valid = append(valid, leaf)
		}
	}
	if sec == "topic" || sec == "cluster" {
		valid = append(valid, "configs")
	}
	for _, mv := range entries {
		key, kpos := p.key(mv)
		switch {
		case sec == "topic" && key == "configs":
			p.configs(e, "topic.configs", topicConfigsPrefix, mv.Value, topicConfigNames())
		case sec == "cluster" && key == "configs":
			p.brokerConfigs(e, mv.Value)
		case slices.Contains(valid, key):
			p.setScalar(e, sec+"."+key, kpos, mv.Value)
		case p.nestedEntry(e, sec, key, mv.Value, valid):
		default:
			p.c.add(kpos.errorf("unknown key %q in %s%s", key, sec, keyHint(key, valid, valid)))
		}
	}
}

// configs reads a mapping of Kafka properties (producer or topic configs).
func (p *fileParser) configs(e *Experiment, where, prefix string, n ast.Node, valid []string) {
	entries, ok := p.mapping(n)
	if !ok {
		p.c.add(p.at(n).errorf("%s must be a mapping of property names to values", where))
		return
	}
	for _, mv := range entries {
		key, kpos := p.key(mv)
		if !slices.Contains(valid, key) {
			p.c.add(kpos.errorf("unknown key %q in %s%s", key, where, keyHint(key, valid, valid)))
			continue
		}
		p.setScalar(e, prefix+key, kpos, mv.Value)
	}
}
