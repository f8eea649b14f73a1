// Package figures names what a run measures: the metric keys an
// experiment file compares and advises on (with their units and
// directions), the latency percentiles a capacity or advise SLO bounds,
// and the sustainable rate of a capacity search. The experiment-file
// parser (expfile) checks a file against these names and the summaries
// (summary) compute the figures they name from records, so the names live
// here, below both. A leaf: no records, no I/O.
package figures
