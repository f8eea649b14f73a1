package expfile

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// MaxDepth is the deepest nesting of flow collections ("[", "{") an
// experiment file may hold. Real files nest three or four levels; the YAML
// parser takes tens of seconds and gigabytes on 100,000.
const MaxDepth = 64

// MaxItems is the most lines and flow-collection items (commas) an
// experiment file may hold. Real files hold a few hundred; the YAML parser
// spends seconds on a megabyte of short items.
const MaxItems = 20_000

// maxMerged is the most mapping entries YAML merge keys ("<<: *anchor")
// may bring into one file, so that merges of merges cannot multiply.
const maxMerged = 10_000

// checkShape reports the first place where flow collections nest deeper
// than MaxDepth, or where the file passes MaxItems lines and items. It
// scans bytes, skipping quoted text and comments, before the parser sees
// the file.
func checkShape(file string, data []byte) *Error {
	depth, line, col, items := 0, 1, 0, 0
	var quote byte
	comment := false
	for i, b := range data {
		col++
		if b == '\n' || (b == ',' && quote == 0 && !comment) {
			if items++; items > MaxItems {
				return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf("more than %d lines and list items; an experiment file needs a few hundred", MaxItems)}
			}
		}
		switch {
		case b == '\n':
			line, col, comment = line+1, 0, false
			if quote == '\'' || quote == '"' {
				continue // quoted scalars may span lines
			}
		case comment:
		case quote != 0:
			if b == quote && (quote == '\'' || i == 0 || data[i-1] != '\\') {
				quote = 0
			}
		case (b == '\'' || b == '"') && opensQuote(data, i):
			quote = b
		case b == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'):
			comment = true
		case b == '[' || b == '{':
			depth++
			if depth > MaxDepth {
				return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf("nesting deeper than %d levels of [ and {; an experiment file needs a few", MaxDepth)}
			}
		case (b == ']' || b == '}') && depth > 0:
			depth--
		}
	}
	return nil
}

// opensQuote reports whether the quote at data[i] starts a quoted scalar:
// at the start of a line or after a blank or one of "[{,:-", not inside
// a word (the apostrophe of "it's" in a plain scalar).
func opensQuote(data []byte, i int) bool {
	return i == 0 || strings.IndexByte(" \t\n[{,:-", data[i-1]) >= 0
}

// mergeEntries returns the entries a merge key ("<<: *anchor", or a list of
// anchors) brings into a mapping, counting them against maxMerged.
func (p *fileParser) mergeEntries(mv *ast.MappingValueNode) []*ast.MappingValueNode {
	var sources []ast.Node
	if items, ok := p.sequence(mv.Value); ok && p.unwrap(mv.Value) != nil {
		sources = items
	} else {
		sources = []ast.Node{mv.Value}
	}
	var out []*ast.MappingValueNode
	for _, s := range sources {
		p.merged++ // before recursing: an anchor merged into itself must stop
		if p.tooManyMerged(mv) {
			return out
		}
		entries, ok := p.mapping(s)
		if !ok {
			p.c.add(p.at(s).errorf("a merge key (<<) must name a mapping, e.g. <<: *defaults"))
			continue
		}
		p.merged += len(entries)
		if p.tooManyMerged(mv) {
			return out
		}
		out = append(out, entries...)
	}
	return out
}

// tooManyMerged reports, once, that merge keys brought in more than
// maxMerged entries; it is true from then on.
func (p *fileParser) tooManyMerged(mv *ast.MappingValueNode) bool {
	if p.merged <= maxMerged {
		return false
	}
	if !p.mergeCapped {
		p.mergeCapped = true
		p.c.add(p.at(mv.Key).errorf("merge keys (<<) bring in more than %d entries", maxMerged))
	}
	return true
}
