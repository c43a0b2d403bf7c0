package drat

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crillab/gophersat/solver"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/offline/optimal"
)

// pigeonhole returns PHP(n+1, n): n+1 pigeons in n holes, no two in one hole.
// Variable p(i,j) = i*n + j + 1 says pigeon i sits in hole j. It is unsatisfiable
// for every n >= 1, and every resolution refutation is exponential in n (Haken).
func pigeonhole(n int) *CNF {
	p := func(i, j int) int { return i*n + j + 1 }
	f := &CNF{Vars: (n + 1) * n}
	for i := 0; i <= n; i++ {
		var c []int
		for j := 0; j < n; j++ {
			c = append(c, p(i, j))
		}
		f.Clauses = append(f.Clauses, c)
	}
	for j := 0; j < n; j++ {
		for i := 0; i <= n; i++ {
			for k := i + 1; k <= n; k++ {
				f.Clauses = append(f.Clauses, []int{-p(i, j), -p(k, j)})
			}
		}
	}
	return f
}

// gophersatProof solves f with gophersat in certified mode and returns its RUP proof
// (text) and whether it found f unsatisfiable.
func gophersatProof(t testing.TB, f *CNF) ([]byte, bool) {
	t.Helper()
	clauses := make([][]int, len(f.Clauses))
	for i, c := range f.Clauses {
		clauses[i] = slices.Clone(c)
	}
	s := solver.New(solver.ParseSliceNb(clauses, f.Vars))
	s.Certified = true
	lines := make(chan string, 1024)
	s.CertChan = lines
	status := make(chan solver.Status, 1)
	go func() {
		status <- s.Solve()
		close(lines)
	}()
	var b bytes.Buffer
	for l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes(), <-status == solver.Unsat
}

// cadicalProof runs the cadical binary on f and returns its DRAT proof; the test is
// skipped when cadical is not installed.
func cadicalProof(t *testing.T, f *CNF, binary bool) []byte {
	t.Helper()
	bin, err := exec.LookPath("cadical")
	if err != nil {
		t.Skip("cadical not installed")
	}
	dir := t.TempDir()
	cnf := filepath.Join(dir, "f.cnf")
	proof := filepath.Join(dir, "f.drat")
	var b bytes.Buffer
	require.NoError(t, writeDIMACS(f, &b))
	require.NoError(t, writeFile(cnf, b.Bytes()))
	args := []string{"-q", cnf, proof}
	if !binary {
		args = append([]string{"--binary=false"}, args...)
	}
	cmd := exec.CommandContext(context.Background(), bin, args...)
	out, err := cmd.CombinedOutput()
	// cadical exits 20 for unsatisfiable.
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 20 {
		t.Fatalf("cadical: %v: %s", err, out)
	}
	require.True(t, strings.Contains(string(out), "UNSATISFIABLE"), "%s", out)
	return readFile(t, proof)
}

func mustParse(t testing.TB, data []byte) *Proof {
	t.Helper()
	p, err := ParseProof(data, Auto)
	require.NoError(t, err)
	return p
}

func check(t testing.TB, f *CNF, p *Proof) *Result {
	t.Helper()
	r, err := Check(context.Background(), f, p)
	require.NoError(t, err)
	return r
}

func toBinary(t testing.TB, p *Proof) *Proof {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, p.WriteBinary(&b))
	q := mustParse(t, b.Bytes())
	if p.Len() > 0 {
		require.Equal(t, Binary, q.Format)
	}
	return q
}

func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// naive is a deliberately simple reference checker: unit propagation by repeated
// scans of every clause from an empty assignment, no watches, no incremental state.
// It implements the rules of the package doc literally, so the watched-literal
// checker must agree with it on every formula and proof.
type naive struct{ db [][]int }

