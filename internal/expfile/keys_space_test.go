package expfile

import (
	"testing"

	"github.com/prodlab/prodlab/internal/keys"
)

// TestKeySpaceAccepted parses workload.keys written nested, dotted, by
// shorthand, in a matrix and by --set, and checks the space of every
// scenario.
func TestKeySpaceAccepted(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		sets []string
		want []keys.Space // one per scenario
	}{
		{"default keyless", "name: x\n", nil, []keys.Space{defaultKeySpace()}},
		{"keys: none", "name: x\nworkload: {keys: none}\n", nil, []keys.Space{defaultKeySpace()}},
		{"keys: uniform", "name: x\nworkload: {keys: uniform}\n", nil,
			[]keys.Space{{Distribution: keys.Uniform, Count: 1000, Size: 8, Exponent: 1.2}}},
		{"nested", "name: x\nworkload: {keys: {distribution: zipf, count: 500, size: 4, zipf: {exponent: 0.99}}}\n", nil,
			[]keys.Space{{Distribution: keys.Zipf, Count: 500, Size: 4, Exponent: 0.99}}},
		{"dotted", "name: x\nworkload: {keys.distribution: Uniform, keys.count: 1e3}\n", nil,
			[]keys.Space{{Distribution: keys.Uniform, Count: 1000, Size: 8, Exponent: 1.2}}},
		{"set shorthand", "name: x\n", []string{"keys.distribution=sequential", "keys.count=10", "keys.size=2"},
			[]keys.Space{{Distribution: keys.Sequential, Count: 10, Size: 2, Exponent: 1.2}}},
		// --set takes the short form a file takes (issue 21).
		{"set workload.keys", "name: x\n", []string{"workload.keys=uniform"},
			[]keys.Space{{Distribution: keys.Uniform, Count: 1000, Size: 8, Exponent: 1.2}}},
		{"set keys", "name: x\n", []string{"keys=zipf"},
			[]keys.Space{{Distribution: keys.Zipf, Count: 1000, Size: 8, Exponent: 1.2}}},
		{"matrix", "name: x\nmatrix:\n  keys:\n    - {label: none, keys.distribution: none}\n" +
			"    - {label: uniform 1000, workload.keys.distribution: uniform, keys.count: 1000}\n" +
			"    - {label: zipf 1.2, keys.distribution: zipf, keys.zipf.exponent: 1.2}\n", nil,
			[]keys.Space{defaultKeySpace(),
				{Distribution: keys.Uniform, Count: 1000, Size: 8, Exponent: 1.2},
				{Distribution: keys.Zipf, Count: 1000, Size: 8, Exponent: 1.2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustParse(t, tc.src, tc.sets...)
			scs, err := e.Scenarios()
			if err != nil {
				t.Fatal(err)
			}
			if len(scs) != len(tc.want) {
				t.Fatalf("%d scenarios, want %d", len(scs), len(tc.want))
			}
			for i, sc := range scs {
				if got := sc.Exp.Workload.Keys; got != tc.want[i] {
					t.Errorf("scenario %s: keys = %+v, want %+v", sc.ID, got, tc.want[i])
				}
			}
		})
	}
}

// TestKeySpaceRefused checks every refusal of workload.keys, with its
// position and suggestion.
func TestKeySpaceRefused(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "count 0", src: "name: x\nworkload: {keys: {distribution: uniform, count: 0}}\n",
			want: []string{`x.yaml:2:49: workload.keys.count must be an integer in 1..10000000, got "0"; for keyless records write workload.keys.distribution: none`}},
		{name: "zipf exponent 0", src: "name: x\nworkload: {keys.distribution: zipf, keys.zipf.exponent: 0}\n",
			want: []string{`x.yaml:2:57: workload.keys.zipf.exponent must be a number > 0, got "0"; prodlab's Zipf sampler takes any finite exponent > 0 (1.2 is a common skew; 0.99 is YCSB's)`}},
		{name: "distribution typo", src: "name: x\nworkload: {keys.distribution: unifrom}\n",
			want: []string{`x.yaml:2:31: workload.keys.distribution must be one of none, uniform, zipf, sequential, got "unifrom"; did you mean "uniform"?`}},
		{name: "nested typo", src: "name: x\nworkload: {keys: {cont: 5}}\n",
			want: []string{`x.yaml:2:19: unknown key "cont" in workload.keys; did you mean "count"?`}},
		{name: "scalar keys", src: "name: x\nworkload: {keys: 5}\n",
			want: []string{`x.yaml:2:18: workload.keys.distribution must be one of none, uniform, zipf, sequential, got "5"`}},
		{name: "list keys", src: "name: x\nworkload: {keys: [1]}\n",
			want: []string{`x.yaml:2:18: workload.keys must be a distribution name (workload.keys: uniform) or a mapping of distribution, count, size, zipf.exponent`}},
		{name: "size too short", src: "name: x\nworkload: {keys.distribution: sequential, keys.count: 1001, keys.size: 3}\n",
			want: []string{`x.yaml:2:61: workload.keys.size 3 is too short for 1001 keys: keys are the key index in decimal, padded to the size, so it must be at least 4`}},
		{name: "size too short in a scenario", src: "name: x\nworkload: {keys.distribution: uniform, keys.size: 2}\nmatrix:\n  keys.count: [10, 1000]\n",
			want: []string{`x.yaml:4:20: scenario "keys.count=1000": workload.keys.size 2 is too short for 1000 keys: keys are the key index in decimal, padded to the size, so it must be at least 3`}},
	})
}

// TestKeySpaceYAML checks YAML() writes a keyed space and reads it back,
// and leaves the keyless default out.
func TestKeySpaceYAML(t *testing.T) {
	for _, src := range []string{
		"name: x\n",
		"name: x\nworkload: {keys: {distribution: zipf, count: 50, size: 3, zipf.exponent: 1.5}}\n",
		"name: x\nworkload: {keys: {distribution: uniform, count: 7}}\n",
	} {
		e, back, out := roundTrip(t, src)
		if back.Workload.Keys != e.Workload.Keys {
			t.Errorf("%q: read back %+v, want %+v\n%s", src, back.Workload.Keys, e.Workload.Keys, out)
		}
	}
}
