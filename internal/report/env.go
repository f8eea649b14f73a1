package report

import (
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
)

// Env is the environment a run was measured in; it is
// results.Environment, saved in the run directory when the run starts.
type Env = results.Environment

// distinct returns the non-empty values of f over recs, in order.
func distinct(recs []results.Record, f func(results.Record) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range recs {
		if v := f(r); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// unknownMachine is what report.html says of a run that saved no
// environment.json: its records name the versions, nothing names the host.
const unknownMachine = "unknown: this run saved no " + results.EnvironmentFile +
	" (runs before prodlab saved one), and the machine rendering the report is not the one that ran it"

// envRows lists the environment for the page: e when the run saved one
// (nil otherwise), with the versions the records name beside or instead
// of those e knew when the run started.
func envRows(e *Env, recs []results.Record) []pageEnv {
	or := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}
	kafka := distinct(recs, func(r results.Record) string { return r.Kafka })
	clients := distinct(recs, func(r results.Record) string { return r.Client })
	if e == nil {
		return []pageEnv{
			{"Kafka", or(strings.Join(kafka, ", "))},
			{"Clients", or(strings.Join(clients, ", "))},
			{"Machine", unknownMachine},
		}
	}
	if len(kafka) == 0 {
		kafka = e.Kafka
	}
	if len(clients) == 0 {
		clients = e.Clients
	}
	cpu := e.CPU
	if e.Cores > 0 {
		n := strconv.Itoa(e.Cores) + " logical CPUs"
		if cpu != "" {
			cpu += ", " + n
		} else {
			cpu = n
		}
	}
	prodlab := e.Prodlab
	if e.Commit != "" {
		prodlab = strings.TrimSpace(prodlab + " (" + e.Commit + ")")
	}
	mem := ""
	if e.MemoryBytes > 0 {
		mem = iecBytes(float64(e.MemoryBytes))
	}
	return []pageEnv{
		{"Kafka", or(strings.Join(kafka, ", "))},
		{"Clients", or(strings.Join(clients, ", "))},
		{"CPU", or(cpu)},
		{"Memory", or(mem)},
		{"OS", or(e.OS)},
		{"Java", or(e.Java)},
		{"Go", or(e.Go)},
		{"prodlab", or(prodlab)},
		{"Run started", or(e.StartedAt)},
	}
}
