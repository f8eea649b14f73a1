// Package payload generates record values for producer trials.
//
// A Generator turns a record number into a value. Every built-in kind is a
// pure function of (seed, record number) apart from the json kind's
// timestamp, so a trial's values can be regenerated, and it writes into a
// buffer the caller owns, so the producer's hot path does not allocate.
package payload

import (
	"fmt"
	"slices"
	"strings"
)

// Generator produces record values. Implementations are not safe for
// concurrent use; give each producing goroutine its own.
type Generator interface {
	// Next writes the value of record number seq (0-based, non-negative)
	// into buf[:0] and returns it. The result reuses buf's storage when its
	// capacity suffices, so callers that hand the value to an asynchronous
	// client must not reuse buf until the client is done with it.
	Next(seq int64, buf []byte) []byte
}

// Viewer is a Generator whose values already exist, unchanging, for as
// long as the generator does (text's letter pool, a file's lines): View
// returns record seq's value without a copy, and the caller must not
// write to it. Same bytes as Next; a producer that hands values to a
// client that copies them (every client does) saves a copy per record.
type Viewer interface {
	View(seq int64) []byte
}

// Fill returns record seq's value from g: g's own bytes when it is a
// Viewer, else Next written into *buf, which keeps the storage for the
// next record. The value must not be written to.
func Fill(g Generator, seq int64, buf *[]byte) []byte {
	if v, ok := g.(Viewer); ok {
		return v.View(seq)
	}
	*buf = g.Next(seq, (*buf)[:0])
	return *buf
}

// Kind names accepted by New.
const (
	KindJSON   = "json"   // unique JSON order events of exactly size bytes
	KindRandom = "random" // random bytes, incompressible
	KindText   = "text"   // random A–Z letters, as kafka-producer-perf-test --record-size
	KindFile   = "file:"  // prefix: file:PATH, the file's non-empty lines, cycled
)

// builtins is the one list of generated kinds, in the order messages name
// them: each kind's name and constructor (size > 0). A new kind is a
// generator file and one entry here; expfile and the perf command learn it
// from Kinds.
var builtins = []struct {
	kind string
	new  func(size int, seed int64) (Generator, error)
}{
	{KindJSON, func(size int, seed int64) (Generator, error) {
		g, err := newJSON(size, seed)
		if err != nil {
			return nil, err
		}
		return g, nil
	}},
	{KindRandom, func(size int, seed int64) (Generator, error) {
		return &randomGen{size: size, seed: uint64(seed)}, nil
	}},
	{KindText, func(size int, seed int64) (Generator, error) {
		return newText(size, uint64(seed)), nil
	}},
}

// Kinds returns the generated kinds (json, random, text) in the order
// messages list them; file:PATH (KindFile) is accepted besides.
func Kinds() []string {
	out := make([]string, len(builtins))
	for i, b := range builtins {
		out[i] = b.kind
	}
	return out
}

// IsGenerated reports whether kind is one of Kinds.
func IsGenerated(kind string) bool {
	return slices.Contains(Kinds(), kind)
}

// New returns the generator for kind (one of Kinds, or file:PATH).
// size is the exact value size in bytes for every kind except file, whose
// values are the file's lines as they are (size is ignored, as
// kafka-producer-perf-test ignores it with --payload-file). seed makes the
// values reproducible: the same kind, size and seed give the same values.
func New(kind string, size int, seed int64) (Generator, error) {
	if path, ok := strings.CutPrefix(kind, KindFile); ok {
		if path == "" {
			return nil, fmt.Errorf("payload %q: missing file path after %q", kind, KindFile)
		}
		return newFile(path)
	}
	if size <= 0 {
		return nil, fmt.Errorf("payload %s: record size must be positive, got %d", kind, size)
	}
	for _, b := range builtins {
		if b.kind == kind {
			return b.new(size, seed)
		}
	}
	return nil, fmt.Errorf("unknown payload %q: want %s or %sPATH", kind, strings.Join(Kinds(), ", "), KindFile)
}

// resize returns buf resliced to n bytes, allocating only when its capacity
// is too small (the first call for a fresh buffer).
func resize(buf []byte, n int) []byte {
	if cap(buf) < n {
		return make([]byte, n)
	}
	return buf[:n]
}
