package certify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

func dlCertificate(t *testing.T, spec, routingArg string, vcs int, atomic bool) (string, *deadlock.Result) {
	t.Helper()
	var net topology.Network
	name := routingArg
	if file, ok := strings.CutPrefix(routingArg, "table:"); ok {
		tab, err := routing.LoadTable(file)
		require.NoError(t, err)
		net = tab.Net()
	} else {
		n, err := topology.Parse(spec)
		require.NoError(t, err)
		net = n
	}
	alg, err := routing.Lookup(name)
	require.NoError(t, err)
	r, err := alg.New(net, vcs)
	require.NoError(t, err)
	res, err := deadlock.Exact(context.Background(), net, r.(deadlock.Function), vcs, alg.Name, deadlock.ExactOptions{Atomic: atomic, Buf: 2, MinimalTime: 20 * time.Second})
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, WriteDeadlock(context.Background(), dir, routingArg, res))
	return dir, res
}

func checkDL(t *testing.T, dir string) *Report {
	t.Helper()
	r, err := CheckContext(context.Background(), dir)
	require.NoError(t, err)
	return r
}

// A deadlock-free verdict by the fixpoint carries the order of the VCs' deaths;
// the checker's own enumeration confirms it. The order of another rule or a
// shuffled order does not check.
func TestDeadlockOrderCertificate(t *testing.T) {
	dir, res := dlCertificate(t, "torus:4x4", "duato", 3, true)
	require.Equal(t, "deadlock-free", res.Verdict)
	r := checkDL(t, dir)
	require.True(t, r.Verified, r.Failure)
	require.Equal(t, KindOrder, r.Kind)
	require.Contains(t, r.Claim, "deadlock-free")
	// the same order does not prove the routing under non-atomic reallocation
	// (where it deadlocks): flip the manifest's rule
	man := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(man)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(man, []byte(strings.Replace(string(data), `"atomic_vc": true`, `"atomic_vc": false`, 1)), 0o644))
	r = checkDL(t, dir)
	require.False(t, r.Verified)
	require.Contains(t, r.Failure, "order: a state holding")
	require.NoError(t, os.WriteFile(man, data, 0o644))
	// reversed, the order is no proof
	op := filepath.Join(dir, "order.json")
	od, err := os.ReadFile(op)
	require.NoError(t, err)
	var chans []string
	body := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(od)), `{"channels":[`), `]}`)
	for _, c := range strings.Split(body, "],[") {
		chans = append([]string{strings.Trim(c, "[]")}, chans...)
	}
	rev := `{"channels":[[` + strings.Join(chans, "],[") + `]]}` + "\n"
	require.NoError(t, os.WriteFile(op, []byte(rev), 0o644))
	require.NoError(t, os.WriteFile(man, []byte(strings.Replace(string(data), sumOf(od), sumOf([]byte(rev)), 1)), 0o644))
	r = checkDL(t, dir)
	require.False(t, r.Verified)
	require.Contains(t, r.Failure, "order:")
}

func sumOf(b []byte) string { return sum(b) }

// A deadlock verdict carries the configuration, its replay and the proof of
// minimality: by the girth (the checker recomputes its own), or by a DRAT proof
// that one packet fewer is impossible (a routing table where the girth is below
// the minimum).
func TestDeadlockConfigurationCertificate(t *testing.T) {
	dir, res := dlCertificate(t, "torus:6x6", "dor", 1, false)
	require.Equal(t, "deadlock", res.Verdict)
	r := checkDL(t, dir)
	require.True(t, r.Verified, r.Failure)
	require.Equal(t, KindConfiguration, r.Kind)
	joined := strings.Join(r.Checked, "\n")
	require.Contains(t, joined, "replay:")
	require.Contains(t, joined, "minimality: every deadlock configuration has at least 3 packets")

	dir, res = dlCertificate(t, "", "table:../deadlock/testdata/minimal-by-sat.json", 2, true)
	require.Equal(t, 4, len(res.Worms))
	r = checkDL(t, dir)
	require.True(t, r.Verified, r.Failure)
	joined = strings.Join(r.Checked, "\n")
	require.Contains(t, joined, "no deadlock configuration of at most 3 packets")
	require.NotNil(t, r.Proof)

	// a configuration whose head is not blocked does not check: drop a packet
	cp := filepath.Join(dir, "configuration.json")
	data, err := os.ReadFile(cp)
	require.NoError(t, err)
	i := strings.Index(string(data), "\n  {")
	j := strings.Index(string(data)[i+1:], "\n  {") + i + 1
	cut := string(data[:i]) + string(data[j:])
	require.NoError(t, os.WriteFile(cp, []byte(cut), 0o644))
	man := filepath.Join(dir, ManifestFile)
	md, err := os.ReadFile(man)
	require.NoError(t, err)
	md2 := strings.Replace(string(md), sum(data), sum([]byte(cut)), 1)
	md2 = strings.Replace(md2, `"packets": 4`, `"packets": 3`, 1)
	require.NoError(t, os.WriteFile(man, []byte(md2), 0o644))
	r = checkDL(t, dir)
	require.False(t, r.Verified)
	require.Contains(t, r.Failure, "configuration:")
}

