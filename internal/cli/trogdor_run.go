package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/expfile"
)

// trogdorFlags maps the keys trogdorSets sets to the flags that gave them.
var trogdorFlags = map[string]string{
	"trogdor.coordinator":            "--trogdor",
	"trogdor.nodes":                  "--trogdor-nodes",
	"trogdor.max.producers.per.node": "--trogdor-max-producers-per-node",
}

// blameTrogdorFlags makes the experiment's errors about the sets that
// trogdorSets made name the flag the user typed ("--trogdor-nodes a,a")
// instead of a --set the user never wrote.
func blameTrogdorFlags(err error, sets []string) {
	var errs expfile.Errors
	if !errors.As(err, &errs) {
		return
	}
	for _, e := range errs {
		for _, s := range sets {
			key, value, _ := strings.Cut(s, "=")
			if e.File == "--set "+s {
				e.File = trogdorFlags[key] + " " + value
			}
		}
	}
}

// trogdorSets turns the --trogdor flags into the trogdor section's keys,
// which they set like --set does (so that the saved experiment, --resume
// and the dry run see them), after checking them as flags.
func trogdorSets(f *runFlags) ([]string, error) {
	if f.trogdor == "" {
		if len(f.trogdorNodes) > 0 || f.trogdorMaxPerNode != 0 {
			return nil, usage(fmt.Errorf("--trogdor-nodes and --trogdor-max-producers-per-node need --trogdor URL"))
		}
		return nil, nil
	}
	if err := expfile.CheckCoordinatorURL(f.trogdor); err != nil {
		return nil, usage(fmt.Errorf("--trogdor: %w", err))
	}
	if f.trogdorMaxPerNode < 0 {
		return nil, usage(fmt.Errorf("--trogdor-max-producers-per-node must be at least 0, got %d", f.trogdorMaxPerNode))
	}
	sets := []string{"trogdor.coordinator=" + f.trogdor}
	if len(f.trogdorNodes) > 0 {
		sets = append(sets, "trogdor.nodes="+strings.Join(f.trogdorNodes, ","))
	}
	if f.trogdorMaxPerNode > 0 {
		sets = append(sets, "trogdor.max.producers.per.node="+strconv.Itoa(f.trogdorMaxPerNode))
	}
	return sets, nil
}
