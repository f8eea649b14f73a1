package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Read returns the records of the run directory dir, in file order.
func Read(dir string) ([]Record, error) {
	return ReadFile(filepath.Join(dir, ResultsFile))
}

// ReadFile returns the records of a results.jsonl file, in file order.
//
// A last line without its newline that does not parse is the trace of a
// crash mid-write and is skipped silently: the trial it described never
// finished being recorded. Any other line that does not parse, or a record of
// another schema version, is an error naming the line. Blank lines are
// ignored.
func ReadFile(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only: nothing to lose
	recs, err := decode(f)
	if err != nil {
		return nil, fmt.Errorf("read results %s: %w", path, err)
	}
	return recs, nil
}

// decode parses a results.jsonl stream; see ReadFile.
func decode(r io.Reader) ([]Record, error) {
	var recs []Record
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return recs, fmt.Errorf("line %d: %w", n, err)
		}
		complete := err == nil // ended with a newline
		if len(bytes.TrimSpace(line)) > 0 {
			var rec Record
			if jerr := json.Unmarshal(line, &rec); jerr != nil {
				if !complete {
					return recs, nil // torn last line
				}
				return recs, fmt.Errorf("line %d: %w", n, jerr)
			}
			if rec.Schema < MinSchema || rec.Schema > Schema {
				return recs, fmt.Errorf("line %d: schema %d, this prodlab reads schemas %d to %d", n, rec.Schema, MinSchema, Schema)
			}
			recs = append(recs, rec)
		}
		if !complete {
			return recs, nil
		}
	}
}
