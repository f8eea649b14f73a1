package expfile

import (
	"reflect"
	"strings"
	"testing"
)

// TestSecretMatrixLabels checks that a secret given as matrix values names
// its scenarios by a stable label (#1, #2 in the order listed) while the
// scenario's experiment carries the real value for the client.
func TestSecretMatrixLabels(t *testing.T) {
	tests := []struct {
		name string
		src  string
		sets []string
		ids  []string
		// secrets are the real values each scenario's client gets.
		secrets []string
	}{
		// Scalar values of a secret axis.
		{name: "scalar axis", src: "name: x\nmatrix:\n  sasl.jaas.config: [hunter1, hunter2]\n",
			ids: []string{"sasl.jaas.config=#1", "sasl.jaas.config=#2"}, secrets: []string{"hunter1", "hunter2"}},
		// A secret inside an unlabelled map value; other keys keep their values.
		{name: "map value", src: "name: x\nmatrix:\n  auth:\n    - {acks: 1}\n    - {sasl.jaas.config: hunter1, acks: all}\n",
			ids: []string{"auth=acks=1", "auth=sasl.jaas.config=#2,acks=all"}, secrets: []string{"", "hunter1"}},
		// An explicit label is the user's choice and stays.
		{name: "labelled", src: "name: x\nmatrix:\n  auth:\n    - {label: prod, ssl.key.password: hunter1}\n",
			ids: []string{"auth=prod"}},
		// --set of a listed secret takes that value's label.
		{name: "set listed", src: "name: x\nmatrix:\n  sasl.jaas.config: [hunter1, hunter2]\n", sets: []string{"sasl.jaas.config=hunter2"},
			ids: []string{"sasl.jaas.config=#2"}, secrets: []string{"hunter2"}},
		// --set of another secret is labelled #set.
		{name: "set other", src: "name: x\nmatrix:\n  sasl.jaas.config: [hunter1, hunter2]\n", sets: []string{"sasl.jaas.config=hunter3"},
			ids: []string{"sasl.jaas.config=#set"}, secrets: []string{"hunter3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, tt.src, tt.sets...)
			ss, err := e.Scenarios()
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for i, s := range ss {
				ids = append(ids, s.ID)
				for k, v := range s.Values {
					if strings.Contains(v, "hunter") {
						t.Errorf("scenario %d: label of %s shows the secret: %q", i, k, v)
					}
				}
				if tt.secrets != nil && s.Exp.Producer["sasl.jaas.config"] != tt.secrets[i] {
					t.Errorf("scenario %d: client gets %q, want %q", i, s.Exp.Producer["sasl.jaas.config"], tt.secrets[i])
				}
			}
			if !reflect.DeepEqual(ids, tt.ids) {
				t.Errorf("IDs = %q, want %q", ids, tt.ids)
			}
			y, err := e.YAML()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(y), "hunter") {
				t.Errorf("YAML() shows a secret:\n%s", y)
			}
			// The resolved copy keeps the scenario IDs.
			back, err := Parse("x.yaml", y, nil)
			if err != nil {
				t.Fatalf("re-parse: %v\n%s", err, y)
			}
			bs, _ := back.Scenarios()
			for i := range bs {
				if bs[i].ID != ss[i].ID {
					t.Errorf("round trip: scenario %d %q became %q", i, ss[i].ID, bs[i].ID)
				}
			}
		})
	}
}

// TestSecretsNotInErrors checks that messages about secret values show
// neither the value nor the --set argument holding it.
func TestSecretsNotInErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		sets []string
	}{
		// Two values with the same secret: the repeat is reported, masked.
		{name: "repeat", src: "name: x\nmatrix:\n  auth:\n    - {sasl.jaas.config: hunter1}\n    - {sasl.jaas.config: hunter1}\n"},
		// A --set of a secret that a map axis owns.
		{name: "set", src: "name: x\nmatrix:\n  auth:\n    - {label: a, ssl.key.password: hunter1}\n", sets: []string{"ssl.key.password=hunter2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseErrors(t, tt.src, tt.sets...)
			if len(got) == 0 {
				t.Fatal("parsed, want an error")
			}
			for _, msg := range got {
				if strings.Contains(msg, "hunter") || !strings.Contains(msg, "[hidden]") {
					t.Errorf("message %q shows the secret or does not say it is hidden", msg)
				}
			}
		})
	}
}
