package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
)

// TestBuiltinPlans pins what every built-in study plans to run: its
// --dry-run text and, for each scenario, the whole experiment that
// scenario runs (every setting, after defaults, --set and the matrix),
// as golden files in testdata/plans. A change to how settings or run
// modes are parsed, typed or stored that alters any study's plan fails
// here; `go test -update` rewrites them when a change is meant.
func TestBuiltinPlans(t *testing.T) {
	bs, err := expfile.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		t.Run(b.Name, func(t *testing.T) {
			plan, err := planRun(context.Background(), b.Name, &runFlags{format: "table"})
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			var out bytes.Buffer
			if err := dryRun(&out, plan); err != nil {
				t.Fatal(err)
			}
			for _, sc := range plan.Scenarios {
				js, err := json.MarshalIndent(sc, "", " ")
				if err != nil {
					t.Fatalf("scenario %s: %v", sc.ID, err)
				}
				out.WriteString("\n")
				out.Write(js)
				out.WriteString("\n")
			}
			checkGolden(t, "plans/"+b.Name+".golden", out.Bytes())
		})
	}
}
