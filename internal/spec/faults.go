package spec

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// faultKeys are the keys of one entry of faults.
var faultKeys = []string{"type", "broker", "every", "at.ms", "delay.ms"}

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
		hasType := false
		for _, mv := range entries {
			key, kpos := p.key(mv)
			raw, ok := p.value(mv.Value, false, "fault "+key)
			if !ok {
				continue
			}
			vpos := p.at(mv.Value)
			var err error
			switch key {
			case "type":
				hasType = true
				f.Type = raw
				if !slices.Contains(FaultTypes, raw) {
					err = fmt.Errorf("fault type must be one of %s, got %q%s", strings.Join(FaultTypes, ", "), raw, didYouMean(raw, FaultTypes))
				}
			case "broker":
				f.Broker, err = faultInt(key, raw)
				if err == nil && f.Broker < 1 {
					err = fmt.Errorf("fault broker must be a broker id ≥ 1, got %q", raw)
				}
			case "every":
				f.Every, err = faultInt(key, raw)
			case "at.ms":
				f.AtMs, err = faultMs(key, raw)
			case "delay.ms":
				f.DelayMs, err = faultMs(key, raw)
			default:
				p.c.add(kpos.errorf("unknown key %q in fault%s", key, didYouMean(key, faultKeys)))
				continue
			}
			if err != nil {
				p.c.add(vpos.errorf("%v", err))
			}
		}
		if !hasType {
			p.c.add(f.pos.errorf("fault has no type (one of %s)", strings.Join(FaultTypes, ", ")))
		}
		out = append(out, f)
	}
	return out, len(items)
}

// faultInt reads a non-negative integer fault setting.
func faultInt(key, raw string) (int, error) {
	n, err := parseInt(raw)
	if err != nil || n < 0 || n > math.MaxInt32 {
		return 0, fmt.Errorf("fault %s must be an integer ≥ 0, got %q", key, raw)
	}
	return int(n), nil
}

// faultMs reads a non-negative duration in milliseconds.
func faultMs(key, raw string) (float64, error) {
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, fmt.Errorf("fault %s must be a number ≥ 0, got %q", key, raw)
	}
	return f, nil
}
