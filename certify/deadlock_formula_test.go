package certify

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-air/gini"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/drat"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// solveOwn solves the checker's own formula (nil: no configuration) with gini.
func solveOwn(t *testing.T, fo *dlCNF) bool {
	t.Helper()
	if fo == nil {
		return false
	}
	g, err := gini.NewDimacs(bytes.NewReader(fo.dimacs()))
	require.NoError(t, err)
	return g.Solve() == 1
}

// The checker's formula (deadlock_formula.go), encoded from docs/deadlock.md's
// definition of a deadlock configuration over the checker's own state
// enumeration, agrees with package deadlock's decision (itself checked against
// brute-force enumeration of configurations in deadlock's tests): it is
// satisfiable exactly when the verdict is "deadlock", and where the decision
// proved its configuration of n packets the fewest, the formula bounded by n is
// satisfiable and the formula bounded by n-1 is not.
func TestDeadlockOwnFormula(t *testing.T) {
	cases := []struct {
		routing, spec string
		vcs           int
		atomic        bool
	}{
		{"table:../deadlock/testdata/free-by-sat.json", "", 2, true},
		{"table:../deadlock/testdata/free-by-sat.json", "", 2, false},
		{"dor", "torus:4x4", 1, true},
		{"dor", "torus:4x4", 1, false},
		{"dor", "mesh:3x3", 1, true},
		{"duato", "mesh:3x3", 2, false},
		{"duato", "mesh:3x3", 2, true},
		{"duato", "torus:4x4", 2, false},
		{"any-min", "mesh:3x3", 1, true},
		{"any-min", "mesh:3x3", 1, false},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%d/%v", c.routing, c.spec, c.vcs, c.atomic), func(t *testing.T) {
			var net topology.Network
			if file, ok := strings.CutPrefix(c.routing, "table:"); ok {
				tab, err := routing.LoadTable(file)
				require.NoError(t, err)
				net = tab.Net()
			} else {
				n, err := topology.Parse(c.spec)
				require.NoError(t, err)
				net = n
			}
			alg, err := routing.Lookup(c.routing)
			require.NoError(t, err)
			r, err := alg.New(net, c.vcs)
			require.NoError(t, err)
			f := r.(deadlock.Function)
			res, err := deadlock.Exact(ctx, net, f, c.vcs, alg.Name, deadlock.ExactOptions{Atomic: c.atomic, Buf: 2, MinimalTime: 20 * time.Second})
			require.NoError(t, err)
			sp, err := enumerateStates(ctx, net, f, c.vcs)
			require.NoError(t, err)
			require.Equal(t, res.Verdict == "deadlock", solveOwn(t, sp.deadlockFormula(c.atomic, 0)), "verdict %s", res.Verdict)
			if res.Verdict == "deadlock" && res.Minimal {
				n := len(res.Decision().Config.Worms)
				require.True(t, solveOwn(t, sp.deadlockFormula(c.atomic, n)), "bound %d", n)
				if n > 1 {
					require.False(t, solveOwn(t, sp.deadlockFormula(c.atomic, n-1)), "bound %d", n-1)
				}
				t.Logf("%s: %d packets, fewest", res.Verdict, n)
			} else {
				t.Logf("%s (method %s)", res.Verdict, res.Method)
			}
		})
	}
}

// The sequential counter bounds exactly: over n free variables, "at most k"
// has a model with k true and none with k+1 (every subset checked, n <= 6).
func TestDeadlockAtMost(t *testing.T) {
	for n := 1; n <= 6; n++ {
		for k := 1; k <= n; k++ {
			for mask := 0; mask < 1<<n; mask++ {
				f := &dlCNF{}
				xs := make([]int, n)
				for i := range xs {
					xs[i] = f.v()
				}
				f.atMost(xs, k)
				ones := 0
				for i := range n {
					if mask>>i&1 == 1 {
						f.add(xs[i])
						ones++
					} else {
						f.add(-xs[i])
					}
				}
				cnf, err := drat.ReadCNF(bytes.NewReader(f.dimacs()))
				require.NoError(t, err)
				g, err := gini.NewDimacs(bytes.NewReader(f.dimacs()))
				require.NoError(t, err)
				require.Equal(t, ones <= k, g.Solve() == 1, "n %d k %d mask %b (%d clauses)", n, k, mask, len(cnf.Clauses))
			}
		}
	}
}

// Certificates of format 1 still check when they carry no formula (their other
// files read as in format 2), and are refused in one line naming the format when
// they carry one (package deadlock's formula, which the checker no longer uses).
func TestDeadlockFormat1(t *testing.T) {
	to1 := func(dir string) {
		p := filepath.Join(dir, ManifestFile)
		md, err := os.ReadFile(p)
		require.NoError(t, err)
		old := strings.Replace(string(md), DeadlockFormat, deadlockFormat1, 1)
		require.NotEqual(t, string(md), old)
		require.NoError(t, os.WriteFile(p, []byte(old), 0o644))
	}
	dir, res := dlCertificate(t, "mesh:3x3", "dor", 1, true)
	require.Equal(t, "fixpoint", res.Method)
	to1(dir)
	require.True(t, IsDeadlockCertificate(dir))
	r := checkDL(t, dir)
	require.True(t, r.Verified, r.Failure)
	dir, _ = dlCertificate(t, "", "table:../deadlock/testdata/free-by-sat.json", 2, true)
	to1(dir)
	_, err := CheckContext(context.Background(), dir)
	require.ErrorContains(t, err, `format "wormlab-deadlock-certificate-1" carries a formula`)
	require.NotContains(t, err.Error(), "\n")
}

// A deadlock-free verdict that is false (dor on torus:4x4 with one VC deadlocks;
// the verdict flipped, as a bug in package deadlock would flip it) cannot be
// certified: the writer proves the checker's own formula, which is
// satisfiable. (With package deadlock's encoder mutated to drop the head from
// "an occupied node is a head or continues", the certificates of format 1 were
// written and checked: the writer and the checker both encoded that formula,
// unsatisfiable.)
func TestDeadlockFalseFreeNotCertified(t *testing.T) {
	net, err := topology.Parse("torus:4x4")
	require.NoError(t, err)
	alg, err := routing.Lookup("dor")
	require.NoError(t, err)
	r, err := alg.New(net, 1)
	require.NoError(t, err)
	res, err := deadlock.Exact(context.Background(), net, r.(deadlock.Function), 1, alg.Name, deadlock.ExactOptions{Atomic: true, Buf: 2, MinimalTime: 20 * time.Second})
	require.NoError(t, err)
	require.Equal(t, "deadlock", res.Verdict)
	res.Verdict = "deadlock-free"
	err = WriteDeadlock(context.Background(), t.TempDir(), "dor", res)
	require.ErrorContains(t, err, "satisfiable")
}
