package certify

import (
	"context"
	"encoding/json"
	"fmt"
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
	restore := dlEdit(t, dir, ManifestFile, func(b string) string {
		return strings.Replace(b, `"atomic_vc": true`, `"atomic_vc": false`, 1)
	})
	requireRefused(t, dir, "order: a state holding")
	restore()
	// reversed, the order is no proof
	dlEdit(t, dir, "order.json", func(od string) string {
		var chans []string
		body := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(od), `{"channels":[`), `]}`)
		for _, c := range strings.Split(body, "],[") {
			chans = append([]string{strings.Trim(c, "[]")}, chans...)
		}
		return `{"channels":[[` + strings.Join(chans, "],[") + `]]}` + "\n"
	})
	requireRefused(t, dir, "order:")
}

// dlEdit edits a deadlock certificate's file and puts its new sha256 in the
// manifest in place of the old, as a forger would; restore puts both back.
func dlEdit(t *testing.T, dir, file string, edit func(string) string) (restore func()) {
	t.Helper()
	p, man := filepath.Join(dir, file), filepath.Join(dir, ManifestFile)
	old, err := os.ReadFile(p)
	require.NoError(t, err)
	md, err := os.ReadFile(man)
	require.NoError(t, err)
	b := edit(string(old))
	require.NotEqual(t, string(old), b, "the edit changes %s", file)
	require.NoError(t, os.WriteFile(p, []byte(b), 0o644))
	if file != ManifestFile {
		require.NoError(t, os.WriteFile(man, []byte(strings.Replace(string(md), sum(old), sum([]byte(b)), 1)), 0o644))
	}
	return func() {
		require.NoError(t, os.WriteFile(p, old, 0o644))
		require.NoError(t, os.WriteFile(man, md, 0o644))
	}
}

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
	dlEdit(t, dir, "configuration.json", func(data string) string {
		i := strings.Index(data, "\n  {")
		j := strings.Index(data[i+1:], "\n  {") + i + 1
		return data[:i] + data[j:]
	})
	dlEdit(t, dir, ManifestFile, func(md string) string {
		return strings.Replace(md, `"packets": 4`, `"packets": 3`, 1)
	})
	requireRefused(t, dir, "configuration:")
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
	dlEdit(t, dir, "replay.json", func(data string) string {
		return strings.Replace(data, `"pipeline": "booksim"`, `"pipeline": "ideal"`, 1)
	})
	// the batch drains on the ideal pipeline: the checker's own watch sees no rest
	requireRefused(t, dir, "replay: the run did not come to rest")
}

// The replay's last ways (deadlock/replay.go: helpers whose paths pass
// through other heads' requests and hold them too, tried last; release times
// relaxed by a slack where their constraints have no solution) are ones the
// checker reproduces from an empty network with code of its own (checkReplay):
// Duato's protocol, non-atomic, on mesh:4x4 with 4 VCs and on mesh:3x3 with 3,
// both with 8-flit buffers (deadlock.TestReplayBufferDepth: neither replayed
// before them). The helpers are in the batch the checker runs.
func TestDeadlockReplayThroughRequests(t *testing.T) {
	for _, c := range []struct {
		spec string
		vcs  int
	}{{"mesh:4x4", 4}, {"mesh:3x3", 3}} {
		what := fmt.Sprintf("duato on %s, %d VCs, non-atomic, 8-flit buffers", c.spec, c.vcs)
		net, err := topology.Parse(c.spec)
		require.NoError(t, err)
		alg, err := routing.Lookup("duato")
		require.NoError(t, err)
		r, err := alg.New(net, c.vcs)
		require.NoError(t, err)
		res, err := deadlock.Exact(context.Background(), net, r.(deadlock.Function), c.vcs, alg.Name, deadlock.ExactOptions{Buf: 8, MinimalTime: 20 * time.Second, AlternativeTime: 5 * time.Minute})
		require.NoError(t, err, what)
		require.Equal(t, "deadlock", res.Verdict, what)
		require.True(t, res.Replay.Replayed, "%s: %s", what, res.Replay.Error)
		require.Positive(t, res.Replay.Helpers, what)
		dir := t.TempDir()
		require.NoError(t, WriteDeadlock(context.Background(), dir, "duato", res), what)
		rep := checkDL(t, dir)
		require.True(t, rep.Verified, "%s: %s", what, rep.Failure)
		require.Contains(t, strings.Join(rep.Checked, "\n"), fmt.Sprintf("replay: %d packets from an empty network", len(res.Worms)+res.Replay.Helpers), what)
	}
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
	// the formula needs its proof
	require.Positive(t, r.Proof.Stats.RefutedAt)
	restore := dlEdit(t, dir, "proof.drat", func(string) string { return "" })
	requireRefused(t, dir, "proof:")
	restore()
	// a formula that is not the routing's
	dlEdit(t, dir, "formula.cnf", func(cnf string) string {
		i := strings.Index(cnf, "\n")
		return cnf[:i+1] + cnf[i+1:][strings.Index(cnf[i+1:], "\n")+1:]
	})
	requireRefused(t, dir, "formula:")
}

