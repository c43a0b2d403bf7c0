package optimal

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrUnsatisfiable is returned (wrapped) by ReadAssignment when the solver answered
// that the formula is unsatisfiable.
var ErrUnsatisfiable = errors.New("the solver answered UNSATISFIABLE")

// WriteDIMACS writes the formula in DIMACS CNF: the comments as "c" lines (the map
// from variables to messages and times), the "p cnf" line, then one clause a line.
func (f *Formula) WriteDIMACS(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, c := range f.Comments {
		bw.WriteString("c ")
		bw.WriteString(c)
		bw.WriteByte('\n')
	}
	fmt.Fprintf(bw, "p cnf %d %d\n", f.Vars, len(f.Clauses))
	var buf []byte
	for _, c := range f.Clauses {
		buf = buf[:0]
		for _, l := range c {
			buf = strconv.AppendInt(buf, int64(l), 10)
			buf = append(buf, ' ')
		}
		buf = append(buf, '0', '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// ReadAssignment reads a SAT solver's answer: the SAT competition format ("s
// SATISFIABLE" and "v" lines of literals ending with 0, as cadical and kissat print
// it) or minisat's result file ("SAT" then literals). It returns the value of each
// variable (variables it does not mention are false). An UNSATISFIABLE or UNKNOWN
// answer, or one with no "v" line (a formula without variables has "v 0"), is an
// error, and so is a literal of a variable above vars, the formula's count (a
// solver's answer to another formula).
func ReadAssignment(r io.Reader, vars int) (func(v int) bool, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	val := map[int]bool{}
	vlines, line, minisat := 0, 0, false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		var fields []string
		switch {
		case text == "" || strings.HasPrefix(text, "c"):
			continue
		case text == "SAT":
			minisat = true
			continue
		case text == "UNSAT":
			return nil, fmt.Errorf("assignment: line %d: %w", line, ErrUnsatisfiable)
		case text == "INDET":
			return nil, fmt.Errorf("assignment: line %d: the solver gave no answer (INDET)", line)
		case strings.HasPrefix(text, "s "):
			st := strings.TrimSpace(text[2:])
			if st == "UNSATISFIABLE" {
				return nil, fmt.Errorf("assignment: line %d: %w", line, ErrUnsatisfiable)
			}
			if st != "SATISFIABLE" {
				return nil, fmt.Errorf("assignment: line %d: the solver answered %s", line, st)
			}
			continue
		case strings.HasPrefix(text, "v ") || text == "v":
			fields = strings.Fields(text[1:])
			vlines++
		case minisat:
			fields = strings.Fields(text)
			vlines++
		default:
			return nil, fmt.Errorf("assignment: line %d: want \"s ...\", \"v ...\" or a comment, got %q", line, clip(text))
		}
		for _, fl := range fields {
			n, err := strconv.Atoi(fl)
			if err != nil {
				return nil, fmt.Errorf("assignment: line %d: %q is not a literal", line, clip(fl))
			}
			if n == 0 {
				continue
			}
			v := n
			if v < 0 {
				v = -v
			}
			if v > vars {
				return nil, fmt.Errorf("assignment: line %d: variable %d, above the formula's %d variables", line, v, vars)
			}
			if prev, ok := val[v]; ok && prev != (n > 0) {
				return nil, fmt.Errorf("assignment: line %d: variable %d given both values", line, v)
			}
			val[v] = n > 0
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("assignment: %v", err)
	}
	if vlines == 0 {
		return nil, fmt.Errorf("assignment: no \"v\" lines")
	}
	return func(v int) bool { return val[v] }, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
