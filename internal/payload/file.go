package payload

import (
	"bytes"
	"fmt"
	"os"
)

// fileGen replays the non-empty lines of a file, record seq getting line
// seq mod n. Like kafka-producer-perf-test --payload-file, values are the
// lines as they are, whatever their length; unlike it, lines are cycled in
// order rather than picked at random, so a trial is reproducible and every
// line is used. The whole file is held in memory once: memory is bounded by
// the file, not by the record count.
type fileGen struct {
	data   []byte // the file's contents
	ends   []int  // lines[i] = data[starts[i]:ends[i]]
	starts []int
}

// newFile reads path and indexes its non-empty lines. A line ends at "\n";
// a "\r" before it belongs to the line ending, not the value.
func newFile(path string) (*fileGen, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("payload file: %w", err)
	}
	g := &fileGen{data: data}
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		next := start + end + 1
		if end < 0 {
			end = len(data) - start
			next = len(data)
		}
		end += start
		if end > start && data[end-1] == '\r' {
			end--
		}
		if end > start {
			g.starts = append(g.starts, start)
			g.ends = append(g.ends, end)
		}
		start = next
	}
	if len(g.starts) == 0 {
		return nil, fmt.Errorf("payload file %s: no non-empty lines", path)
	}
	return g, nil
}

// Next implements Generator. The line is copied into buf because the
// producer keeps the value until it is acknowledged.
func (g *fileGen) Next(seq int64, buf []byte) []byte {
	i := int(uint64(seq) % uint64(len(g.starts)))
	return append(buf[:0], g.data[g.starts[i]:g.ends[i]]...)
}
