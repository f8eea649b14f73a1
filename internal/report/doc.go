// Package report renders results.Records for people and tools: the
// summary table, kafka-producer-perf-test's familiar final line, and (in
// later files) CSV, JSON, Markdown and HTML. Rendering is separate from
// running: everything here reads records and writes to an io.Writer.
package report
