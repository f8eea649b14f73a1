package expfile

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// FaultType is the expfile side of one fault type: its name, the keys an entry
// of this type takes besides type, one line of documentation, and the
// checks of a parsed entry beyond each key's own. Each type is one file,
// expfile/fault_<name>.go; the lab carries it out under the same name
// (lab/fault_<name>.go), and a lab test checks that every type has an
// action and every action a type.
type FaultType struct {
	Name string
	// Fields are the keys this type takes besides type, in the order
	// messages and the resolved YAML list them; any other key of faultFields
	// is refused on it.
	Fields []string
	// Doc says what the fault does, in one line.
	Doc string
	// Validate checks an entry whose keys each passed their own check; nil
	// when there is nothing more to check.
	Validate func(f Fault) error
	// Restarts: the fault brings a broker back as a new process, which
	// nothing pins (schedule: duet refuses it).
	Restarts bool
}

// faultTypes is the registry, in the order messages list the types. A new
// type is one file holding its FaultType and one entry here.
var faultTypes = []FaultType{connectionCut, brokerKill, brokerPause, leaderShutdown, zoneIsolate, producerFence}

// FaultTypes returns every fault type, in the order messages list them.
func FaultTypes() []FaultType { return slices.Clone(faultTypes) }

// faultType finds a type by name.
func faultType(name string) (FaultType, bool) {
	for _, t := range faultTypes {
		if t.Name == name {
			return t, true
		}
	}
	return FaultType{}, false
}

// faultTypeNames are the types' names, for messages and suggestions.
func faultTypeNames() []string {
	out := make([]string, len(faultTypes))
	for i, t := range faultTypes {
		out[i] = t.Name
	}
	return out
}

// faultField is one key a fault entry may have besides type: how its value
// is read into a Fault and written back (write reports false when the
// value is "not given" and is left out).
type faultField struct {
	key   string
	read  func(f *Fault, raw string) error
	write func(f Fault) (any, bool)
}

// faultFields are every key any fault type takes.
var faultFields = []faultField{
	{"broker", func(f *Fault, raw string) (err error) {
		f.Broker, err = faultInt("broker", raw)
		if err == nil && f.Broker < 1 {
			err = fmt.Errorf("fault broker must be a broker id ≥ 1, got %q", raw)
		}
		return err
	}, func(f Fault) (any, bool) { return f.Broker, f.Broker >= 0 }},
	{"every", func(f *Fault, raw string) (err error) {
		f.Every, err = faultInt("every", raw)
		return err
	}, func(f Fault) (any, bool) { return f.Every, true }},
	{"at.ms", func(f *Fault, raw string) (err error) {
		f.AtMs, err = faultMs("at.ms", raw)
		return err
	}, func(f Fault) (any, bool) { return number(f.AtMs), true }},
	{"delay.ms", func(f *Fault, raw string) (err error) {
		f.DelayMs, err = faultMs("delay.ms", raw)
		return err
	}, func(f Fault) (any, bool) { return number(f.DelayMs), true }},
	{"zone", func(f *Fault, raw string) (err error) {
		f.Zone, err = checkZoneName("fault zone")(raw, "")
		return err
	}, func(f Fault) (any, bool) { return f.Zone, f.Zone != "" }},
}

// faultKeys are the keys of one entry of faults.
var faultKeys = func() []string {
	keys := []string{"type"}
	for _, f := range faultFields {
		keys = append(keys, f.key)
	}
	return keys
}()

// faultFieldByKey finds a field by key.
func faultFieldByKey(key string) (faultField, bool) {
	for _, f := range faultFields {
		if f.key == key {
			return f, true
		}
	}
	return faultField{}, false
}

// faults reads the faults list. Each entry is a mapping with a required
// type; the other keys default to "not given" (broker -1) or zero.
func (p *fileParser) faults(e *Experiment, n ast.Node) {
	fs, items := p.faultList(n)
	e.Faults = fs
	if items > 0 {
		e.pos["faults"] = p.at(n)
	}
}

