package figure

import (
	"bytes"
	"testing"
)

// FuzzReadRows reads fuzzed JSON Lines, JSON arrays and CSV (issue 26 asked a fuzz
// target for figure's reader): never a panic; an error is a *ReadError naming a
// line of the input; rows read have line numbers within the input, in order, and
// Build on them returns a figure or an error, never a panic.
func FuzzReadRows(f *testing.F) {
	for _, s := range []string{"{\"rate\":0.1,\"latency\":10}\n{\"rate\":0.2,\"latency\":null}\n", "[{\"a\":1},{\"a\":2}]",
		"rate,latency\n0.1,10\n0.2,\n", "{\"a\":\n", "a,b\n1\n", "\"x\n", "{\"params\":{\"rate\":1},\"values\":{\"y\":2},\"key\":\"k\",\"status\":\"ok\"}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ReadRows(bytes.NewReader(data))
		lines := bytes.Count(data, []byte("\n")) + 1
		if err != nil {
			re, ok := err.(*ReadError)
			if !ok {
				t.Fatalf("error %T %v, want a *ReadError", err, err)
			}
			if re.Line < 1 || re.Line > lines {
				t.Fatalf("line %d of %d", re.Line, lines)
			}
			return
		}
		if len(rows) == 0 {
			t.Fatalf("no rows and no error")
		}
		for i, r := range rows {
			if r.Line < 1 || r.Line > lines || (i > 0 && r.Line < rows[i-1].Line) {
				t.Fatalf("row %d on line %d of %d (previous on %d)", i, r.Line, lines, rows[max(i-1, 0)].Line)
			}
		}
		for _, o := range []Options{{X: "rate", Y: "latency"}, {X: "a", Y: "b/a", Series: "c", Err: "d", LogX: true, LogY: true}} {
			if fig, err := Build(rows, o); err == nil && fig == nil {
				t.Fatalf("no figure and no error")
			}
		}
	})
}
