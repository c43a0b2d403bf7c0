package drat

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxVar is the largest variable index the parsers accept (literals are stored as
// 32-bit integers).
const MaxVar = 1<<31 - 2

// within reports whether the literal l names one of the variables 1..n or 0:
// -n <= l <= n, not |l| <= n (-l of the most negative integer is itself, so
// -l > n let it through).
func within[T int | int64](l, n T) bool { return l >= -n && l <= n }

// CNF is a formula in conjunctive normal form: Vars variables 1..Vars and clauses of
// DIMACS literals (v or -v). Comments holds the text of the comment lines (without
// the leading "c" and one space) in file order.
type CNF struct {
	Vars     int
	Clauses  [][]int
	Comments []string
}

// ReadCNF reads a DIMACS CNF formula. It requires the "p cnf V C" header before the
// first clause, literals within 1..V in absolute value, exactly C clauses, and a 0
// at the end of the last clause. A line "%" ends the formula (an old SATLIB habit).
// Errors name the line.
func ReadCNF(r io.Reader) (*CNF, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<30)
	f := &CNF{}
	header := false
	declared := 0
	var cur []int
	curLine := 0
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		t := bytes.TrimSpace(text)
		if len(t) == 0 {
			continue
		}
		switch t[0] {
		case 'c':
			c := strings.TrimPrefix(string(t[1:]), " ")
			f.Comments = append(f.Comments, c)
			continue
		case '%':
			goto done
		case 'p':
			if header {
				return nil, fmt.Errorf("cnf: line %d: second header", line)
			}
			fs := strings.Fields(string(t))
			if len(fs) != 4 || fs[1] != "cnf" {
				return nil, fmt.Errorf("cnf: line %d: header must be \"p cnf VARS CLAUSES\", got %q", line, string(t))
			}
			v, err1 := strconv.Atoi(fs[2])
			c, err2 := strconv.Atoi(fs[3])
			if err1 != nil || err2 != nil || v < 0 || c < 0 || v > MaxVar {
				return nil, fmt.Errorf("cnf: line %d: bad header numbers in %q", line, string(t))
			}
			header = true
			f.Vars, declared = v, c
			f.Clauses = make([][]int, 0, min(c, 1<<20))
			continue
		}
		if !header {
			return nil, fmt.Errorf("cnf: line %d: clause before the \"p cnf\" header", line)
		}
		for _, tok := range bytes.Fields(t) {
			l, err := strconv.Atoi(string(tok))
			if err != nil {
				return nil, fmt.Errorf("cnf: line %d: %q is not a literal", line, tok)
			}
			if l == 0 {
				if len(f.Clauses) == declared {
					return nil, fmt.Errorf("cnf: line %d: more clauses than the %d the header declares", line, declared)
				}
				f.Clauses = append(f.Clauses, cur)
				cur = nil
				continue
			}
			if !within(l, f.Vars) {
				return nil, fmt.Errorf("cnf: line %d: literal %d outside the %d declared variables", line, l, f.Vars)
			}
			if cur == nil {
				cur = make([]int, 0, 4)
				curLine = line
			}
			cur = append(cur, l)
		}
	}
done:
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cnf: line %d: %v", line+1, err)
	}
	if !header {
		return nil, fmt.Errorf("cnf: no \"p cnf\" header")
	}
	if cur != nil {
		return nil, fmt.Errorf("cnf: line %d: last clause not ended by 0", curLine)
	}
	if len(f.Clauses) != declared {
		return nil, fmt.Errorf("cnf: header declares %d clauses, found %d", declared, len(f.Clauses))
	}
	return f, nil
}
