package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/prodlab/prodlab/internal/inputfile"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// Two readers share one decoder. ReadAll (and ReadFileAll) are lenient,
// for reports and comparisons: one bad line costs that line only, never the
// run, and each line left out is returned as a Skipped, so that a run hit by
// a full disk or a crash still shows every trial recorded whole and says
// what it left out. Read (and ReadFile) are strict, for tests and tools that
// must know the file is whole: any line left out but a torn last line is an
// error. Since the Writer cuts a failed append back, the bad lines ReadAll
// meets come from older prodlab versions, from crashes, or from other hands.

// Skipped is a line of results.jsonl the reader could not use, or the part
// of it that it could not use. It says where, how much and why, so callers
// can print "line 2 (2,174 bytes): invalid JSON: …".
type Skipped struct {
	// Line is the 1-based line number in the file.
	Line int
	// Bytes is how many bytes of the line were left out, newline excluded.
	Bytes int
	// Reason says why, in words: invalid JSON, not a record, an unknown
	// schema, a torn last line, a fragment before a whole record.
	Reason string
	// Torn marks the unterminated last line that does not parse: the
	// trace of a write cut short by a crash. Read skips it silently; the
	// trial it described never finished being recorded.
	Torn bool
	// Schema is the schema of a whole record this code does not read
	// (0 for any other line): not damage but a file of another prodlab,
	// which callers that render runs refuse (SchemaError).
	Schema int
}

// SchemaError is the error of a results file holding a record of a schema
// this code does not read: rendered without it, the run would look like
// one that measured less than it did.
type SchemaError struct {
	Path   string
	Line   int
	Schema int
}

func (e SchemaError) Error() string {
	return fmt.Sprintf("%s line %d is a record of schema %d; this prodlab reads schemas %d to %d: use the prodlab that wrote it",
		e.Path, e.Line, e.Schema, MinSchema, Schema)
}

// CheckSchemas returns a SchemaError for the first of skipped (lines of
// path) that is a record of a schema this code does not read, or nil.
func CheckSchemas(path string, skipped []Skipped) error {
	for _, s := range skipped {
		if s.Schema != 0 {
			return SchemaError{Path: path, Line: s.Line, Schema: s.Schema}
		}
	}
	return nil
}

// String renders s as "line 2 (2,174 bytes): invalid JSON: …".
func (s Skipped) String() string {
	return fmt.Sprintf("line %d (%s bytes): %s", s.Line, textfmt.Group(float64(s.Bytes), 0), s.Reason)
}

// recordStart is how every line this code (and each earlier prodlab) writes
// begins: Schema is Record's first field. Inside a JSON string a quote is
// escaped, so these bytes cannot occur within a record, only at its start.
var recordStart = []byte(`{"schema":`)

// ReadAll returns the records of the run directory dir that can be used, in
// file order, and the lines it left out; see ReadFileAll.
func ReadAll(dir string) ([]Record, []Skipped, error) {
	return ReadFileAll(filepath.Join(dir, ResultsFile))
}

// ReadFileAll returns every complete, valid record of a results.jsonl file,
// in file order, and what it left out, one Skipped per line: a line that is
// not valid JSON (a corrupt middle line, as an older prodlab left after a
// full disk), a JSON line that is not a record, a record of a schema this
// code does not read, and a torn last line. A line made of the fragment of
// a write cut short followed by a whole record (an older prodlab appended
// the next trial onto the fragment) gives up the fragment only: the record
// is kept. Blank lines are ignored. err is only for a file that cannot be
// read.
func ReadFileAll(path string) ([]Record, []Skipped, error) {
	f, err := inputfile.Open(path) // a FIFO or a device is refused, never read
	if err != nil {
		return nil, nil, fmt.Errorf("read results: %w", err)
	}
	defer func() { _ = f.Close() }() // read-only: nothing to lose
	recs, skipped, err := decode(f)
	if err != nil {
		return nil, nil, fmt.Errorf("read results %s: %w", path, err)
	}
	return recs, skipped, nil
}

