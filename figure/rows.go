package figure

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Row is one JSON object of the input and the line it starts on.
type Row struct {
	Line   int
	Fields map[string]any
}

// ReadError names the line of the input at fault.
type ReadError struct {
	Line int
	Msg  string
}

func (e *ReadError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ReadRows reads a stream of JSON objects (JSON Lines, or indented objects one after
// another), a single JSON array of objects, or CSV with a header line (as wormlab
// sim --csv and wormlab sweep csv write it: a file whose first character is not
// '{' or '[' is read as CSV). Numbers keep their text (json.Number) so that
// integers such as seeds survive exactly; an empty CSV cell is null, true and false
// are booleans. Reading is linear in the input's size.
func ReadRows(r io.Reader) ([]Row, error) {
	return ReadRowsContext(context.Background(), r)
}

// ReadRowsContext is ReadRows that stops when ctx ends, returning the rows read so
// far and ctx's error: it looks at ctx every 4,096 rows (wormlab plot's Ctrl-C; a
// million rows take seconds).
func ReadRowsContext(ctx context.Context, r io.Reader) ([]Row, error) {
	data, err := io.ReadAll(bufio.NewReader(r))
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	first := skipSpace(data, 0)
	if first < int64(len(data)) && data[first] != '{' && data[first] != '[' {
		return readCSV(ctx, data)
	}
	// lineAt counts newlines from the last offset asked for: offsets only grow
	// (the decoder reads forward), so every byte is counted once.
	var seen int64
	line := 1
	lineAt := func(off int64) int {
		off = min(off, int64(len(data)))
		if off < seen { // a syntax error's offset may lie behind: count afresh
			return 1 + bytes.Count(data[:off], []byte("\n"))
		}
		line += bytes.Count(data[seen:off], []byte("\n"))
		seen = off
		return line
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var rows []Row
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return rows, ctx.Err() // the rows read so far
		}
		start := skipSpace(data, dec.InputOffset())
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, &ReadError{lineAt(se.Offset), "not JSON: " + se.Error()}
			}
			return nil, &ReadError{lineAt(start), "not JSON: " + err.Error()}
		}
		at := lineAt(start)
		switch x := v.(type) {
		case map[string]any:
			rows = append(rows, Row{at, x})
		case []any:
			for i, e := range x {
				m, ok := e.(map[string]any)
				if !ok {
					return nil, &ReadError{at, fmt.Sprintf("array element %d is not an object", i)}
				}
				rows = append(rows, Row{at, m})
			}
		default:
			return nil, &ReadError{at, "not a JSON object"}
		}
	}
	if len(rows) == 0 {
		return nil, &ReadError{1, "no JSON objects"}
	}
	return rows, nil
}

// readCSV reads CSV with a header: one row per record, its cells by column name.
func readCSV(ctx context.Context, data []byte) ([]Row, error) {
	cr := csv.NewReader(bytes.NewReader(data))
	header, err := cr.Read()
	if err != nil {
		return nil, &ReadError{1, "not CSV: " + err.Error()}
	}
	seen := map[string]bool{}
	for i, h := range header {
		if h == "" {
			return nil, &ReadError{1, fmt.Sprintf("CSV header: column %d has no name", i+1)}
		}
		if seen[h] {
			return nil, &ReadError{1, fmt.Sprintf("CSV header: column %q appears twice", h)}
		}
		seen[h] = true
	}
	var rows []Row
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return rows, ctx.Err() // the rows read so far
		}
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &ReadError{pe.Line, "not CSV: " + pe.Err.Error()}
			}
			return nil, &ReadError{0, "not CSV: " + err.Error()}
		}
		line, _ := cr.FieldPos(0)
		m := make(map[string]any, len(header))
		for i, cell := range rec {
			m[header[i]] = cellValue(cell)
		}
		rows = append(rows, Row{line, m})
	}
	if len(rows) == 0 {
		return nil, &ReadError{1, "no CSV rows after the header"}
	}
	return rows, nil
}

// cellValue reads a CSV cell as JSON would hold it: empty is null, a number keeps
// its text, true and false are booleans, anything else a string.
func cellValue(s string) any {
	switch s {
	case "":
		return nil
	case "true":
		return true
	case "false":
		return false
	}
	if jsonNumber(s) {
		return json.Number(s)
	}
	return s
}

// jsonNumber reports whether s is a number as JSON writes one.
func jsonNumber(s string) bool {
	if strings.Trim(s, "0123456789-+.eE") != "" || s[0] == '+' {
		return false
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
}

func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.ContainsRune(" \t\r\n", rune(data[off])) {
		off++
	}
	return off
}

// Lookup finds the dotted path in a row: in a sweep record (one with "params" and
// "values" objects) among the parameters, then the values, then the top level; in any
// other object at the top level.
func (r Row) Lookup(path string) (any, bool) {
	if isRecord(r.Fields) {
		for _, scope := range []string{"params", "values"} {
			if v, ok := lookup(r.Fields[scope], path); ok {
				return v, true
			}
		}
	}
	return lookup(r.Fields, path)
}

// seriesOf is r's value of the series field: the field's, or, for a name
// "A+B" that is no field of r, the values of A and B joined by a space, so that
// each pair of values is a series; parts are then the values' labels (nil for
// a field's value).
func seriesOf(r Row, field string) (v any, parts []string, ok bool) {
	v, ok = r.Lookup(field)
	if ok || !strings.Contains(field, "+") {
		return v, nil, ok
	}
	for _, f := range strings.Split(field, "+") {
		v, ok := r.Lookup(f)
		if !ok {
			return nil, nil, false
		}
		parts = append(parts, label(v))
	}
	return strings.Join(parts, " "), parts, true
}

// Failed reports a sweep record whose status is "failed".
func (r Row) Failed() bool { return r.Fields["status"] == "failed" }

func isRecord(m map[string]any) bool {
	_, p := m["params"].(map[string]any)
	_, v := m["values"].(map[string]any)
	return p || v
}

func lookup(v any, path string) (any, bool) {
	if list, ok := v.([]any); ok { // a list: the path starts with an index
		head, rest, dotted := strings.Cut(path, ".")
		i, err := strconv.Atoi(head)
		if err != nil || i < 0 || i >= len(list) {
			return nil, false
		}
		if !dotted {
			return list[i], true
		}
		return lookup(list[i], rest)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if x, ok := m[path]; ok { // a flat field whose name has dots
		return x, true
	}
	head, rest, dotted := strings.Cut(path, ".")
	if !dotted {
		return nil, false
	}
	return lookup(m[head], rest)
}

// number converts a JSON value to a float: numbers, and strings holding numbers.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// label renders a JSON value as a legend or category label.
func label(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	case json.Number:
		return x.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// jsonText renders a value as JSON for an error message.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
