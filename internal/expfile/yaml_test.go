package expfile

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
)

// TestYAMLGolden pins the resolved form of a small experiment.
func TestYAMLGolden(t *testing.T) {
	e, err := Load("testdata/small.yaml", []string{"trials=3"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "small.golden.yaml", got)
}

// TestYAMLRoundTrip checks that the resolved YAML parses back to the same
// experiment and the same scenarios, for every kind of setting.
func TestYAMLRoundTrip(t *testing.T) {
	for _, file := range []string{"testdata/small.yaml", "testdata/full.yaml"} {
		t.Run(file, func(t *testing.T) {
			e, err := Load(file, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := e.YAML()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse(e.File, out, nil)
			if err != nil {
				t.Fatalf("re-parse:\n%v\n%s", err, out)
			}
			assertExperiment(t, back, e)
			s1, _ := e.Scenarios()
			s2, _ := back.Scenarios()
			if len(s1) != len(s2) {
				t.Fatalf("%d scenarios, after round trip %d", len(s1), len(s2))
			}
			for i := range s1 {
				if s1[i].ID != s2[i].ID {
					t.Errorf("scenario %d: %q became %q", i, s1[i].ID, s2[i].ID)
				}
			}
		})
	}
}

// TestYAMLHidesSecrets: the resolved experiment is written into the run
// directory, so secret producer properties never appear in it.
func TestYAMLHidesSecrets(t *testing.T) {
	e, err := Parse("x.yaml", []byte("name: x\nclient: java\nproducer: {sasl.jaas.config: 'x required password=\"hunter2\";', ssl.key.password: hunter3}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	y, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(y), "hunter") || !strings.Contains(string(y), "[hidden]") {
		t.Errorf("YAML() shows a secret:\n%s", y)
	}
}