// Read returns the records of the run directory dir, in file order; see
// ReadFile.
func Read(dir string) ([]Record, error) {
	return ReadFile(filepath.Join(dir, ResultsFile))
}

// ReadFile returns the records of a results.jsonl file, in file order, and
// fails on any line ReadFileAll would leave out but a torn last line: that
// is the trace of a crash mid-write, skipped silently, since the trial it
// described never finished being recorded. The error names the first such
// line. Tools that must carry on past a bad line use ReadFileAll.
func ReadFile(path string) ([]Record, error) {
	recs, skipped, err := ReadFileAll(path)
	if err != nil {
		return nil, err
	}
	for _, s := range skipped {
		if !s.Torn {
			return nil, fmt.Errorf("read results %s: %s", path, s)
		}
	}
	return recs, nil
}

// decode parses a results.jsonl stream; see ReadFileAll. Its error is for
// the stream failing, never for a line's content.
func decode(r io.Reader) (recs []Record, skipped []Skipped, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return nil, nil, fmt.Errorf("line %d: %w", n, rerr)
		}
		complete := rerr == nil // ended with a newline
		body := bytes.TrimSuffix(line, []byte{'\n'})
		if len(bytes.TrimSpace(body)) > 0 {
			rec, ok, skip := decodeLine(n, body, complete)
			if ok {
				recs = append(recs, rec)
			}
			if skip != nil {
				skipped = append(skipped, *skip)
			}
		}
		if !complete {
			return recs, skipped, nil
		}
	}
}

// decodeLine decodes line n (newline removed). It returns the record when
// there is one to keep (ok), and what was left out when anything was.
func decodeLine(n int, body []byte, complete bool) (rec Record, ok bool, skip *Skipped) {
	rec, err := decodeRecord(body)
	if err == nil {
		return rec, true, nil
	}
	if rec, frag, ok := salvage(body); ok {
		return rec, true, &Skipped{Line: n, Bytes: frag,
			Reason: "the fragment of a write cut short, glued to the whole record after it (kept)"}
	}
	s := &Skipped{Line: n, Bytes: len(body), Reason: err.Error()}
	if se, ok := errors.AsType[schemaError](err); ok {
		s.Schema = int(se)
	}
	if !complete {
		s.Torn = true
		s.Reason = "torn last line (no newline; a write cut short by a crash): " + s.Reason
	}
	return Record{}, false, s
}

// salvage finds a whole record at the end of a line that does not parse: a
// fragment left by a failed append followed by the next append. It returns
// that record and the fragment's length.
func salvage(body []byte) (rec Record, frag int, ok bool) {
	i := bytes.LastIndex(body, recordStart)
	if i <= 0 {
		return Record{}, 0, false
	}
	rec, err := decodeRecord(body[i:])
	if err != nil {
		return Record{}, 0, false
	}
	return rec, i, true
}

// decodeRecord parses one line as a Record of a schema this code reads; the
// error says why it is not one, in words for a warning.
func decodeRecord(body []byte) (Record, error) {
	var rec Record
	if err := json.Unmarshal(body, &rec); err != nil {
		// Unmarshal checks the whole line's syntax before decoding.
		if _, ok := errors.AsType[*json.SyntaxError](err); ok {
			return Record{}, fmt.Errorf("invalid JSON: %w", err)
		}
		return Record{}, fmt.Errorf("not a record: %w", err)
	}
	if rec.Schema < MinSchema || rec.Schema > Schema {
		return Record{}, schemaError(rec.Schema)
	}
	return rec, nil
}

// schemaError is decodeRecord's error for a record of an unknown schema.
type schemaError int

func (s schemaError) Error() string {
	return fmt.Sprintf("schema %d, this prodlab reads schemas %d to %d", int(s), MinSchema, Schema)
}
