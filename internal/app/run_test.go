package app

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// TestPreviousRecordsNoRecord: resuming a run that stopped before its
// first trial was recorded whole (no results file, an empty one, or only a
// torn line) carries on with no previous record, although ReadRun refuses
// such a file for report and compare.
func TestPreviousRecordsNoRecord(t *testing.T) {
	tests := []struct {
		name    string
		content *string // nil: no results.jsonl
	}{
		{"no file", nil},
		{"empty", ptr("")},
		{"torn only", ptr(`{"schema":2,"run":"x","tri`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.content != nil {
				if err := os.WriteFile(filepath.Join(dir, results.ResultsFile), []byte(*tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			recs, err := previousRecords(dir, true, io.Discard)
			if err != nil || recs == nil || len(recs) != 0 {
				t.Errorf("previousRecords = %v, %v; want no records, no error", recs, err)
			}
			if tt.content == nil {
				return
			}
			if _, err := ReadRun(dir, io.Discard); !IsInput(err) {
				t.Errorf("ReadRun error = %v, want an InputError", err)
			}
		})
	}
}

func ptr(s string) *string { return &s }