// up propagates from the literals assumed true; it returns the assignment and
// whether a conflict was reached.
func (n *naive) up(assumed []int) (map[int]bool, bool) {
	a := map[int]bool{}
	set := func(l int) bool { // false on a contradiction
		v, neg := l, false
		if l < 0 {
			v, neg = -l, true
		}
		if old, ok := a[v]; ok {
			return old != neg
		}
		a[v] = !neg
		return true
	}
	for _, l := range assumed {
		if !set(l) {
			return a, true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, c := range n.db {
			free, sat := 0, false
			var last int
			for _, l := range c {
				v, ok := naiveValue(a, l)
				switch {
				case !ok:
					free++
					last = l
				case v:
					sat = true
				}
			}
			if sat {
				continue
			}
			if free == 0 {
				return a, true
			}
			if free == 1 {
				set(last)
				changed = true
			}
		}
	}
	return a, false
}

func naiveValue(a map[int]bool, l int) (bool, bool) {
	v, neg := l, false
	if l < 0 {
		v, neg = -l, true
	}
	x, ok := a[v]
	return x != neg, ok
}

func negate(c []int) []int {
	out := make([]int, len(c))
	for i, l := range c {
		out[i] = -l
	}
	return out
}

// remove deletes the first clause equal to c as a set, unless at the top level
// it has one true literal and all others false: that deletion is ignored, as the
// package doc says.
func (n *naive) remove(c []int) {
	top, _ := n.up(nil)
	for k, d := range n.db {
		if !sameSet(d, c) {
			continue
		}
		trues, free := 0, 0
		for _, l := range d {
			v, ok := naiveValue(top, l)
			if !ok {
				free++
			} else if v {
				trues++
			}
		}
		if free == 0 && trues == 1 {
			return // kept: it may be a reason
		}
		n.db = slices.Delete(n.db, k, k+1)
		return
	}
}

func (n *naive) rup(c []int) bool { _, confl := n.up(negate(c)); return confl }

func (n *naive) implied(c []int) bool {
	if n.rup(c) {
		return true
	}
	if len(c) == 0 {
		return false
	}
	p := c[0]
	for _, d := range n.db {
		if !slices.Contains(d, -p) {
			continue
		}
		r := slices.Clone(c)
		for _, l := range d {
			if l != -p {
				r = append(r, l)
			}
		}
		if !n.rup(r) {
			return false
		}
	}
	return true
}

func sameSet(a, b []int) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

// naiveCheck returns (verified, failing lemma number or 0, refutedAt).
func naiveCheck(f *CNF, p *Proof) (bool, int, int) {
	n := &naive{}
	for _, c := range f.Clauses {
		n.db = append(n.db, dedupe(c))
	}
	if _, confl := n.up(nil); confl {
		return true, 0, 0
	}
	lemmas := 0
	for i := 0; i < p.Len(); i++ {
		s := p.Step(i)
		if s.Delete {
			n.remove(s.Clause)
			continue
		}
		lemmas++
		c := dedupe(s.Clause)
		if !n.implied(c) {
			return false, lemmas, -1
		}
		n.db = append(n.db, c)
		if _, confl := n.up(nil); confl {
			return true, 0, i + 1
		}
	}
	return false, 0, -1
}

// dedupe drops repeated literals, keeping the first occurrence (the RAT pivot).
func dedupe(c []int) []int {
	var out []int
	for _, l := range c {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// randomCase draws a formula of 1 to maxClauses clauses of 1 to 3 literals over at
// most 5 variables, and a text proof of up to maxSteps steps: lemmas of 0 to 3
// literals (RUP, RAT or not implied), and one step in five a deletion of a formula
// clause.
func randomCase(t *rapid.T, maxClauses, maxSteps int) (*CNF, *Proof) {
	vars := rapid.IntRange(1, 5).Draw(t, "vars")
	lit := rapid.Custom(func(t *rapid.T) int {
		v := rapid.IntRange(1, vars).Draw(t, "v")
		if rapid.Bool().Draw(t, "neg") {
			return -v
		}
		return v
	})
	f := &CNF{Vars: vars, Clauses: rapid.SliceOfN(rapid.SliceOfN(lit, 1, 3), 1, maxClauses).Draw(t, "formula")}
	p := &Proof{Format: Text}
	steps := rapid.IntRange(0, maxSteps).Draw(t, "steps")
	for i := 0; i < steps; i++ {
		if rapid.IntRange(0, 4).Draw(t, "kind") == 0 {
			p.Add(true, f.Clauses[rapid.IntRange(0, len(f.Clauses)-1).Draw(t, "deleted")]...)
		} else {
			p.Add(false, rapid.SliceOfN(lit, 0, 3).Draw(t, "lemma")...)
		}
	}
	return f, p
}

// writeDIMACS writes f with the project's one DIMACS writer, the encoder's
// (optimal.Formula.WriteDIMACS): the checker keeps its own parser, and its tests
// read what the encoder writes.
func writeDIMACS(f *CNF, w io.Writer) error {
	return (&optimal.Formula{Vars: f.Vars, Clauses: f.Clauses, Comments: f.Comments}).WriteDIMACS(w)
}