// A replay that deadlocks only on the booksim pipeline (Duato's protocol on a
// 4x4 mesh under non-atomic reallocation: on the ideal pipeline the helpers that
// hold a head's other request must start where a worm starts) records its
// pipeline, and the checker runs the batch on it; on the ideal pipeline the same
// batch does not deadlock, so the record is what makes it check.
func TestDeadlockReplayPipeline(t *testing.T) {
	dir, res := dlCertificate(t, "mesh:4x4", "duato", 2, false)
	require.Equal(t, "deadlock", res.Verdict)
	require.Equal(t, "booksim", res.Replay.Pipeline)
	r := checkDL(t, dir)
	require.True(t, r.Verified, r.Failure)
	require.Contains(t, strings.Join(r.Checked, "\n"), "(booksim pipeline)")
	rp := filepath.Join(dir, "replay.json")
	data, err := os.ReadFile(rp)
	require.NoError(t, err)
	ideal := strings.Replace(string(data), `"pipeline": "booksim"`, `"pipeline": "ideal"`, 1)
	require.NotEqual(t, string(data), ideal)
	require.NoError(t, os.WriteFile(rp, []byte(ideal), 0o644))
	man := filepath.Join(dir, ManifestFile)
	md, err := os.ReadFile(man)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(man, []byte(strings.Replace(string(md), sum(data), sum([]byte(ideal)), 1)), 0o644))
	r = checkDL(t, dir)
	require.False(t, r.Verified)
	require.Contains(t, r.Failure, "replay:")
}

// A deadlock-free verdict by SAT (a routing table on which the fixpoint keeps 11
// VCs: deadlock.TestFreeBySAT) carries the formula of every configuration and a
// DRAT proof of its unsatisfiability; the checker re-encodes the formula with
// its own encoder (deadlock_formula.go, not package deadlock's) and checks the
// proof with package drat. An empty proof (unit
// propagation alone does not refute the formula), or a formula with a clause
// dropped, does not check.
func TestDeadlockRefutationCertificate(t *testing.T) {
	dir, res := dlCertificate(t, "", "table:../deadlock/testdata/free-by-sat.json", 2, true)
	require.Equal(t, "deadlock-free", res.Verdict)
	require.Equal(t, "sat", res.Method)
	r := checkDL(t, dir)
	require.True(t, r.Verified, r.Failure)
	require.Equal(t, KindDLRefutation, r.Kind)
	require.NotNil(t, r.Proof)
	require.True(t, r.Proof.Verified)
	require.Contains(t, strings.Join(r.Checked, "\n"), "proof:")
	man := filepath.Join(dir, ManifestFile)
	md, err := os.ReadFile(man)
	require.NoError(t, err)
	// the formula needs its proof
	require.Positive(t, r.Proof.Stats.RefutedAt)
	pp := filepath.Join(dir, "proof.drat")
	proof, err := os.ReadFile(pp)
	require.NoError(t, err)
	cut := []byte{}
	require.NoError(t, os.WriteFile(pp, cut, 0o644))
	require.NoError(t, os.WriteFile(man, []byte(strings.Replace(string(md), sum(proof), sum(cut), 1)), 0o644))
	r = checkDL(t, dir)
	require.False(t, r.Verified)
	require.Contains(t, r.Failure, "proof:")
	require.NoError(t, os.WriteFile(pp, proof, 0o644))
	// a formula that is not the routing's
	cp := filepath.Join(dir, "formula.cnf")
	cnf, err := os.ReadFile(cp)
	require.NoError(t, err)
	i := strings.Index(string(cnf), "\n")
	other := string(cnf[:i+1]) + string(cnf[i+1:])[strings.Index(string(cnf[i+1:]), "\n")+1:]
	require.NoError(t, os.WriteFile(cp, []byte(other), 0o644))
	require.NoError(t, os.WriteFile(man, []byte(strings.Replace(string(md), sum(cnf), sum([]byte(other)), 1)), 0o644))
	r = checkDL(t, dir)
	require.False(t, r.Verified)
	require.Contains(t, r.Failure, "formula:")
}