// faultList reads a list of faults, reporting problems; it returns the
// faults and how many entries the list had.
func (p *fileParser) faultList(n ast.Node) ([]Fault, int) {
	items, ok := p.sequence(n)
	if !ok {
		p.c.add(p.at(n).errorf("faults must be a list of mappings"))
		return nil, 0
	}
	var out []Fault
	for _, it := range items {
		entries, ok := p.mapping(it)
		if !ok {
			p.c.add(p.at(it).errorf("a fault must be a mapping with keys %s", strings.Join(faultKeys, ", ")))
			continue
		}
		f := Fault{Broker: -1, pos: p.at(it)}
		// The type decides which keys the entry takes, wherever it stands.
		var typ *FaultType
		for _, mv := range entries {
			if key, _ := p.key(mv); key == "type" {
				if raw, ok := p.scalar(mv.Value); ok {
					if t, ok := faultType(raw); ok {
						typ = &t
					}
				}
			}
		}
		hasType, valid := false, true
		for _, mv := range entries {
			key, kpos := p.key(mv)
			if key == "type" {
				hasType = true
			}
			fld, known := faultFieldByKey(key)
			if key != "type" && !known {
				p.c.add(kpos.errorf("unknown key %q in fault%s", key, didYouMean(key, faultKeys)))
				valid = false
				continue
			}
			if known && typ != nil && !slices.Contains(typ.Fields, key) {
				p.c.add(kpos.errorf("fault %s does not take %s; it takes %s", typ.Name, key, strings.Join(typ.Fields, ", ")))
				valid = false
				continue
			}
			raw, ok := p.value(mv.Value, false, "fault "+key)
			if !ok {
				valid = false
				continue
			}
			var err error
			if key == "type" {
				f.Type = raw
				if typ == nil {
					names := faultTypeNames()
					err = fmt.Errorf("fault type must be one of %s, got %q%s", strings.Join(names, ", "), raw, didYouMean(raw, names))
				}
			} else {
				err = fld.read(&f, raw)
			}
			if err != nil {
				p.c.add(p.at(mv.Value).errorf("%v", err))
				valid = false
			}
		}
		if typ != nil && slices.Contains(typ.Fields, "delay.ms") && !slices.ContainsFunc(entries, func(mv *ast.MappingValueNode) bool {
			k, _ := p.key(mv)
			return k == "delay.ms"
		}) {
			f.DelayMs = DefaultFaultDelayMs
		}
		if !hasType {
			p.c.add(f.pos.errorf("fault has no type (one of %s)", strings.Join(faultTypeNames(), ", ")))
		}
		if typ != nil && valid && typ.Validate != nil {
			if err := typ.Validate(f); err != nil {
				p.c.add(f.pos.errorf("%v", err))
			}
		}
		out = append(out, f)
	}
	return out, len(items)
}

// faultMapping writes a fault as the mapping faultList reads: its type and
// the keys its type takes.
func faultMapping(f Fault) yaml.MapSlice {
	item := yaml.MapSlice{{Key: "type", Value: f.Type}}
	t, _ := faultType(f.Type)
	for _, key := range t.Fields {
		fld, _ := faultFieldByKey(key)
		if v, ok := fld.write(f); ok {
			item = append(item, yaml.MapItem{Key: key, Value: v})
		}
	}
	return item
}

// faultInt reads a non-negative integer fault setting.
func faultInt(key, raw string) (int, error) {
	n, err := parseInt(raw)
	if err != nil || n < 0 || n > math.MaxInt32 {
		return 0, fmt.Errorf("fault %s must be an integer ≥ 0, got %q", key, raw)
	}
	return int(n), nil
}

// faultMs reads a duration in milliseconds, 0..MaxFaultMs; a delay.ms
// other than 0 is at least MinFaultDelayMs (the lab would read a delay
// that rounds to no time as none given, and use the default).
func faultMs(key, raw string) (float64, error) {
	f, err := strconv.ParseFloat(raw, 64)
	bad := err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > MaxFaultMs
	if key == "delay.ms" && (bad || f > 0 && f < MinFaultDelayMs) {
		return 0, fmt.Errorf("fault delay.ms must be 0 or a number of milliseconds in %d..%d, got %q", MinFaultDelayMs, MaxFaultMs, raw)
	}
	if bad {
		return 0, fmt.Errorf("fault %s must be a number of milliseconds in 0..%d, got %q", key, MaxFaultMs, raw)
	}
	return f, nil
}
