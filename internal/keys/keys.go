// Package keys generates the record keys of a keyed workload: a key space
// of Count keys drawn uniformly, by a Zipf law or in sequence, each key the
// key index in decimal, zero-padded to Size bytes.
//
// The key of record seq depends only on the trial's seed, seq and the
// space, never on earlier draws: every producer of a trial and every
// client computes it on its own. The Java worker's KeySampler implements
// the same arithmetic (splitmix64 on seed and seq, a uniform double from
// its top 53 bits, an inverse-CDF table for Zipf), so that both clients
// send the same keys for the same seed and their partitioners — murmur2 in
// both — spread them over the same partitions.
package keys

import (
	"fmt"
	"math"
	"sort"
	"strconv"
)

// The distributions of a key space.
const (
	// None sends keyless records (the partitioner's sticky batching).
	None = "none"
	// Uniform draws every key with the same probability.
	Uniform = "uniform"
	// Zipf draws key k (0-based) with probability ∝ 1/(k+1)^Exponent.
	Zipf = "zipf"
	// Sequential cycles through the keys in order: key seq mod Count.
	Sequential = "sequential"
)

// Distributions lists the accepted distributions, None first.
var Distributions = []string{None, Uniform, Zipf, Sequential}

// Limits of a key space. MaxCount bounds the Zipf table (8 bytes a key,
// in the Go process and in the Java worker); MaxSize bounds a key.
const (
	MaxCount = 10_000_000
	MaxSize  = 1 << 16
)

// Space describes the keys of a workload.
type Space struct {
	// Distribution is one of Distributions; None means keyless records.
	Distribution string
	// Count is the number of distinct keys, 1..MaxCount.
	Count int64
	// Size is the key length in bytes; at least the digits of Count-1.
	Size int
	// Exponent is the Zipf exponent s > 0 (Zipf only).
	Exponent float64
}

// Keyed reports whether records carry keys.
func (s Space) Keyed() bool { return s.Distribution != "" && s.Distribution != None }

// Check reports why a keyed space cannot generate keys; nil when it can
// (a keyless space always can).
func (s Space) Check() error {
	if !s.Keyed() {
		return nil
	}
	switch s.Distribution {
	case Uniform, Zipf, Sequential:
	default:
		return fmt.Errorf("unknown key distribution %q (want one of %v)", s.Distribution, Distributions)
	}
	if s.Count < 1 || s.Count > MaxCount {
		return fmt.Errorf("key count must be in 1..%d, got %d", int64(MaxCount), s.Count)
	}
	if d := Digits(s.Count - 1); s.Size < d || s.Size > MaxSize {
		return fmt.Errorf("key size %d cannot hold %d distinct keys: it must be in %d..%d (the digits of the largest key index)", s.Size, s.Count, d, MaxSize)
	}
	if s.Distribution == Zipf && (!(s.Exponent > 0) || math.IsInf(s.Exponent, 0)) {
		return fmt.Errorf("zipf exponent must be a finite number > 0, got %g", s.Exponent)
	}
	return nil
}

// Digits is the number of decimal digits of n ≥ 0.
func Digits(n int64) int { return len(strconv.FormatInt(n, 10)) }

// Sampler gives the key of every sequence number of one trial.
type Sampler struct {
	space Space
	seed  uint64
	// cum holds the Zipf weights' running sums (unnormalized); nil for
	// the other distributions.
	cum []float64
}

// seedMix separates the key stream from the payload's, which uses the
// same trial seed ("keys" in ASCII).
const seedMix = 0x6b657973

// New returns the sampler of space s for the trial seed, or an error when
// s cannot generate keys. A keyless space returns nil, nil.
func New(s Space, seed int64) (*Sampler, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if !s.Keyed() {
		return nil, nil
	}
	k := &Sampler{space: s, seed: uint64(seed) ^ seedMix}
	if s.Distribution == Zipf {
		k.cum = zipfTable(s.Count, s.Exponent)
	}
	return k, nil
}

// zipfTable returns the running sums of 1/(k+1)^s for k in [0,n).
func zipfTable(n int64, s float64) []float64 {
	cum := make([]float64, n)
	sum := 0.0
	for k := range n {
		sum += 1 / math.Pow(float64(k+1), s)
		cum[k] = sum
	}
	return cum
}

// Index returns the key index (0..Count-1) of record seq.
func (k *Sampler) Index(seq int64) int64 {
	switch k.space.Distribution {
	case Sequential:
		return seq % k.space.Count
	case Zipf:
		target := unit(k.seed, seq) * k.cum[len(k.cum)-1]
		i := sort.Search(len(k.cum), func(i int) bool { return target < k.cum[i] })
		return int64(min(i, len(k.cum)-1))
	default: // Uniform
		return min(int64(unit(k.seed, seq)*float64(k.space.Count)), k.space.Count-1)
	}
}

// Append appends the key of record seq to dst: its index in decimal,
// zero-padded on the left to the space's size.
func (k *Sampler) Append(dst []byte, seq int64) []byte {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], k.Index(seq), 10)
	for range k.space.Size - len(d) {
		dst = append(dst, '0')
	}
	return append(dst, d...)
}

// unit is a uniform double in [0,1) drawn from seed and seq: the top 53
// bits of splitmix64's output for the state seed + (seq+1)·golden gamma.
func unit(seed uint64, seq int64) float64 {
	z := seed + uint64(seq+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) * 0x1p-53
}
