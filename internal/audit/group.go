package audit

import (
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
)

// Observer is what ReadBack feeds every record to: a *Checker for one
// producer run, a *Group for several writing the same topic.
type Observer interface {
	Observe(partition int32, offset int64, headers []kgo.RecordHeader)
}

// nilObserver reports whether o is nil, also as a nil *Checker or *Group
// in the interface.
func nilObserver(o Observer) bool {
	switch v := o.(type) {
	case nil:
		return true
	case *Checker:
		return v == nil
	case *Group:
		return v == nil
	}
	return false
}

// Group checks several producer runs that wrote the same topic (a trial's
// producer instances, each with its own tag and sequence): every record
// goes to the checker of its tag, so each producer's sequence is checked
// on its own, and a record of no run in the group is foreign. Like a
// Checker, it is not safe for concurrent use.
type Group struct {
	byTag         map[string]*Checker
	checkers      []*Checker
	read, foreign int64
	// offsets keeps, per partition, one past the last observed offset, to
	// ignore a consumer re-delivery before it reaches a checker.
	offsets map[int32]int64
}

// NewGroup returns a group of the checkers, one per run; their tags must
// differ.
func NewGroup(cs ...*Checker) *Group {
	g := &Group{byTag: make(map[string]*Checker, len(cs)), checkers: cs, offsets: map[int32]int64{}}
	for _, c := range cs {
		g.byTag[c.tag] = c
	}
	return g
}

// Observe implements Observer: the record goes to the checker of its tag.
func (g *Group) Observe(partition int32, offset int64, headers []kgo.RecordHeader) {
	if next, ok := g.offsets[partition]; ok && offset < next {
		return
	}
	g.offsets[partition] = offset + 1
	g.read++
	for i := range headers {
		if headers[i].Key != auditheader.Key {
			continue
		}
		tag, _, ok := auditheader.ParseBytes(headers[i].Value)
		if !ok {
			break
		}
		if c, mine := g.byTag[string(tag)]; mine {
			c.Observe(partition, offset, headers)
			return
		}
		break
	}
	g.foreign++
}

// Result sums the runs' results: a record is lost, duplicated, reordered
// or phantom in its own run's sequence; foreign records belong to no run
// of the group (or name a sequence number their run never sent).
func (g *Group) Result() Result {
	r := Result{Foreign: g.foreign, Read: g.read}
	for _, c := range g.checkers {
		cr := c.Result()
		r.Acked += cr.Acked
		r.Lost += cr.Lost
		r.Duplicates += cr.Duplicates
		r.Reordered += cr.Reordered
		r.Phantom += cr.Phantom
		r.Foreign += cr.Foreign
		r.Txn = r.Txn.add(cr.Txn)
	}
	return r
}
