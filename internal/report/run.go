package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
)

// WriteRun renders a run directory's records for people: format (see
// Formats) to out, and into dir the table (results.TableFile), the
// Findings for scripts (results.FindingsFile), a capacity run's answer
// (results.CapacityFile) and report.html, all from what dir saved when the
// run started: its
// environment (environment.json; a run without one is rendered with the
// versions its records name and an unknown machine, never with the
// machine rendering it) and its plan (plan.json; without one there are no
// Findings). `prodlab run` calls it after the lab returns, `prodlab report`
// to render again. The files are written whole (temporary file, rename).
// notes, at most one, explains each client's settings in advice.properties
// (the app layer's driver.SettingNotes; none: no notes).
func WriteRun(dir string, recs []results.Record, out io.Writer, format string, notes ...SettingNotes) error {
	if err := ValidFormat(format); err != nil {
		return err
	}
	plan, err := readPlan(dir)
	if err != nil {
		return err
	}
	env, err := readEnv(dir)
	if err != nil {
		return err
	}
	var table bytes.Buffer
	if err := RenderPlan(&table, FormatTable, recs, plan); err != nil {
		return err
	}
	if format == FormatTable {
		if _, err := out.Write(table.Bytes()); err != nil {
			return fmt.Errorf("write table: %w", err)
		}
	} else if err := RenderPlan(out, format, recs, plan); err != nil {
		return err
	}
	if err := writeFile(dir, results.TableFile, table.Bytes()); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	if err := writeFindings(dir, recs, plan); err != nil {
		return err
	}
	if err := writeCapacity(dir, recs, plan); err != nil {
		return err
	}
	var note SettingNotes
	if len(notes) > 0 {
		note = notes[0]
	}
	if err := writeAdvice(dir, recs, plan, note); err != nil {
		return err
	}
	return writeHTML(dir, recs, env, plan)
}

// writeCapacity writes dir/capacity.json, the capacity answer
// (summary.Capacity), when plan has a capacity section; other runs have
// none.
func writeCapacity(dir string, recs []results.Record, plan *results.Plan) error {
	if plan == nil || plan.Capacity == nil {
		return nil
	}
	if err := results.WriteCapacity(dir, summary.Capacity(recs, *plan.Capacity, plan.Level)); err != nil {
		return fmt.Errorf("write %s: %w", results.CapacityFile, err)
	}
	return nil
}

// writeFindings writes dir/findings.json: the answers to plan's
// comparisons (none without a plan), whole, so scripts need not parse the
// table.
func writeFindings(dir string, recs []results.Record, plan *results.Plan) error {
	v, err := newView(recs, plan)
	if err != nil {
		return fmt.Errorf("write %s: %w", results.FindingsFile, err)
	}
	data, err := v.findingsJSON()
	if err != nil {
		return err
	}
	if err := writeFile(dir, results.FindingsFile, data); err != nil {
		return fmt.Errorf("write %s: %w", results.FindingsFile, err)
	}
	return nil
}

// RenderRun writes format to out for a run directory's records, with the
// Findings of its plan, without writing any file (`prodlab report` without
// regenerating).
func RenderRun(dir string, recs []results.Record, out io.Writer, format string) error {
	plan, err := readPlan(dir)
	if err != nil {
		return err
	}
	return RenderPlan(out, format, recs, plan)
}

// readPlan returns dir's plan, nil when it has none.
func readPlan(dir string) (*results.Plan, error) {
	p, ok, err := results.ReadPlan(dir)
	if err != nil || !ok {
		return nil, err
	}
	return &p, nil
}

// readEnv returns dir's saved environment, nil when it has none.
func readEnv(dir string) (*Env, error) {
	e, ok, err := results.ReadEnvironment(dir)
	if err != nil || !ok {
		return nil, err
	}
	return &e, nil
}
