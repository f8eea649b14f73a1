// Package report renders results.Records for people and tools: the
// summary table, kafka-producer-perf-test's familiar final line, CSV,
// JSON, Markdown and report.html, with the Findings of a run's plan.
// Rendering is separate from running: everything here reads records and
// what the run directory saved when the run started (environment.json,
// plan.json) and writes to an io.Writer or the run directory; nothing here
// probes the machine or starts a process. Every format takes its result
// columns from one registry (columns.go).
package report