// The replay is checked from the simulator's trace, not by the simulator's
// deadlock detector (which package deadlock used to find it): when the run comes
// to rest, each of the configuration's packets must lie exactly in the buffers of
// the VCs its chain holds. The replay with its first two packets swapped (the
// same batch, so the simulator still deadlocks, but packet 1 of the configuration
// is now released as packet 2) comes to rest with packet 1 elsewhere, and does not
// check; the certificate as written does.
func TestDeadlockReplayRestsOnTheConfiguration(t *testing.T) {
	dir, res := dlCertificate(t, "torus:6x6", "dor", 1, false)
	require.Equal(t, "deadlock", res.Verdict)
	r := checkDL(t, dir)
	require.True(t, r.Verified, r.Failure)
	dlEdit(t, dir, "replay.json", func(data string) string {
		var rp map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(data), &rp))
		var ps []json.RawMessage
		require.NoError(t, json.Unmarshal(rp["packets"], &ps))
		require.GreaterOrEqual(t, len(ps), 2)
		ps[0], ps[1] = ps[1], ps[0]
		b, err := json.Marshal(ps)
		require.NoError(t, err)
		rp["packets"] = b
		out, err := json.Marshal(rp)
		require.NoError(t, err)
		return string(out)
	})
	requireRefused(t, dir, "replay: packet 1 rests in")
}

// requireRefused checks the certificate in dir and requires it refused with a
// failure that contains failure.
func requireRefused(t *testing.T, dir, failure string) {
	t.Helper()
	r := checkDL(t, dir)
	require.False(t, r.Verified)
	require.Contains(t, r.Failure, failure)
}

// A refused or interrupted deadlock --certify leaves its folder as it was, as
// solve --certify does (TestRefusedWriteLeavesNothing): here Ctrl-C before the
// checker's enumeration of a deadlock-free-by-SAT table. Into a new folder it
// creates nothing; over a certificate already there (the same table's, with
// its formula and proof) that certificate still checks. WriteDeadlock wrote
// routing-table.json into the folder before it was stopped, and would have
// written formula.cnf over the other certificate's while proving.
func TestRefusedDeadlockWriteLeavesNothing(t *testing.T) {
	good, res := dlCertificate(t, "", "table:../deadlock/testdata/free-by-sat.json", 2, true)
	require.Equal(t, "sat", res.Method)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	parent := t.TempDir()
	require.Error(t, WriteDeadlock(cancelled, filepath.Join(parent, "new"), "table:../deadlock/testdata/free-by-sat.json", res))
	left, err := os.ReadDir(parent)
	require.NoError(t, err)
	require.Empty(t, left, "a refused write into a new folder")

	dir := copyDir(t, good)
	before, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Error(t, WriteDeadlock(cancelled, dir, "table:../deadlock/testdata/free-by-sat.json", res))
	after, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Equal(t, len(before), len(after), "the folder's files")
	r := checkDL(t, dir)
	require.True(t, r.Verified, r.Failure)
}
