package certify

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/drat"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

func mesh(t testing.TB, seed uint64, msgs, flits int) *model.Instance {
	t.Helper()
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{3, 3}, Messages: msgs, Flits: flits, Seed: seed})
	require.NoError(t, err)
	return in
}

func solve(t testing.TB, in *model.Instance, m string) *optimal.Result {
	t.Helper()
	res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: m})
	require.NoError(t, err)
	require.True(t, res.Optimal)
	require.NoError(t, verify.Schedule(in, res.Schedule))
	return res
}

func certificate(t testing.TB, in *model.Instance, m string, p Prover) (string, *Manifest) {
	t.Helper()
	dir := t.TempDir()
	// A test that names a prover wants a proof, also for an edge-set optimum.
	man, err := WriteOptions(context.Background(), dir, in, solve(t, in, m), Options{Prover: p, Refute: p != nil})
	require.NoError(t, err)
	return dir, man
}

func mustCheck(t testing.TB, dir string) *Report {
	t.Helper()
	r, err := Check(dir)
	require.NoError(t, err)
	return r
}

// refutationCase returns a certificate that needs a non-trivial proof: a random
// tree of 16 nodes with 24 worms of 3 flits (seed 5), wormhole: its optimum is
// above every closed-form bound and the CNF one step below is not refuted by unit
// propagation alone (its proof has 9 lemmas; the busy-slot clauses of encoding
// wormlab-order-5 left the earlier case, 12 nodes, 16 worms, seed 7, with 3, too
// few for the truncation case below to lose the refutation).
func refutationCase(t testing.TB) (*model.Instance, string, *Manifest) {
	t.Helper()
	in := generate(t, instances.Spec{Kind: "tree", Size: 16, Messages: 24, Flits: 3, Seed: 5})
	dir, man := certificate(t, in, model.Wormhole, Gophersat{})
	require.Equal(t, KindRefutation, man.Kind)
	r := mustCheck(t, dir)
	require.True(t, r.Verified, r.Failure)
	require.Positive(t, r.Proof.Stats.RefutedAt, "the proof is needed")
	return in, dir, man
}

func generateTB(t testing.TB, sp instances.Spec) *model.Instance { return generate(t, sp) }

func generate(t testing.TB, sp instances.Spec) *model.Instance {
	t.Helper()
	in, err := instances.Generate(sp)
	require.NoError(t, err)
	return in
}

// Every certificate written for random 3x3 mesh instances checks, in both models,
// and both kinds occur.
func TestWriteCheck(t *testing.T) {
	kinds := map[string]int{}
	for seed := uint64(1); seed <= 8; seed++ {
		in := mesh(t, seed, 14, int(seed%4)+1)
		for _, m := range []string{model.Wormhole, model.Bufferless} {
			dir, man := certificate(t, in, m, nil)
			r := mustCheck(t, dir)
			require.True(t, r.Verified, "seed %d %s: %s", seed, m, r.Failure)
			kinds[man.Kind]++
			assert.Equal(t, m, r.Model)
			if man.Kind == KindBound || man.Kind == KindEdgeSet {
				assert.NoFileExists(t, filepath.Join(dir, CNFFile))
			} else {
				assert.True(t, r.Proof.Verified)
				assert.FileExists(t, filepath.Join(dir, ProofFile))
			}
		}
	}
	assert.Positive(t, kinds[KindBound])
	// Since the solver's edge-set bound, these optima above every closed-form
	// bound are edge-set certificates (refutations: the tests that name a prover).
	assert.Positive(t, kinds[KindRefutation]+kinds[KindEdgeSet])
}

// The CNF header names the instance, its hash, the model, the horizon and the
// encoding, and the file is what the manifest hashes.
func TestCNFHeader(t *testing.T) {
	in, dir, man := refutationCase(t)
	data, err := os.ReadFile(filepath.Join(dir, CNFFile))
	require.NoError(t, err)
	f, err := drat.ReadCNF(strings.NewReader(string(data)))
	require.NoError(t, err)
	head := strings.Join(f.Comments[:3], "\n")
	assert.Contains(t, head, `instance "`+in.Name+`" sha256 `+man.Instance.SHA256)
	assert.Contains(t, head, fmt.Sprintf("model wormhole horizon %d (optimum %d - 1) encoding %s", man.Makespan-1, man.Makespan, optimal.EncodingVersion))
	assert.Equal(t, man.Refutation.CNF.SHA256, sum(data))
	assert.Equal(t, man.Refutation.Vars, f.Vars)
}

// rewrite edits a certificate file and updates its hash in the manifest, as a
// forger would; edit may also change the manifest.
func rewrite(t *testing.T, dir, file string, edit func([]byte) []byte, editMan func(*Manifest)) {
	t.Helper()
	p := filepath.Join(dir, ManifestFile)
	var man Manifest
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &man))
	if file != "" {
		b, err := os.ReadFile(filepath.Join(dir, file))
		require.NoError(t, err)
		b = edit(b)
		require.NoError(t, os.WriteFile(filepath.Join(dir, file), b, 0o644))
		for _, ref := range []*FileRef{&man.Instance, &man.Schedule} {
			if ref.File == file {
				ref.SHA256 = sum(b)
			}
		}
		if man.Refutation != nil {
			for _, ref := range []*FileRef{&man.Refutation.CNF, &man.Refutation.Proof} {
				if ref.File == file {
					ref.SHA256 = sum(b)
				}
			}
		}
	}
	if editMan != nil {
		editMan(&man)
	}
	data, err = json.Marshal(&man)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, data, 0o644))
}

func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	es, err := os.ReadDir(src)
	require.NoError(t, err)
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644))
	}
	return dst
}

// Forged refutation certificates are rejected, each by the check it defeats.
func TestForgedRefutation(t *testing.T) {
	_, dir, man := refutationCase(t)
	// 4x4 mesh, 24 worms of 3 flits, seed 12: its optimum 16 needs a proof too.
	other := generate(t, instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Messages: 24, Flits: 3, Seed: 12})
	odir, oman := certificate(t, other, model.Wormhole, Gophersat{})
	require.Equal(t, KindRefutation, oman.Kind)
	mk, h := man.Makespan, man.Refutation.Horizon
	cases := []struct {
		name, file string
		edit       func([]byte) []byte
		man        func(*Manifest)
		want       string
	}{
		{name: "proof truncated", file: ProofFile, edit: func(b []byte) []byte {
			lines := strings.SplitAfter(string(b), "\n")
			return []byte(strings.Join(lines[:len(lines)/2], ""))
		}, want: "proof: proof ends after"},
		{name: "proof of another instance", file: ProofFile, edit: func([]byte) []byte {
			b, err := os.ReadFile(filepath.Join(odir, ProofFile))
			require.NoError(t, err)
			return b
		}, want: "proof: "},
		{name: "weaker cnf", file: CNFFile, edit: func(b []byte) []byte {
			lines := strings.SplitAfter(string(b), "\n")
			return []byte(strings.Join(lines[:len(lines)-5], ""))
		}, want: "cnf: the instance re-encoded"},
		{name: "cnf hash forged", man: func(m *Manifest) { m.Refutation.CNF.SHA256 = strings.Repeat("0", 64) }, want: "cnf: the instance re-encoded"},
		{name: "file differs from manifest", file: CNFFile, edit: func(b []byte) []byte { return append(b, "c extra\n"...) },
			man: func(m *Manifest) { m.Refutation.CNF.SHA256 = man.Refutation.CNF.SHA256 }, want: "differs from the re-encoded formula"},
		{name: "claimed makespan too small", man: func(m *Manifest) { m.Makespan--; m.Refutation.Horizon-- }, want: fmt.Sprintf("schedule: model wormhole makespan %d, the manifest claims", mk)},
		{name: "horizon not makespan-1", man: func(m *Manifest) { m.Refutation.Horizon-- }, want: fmt.Sprintf("horizon %d is not the makespan %d minus one", h-1, mk)},
		{name: "other encoding", man: func(m *Manifest) { m.Refutation.Encoding = "wormlab-order-0" }, want: "encoding wormlab-order-0, this build"},
		{name: "instance edited", file: InstanceFile, edit: func(b []byte) []byte {
			// An extra field changes the instance's hash, hence the CNF header.
			return []byte(strings.Replace(string(b), "{", `{"note": "edited",`, 1))
		}, want: "cnf: the instance re-encoded"},
		{name: "instance hash", man: func(m *Manifest) { m.Instance.SHA256 = strings.Repeat("a", 64) }, want: "instance: instance.json has sha256"},
		{name: "illegal schedule", file: ScheduleFile, edit: func(b []byte) []byte {
			var s map[string]any
			require.NoError(t, json.Unmarshal(b, &s))
			ms := s["messages"].([]any)
			m0 := ms[0].(map[string]any)
			m1 := ms[1].(map[string]any)
			m1["cross"] = m0["cross"] // unlikely legal, and a different path anyway
			delete(m1, "start")
			out, _ := json.Marshal(s)
			return out
		}, want: "schedule: illegal"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := copyDir(t, dir)
			rewrite(t, d, c.file, c.edit, c.man)
			r := mustCheck(t, d)
			assert.False(t, r.Verified)
			assert.Contains(t, r.Failure, c.want)
		})
	}
}

// Closed-form certificates: each witness is recomputed from the instance, and a
// forged one fails.
func TestForgedBound(t *testing.T) {
	in := mesh(t, 2, 14, 3) // optimum 10 = an edge bound in both models
	dir, man := certificate(t, in, model.Wormhole, nil)
	require.Equal(t, KindBound, man.Kind)
	require.Equal(t, BoundEdge, man.Bound.Name)
	for _, c := range []struct {
		name string
		man  func(*Manifest)
		want string
	}{
		{"value", func(m *Manifest) { m.Bound.Value++ }, "the instance gives"},
		{"arithmetic", func(m *Manifest) { m.Bound.Arithmetic = "1 + 1 = 10" }, "the instance gives"},
		{"message off the edge", func(m *Manifest) { m.Bound.Messages[0] = pickOther(in, m.Bound) }, "does not use edge"},
		{"unknown message", func(m *Manifest) { m.Bound.Messages[0] = "nobody" }, `no message "nobody"`},
		{"twice", func(m *Manifest) { m.Bound.Messages = append(m.Bound.Messages, m.Bound.Messages[0]) }, "named twice"},
		{"kind", func(m *Manifest) { m.Bound.Name = "hope" }, `unknown kind`},
		{"clique that is not", func(m *Manifest) {
			m.Bound.Name = BoundClique
			m.Bound.Messages = []string{in.Messages[0].ID, pickOther(in, m.Bound)}
			m.Bound.Edge, m.Bound.EdgeName = nil, ""
		}, "not in aligned conflict"},
		// The edge's name is a claim too: check-certificate prints the name it
		// recomputes, so a name the instance does not give is refused.
		{"edge name", func(m *Manifest) { m.Bound.EdgeName = "0,0->9,9" }, `the certificate names "0,0->9,9"`},
		{"edge name missing", func(m *Manifest) { m.Bound.EdgeName = "" }, `the certificate names ""`},
		{"edge on a clique", func(m *Manifest) { m.Bound.Name = BoundClique }, "names an edge, which only an edge bound has"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := copyDir(t, dir)
			rewrite(t, d, "", nil, c.man)
			r := mustCheck(t, d)
			assert.False(t, r.Verified)
			assert.Contains(t, r.Failure, c.want)
		})
	}
}

// pickOther returns a message that does not use the bound's edge and is not in
// aligned conflict with message 0.
func pickOther(in *model.Instance, b *Bound) string {
	for i := range in.Messages {
		uses := false
		for _, e := range in.Messages[i].Path {
			uses = uses || e == *b.Edge
		}
		if !uses && !aligned(in, 0, i) && i != 0 {
			return in.Messages[i].ID
		}
	}
	panic("no such message")
}

// Seed 002, section 5, repaired (lower.Prime(2, 5, true)): the optimum 24 is the
// aligned-clique bound p^2 L + 2p and no edge bound reaches it, so the certificate
// is the clique.
func TestCliqueCertificate(t *testing.T) {
	in, err := lower.Prime(2, 5, true)
	require.NoError(t, err)
	dir, man := certificate(t, in, model.Bufferless, nil)
	require.Equal(t, KindBound, man.Kind)
	assert.Equal(t, BoundClique, man.Bound.Name)
	assert.Equal(t, 24, man.Bound.Value)
	r := mustCheck(t, dir)
	require.True(t, r.Verified, r.Failure)
}

func TestWriteRefuses(t *testing.T) {
	in := generate(t, instances.Spec{Kind: "tree", Size: 12, Messages: 16, Flits: 4, Seed: 7})
	res := solve(t, in, model.Wormhole)
	notOpt := *res
	notOpt.Optimal = false
	assert.ErrorContains(t, Write(t.TempDir(), in, &notOpt), "not proven optimal")
	// A schedule one step longer than optimal: horizon makespan-1 is satisfiable.
	longer := *res
	s := *res.Schedule
	s.Messages = append([]model.Times(nil), s.Messages...)
	worst := 0
	for i, m := range s.Messages {
		if model.Delivery(m.Cross, in.Messages[i].L) == s.Makespan {
			worst = i
		}
	}
	cross := make([]int, len(s.Messages[worst].Cross))
	for k, c := range s.Messages[worst].Cross {
		cross[k] = c + 1
	}
	s.Messages[worst] = model.Times{ID: s.Messages[worst].ID, Cross: cross}
	s.Makespan++
	s.LowerBound, s.Optimal = nil, nil
	longer.Schedule = &s
	require.NoError(t, verify.Schedule(in, &s), "the last worm one step later is still legal")
	assert.ErrorIs(t, Write(t.TempDir(), in, &longer), ErrSatisfiable)
	_, err := Check(t.TempDir())
	assert.Error(t, err, "no manifest: unreadable")
}

// Both provers give proofs that check, in their own formats.
func TestProvers(t *testing.T) {
	in, dir, man := refutationCase(t)
	assert.Equal(t, "text", man.Refutation.ProofFormat)
	assert.True(t, mustCheck(t, dir).Verified)
	if !CadicalAvailable() {
		t.Skip("cadical not installed")
	}
	cdir, cman := certificate(t, in, model.Wormhole, Cadical{})
	assert.Equal(t, "binary", cman.Refutation.ProofFormat)
	assert.Equal(t, man.Refutation.CNF.SHA256, cman.Refutation.CNF.SHA256, "same formula")
	assert.True(t, mustCheck(t, cdir).Verified)
}

// An instance of no message has optimum 0 (a schedule of no worm), which every
// schedule attains: its certificate is the closed-form bound "empty" in both
// models, where a refutation of horizon -1 was attempted and the optimal
// schedule refused (`wormlab solve --certify DIR` exited 2 and left DIR without
// a manifest). The bound is checked against the instance: it certifies nothing
// on an instance that has a message.
func TestEmptyInstanceCertificate(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"network": {"edges": [["a", "b"]]}, "messages": []}`))
	require.NoError(t, err)
	for _, m := range []string{model.Wormhole, model.Bufferless} {
		dir, man := certificate(t, in, m, nil)
		require.Equal(t, KindBound, man.Kind, m)
		require.Equal(t, BoundEmpty, man.Bound.Name, m)
		require.Equal(t, 0, man.Bound.Value, m)
		r := mustCheck(t, dir)
		require.True(t, r.Verified, "%s: %s", m, r.Failure)
	}
	one := mesh(t, 2, 1, 1)
	err = checkBound(one, &Bound{Name: BoundEmpty, Messages: []string{}, Arithmetic: emptyArithmetic})
	require.ErrorContains(t, err, "has 1 message(s)")
}

// CheckWithin re-encodes the refutation's formula within the budget it is given
// (a certificate written with solve --max-memory above the default is checked
// within the same budget, not the default's): a budget below the formula's size
// fails the check naming it, the default passes, and a write within a budget
// below the formula's size is refused before the formula is built.
func TestCheckWithinBudget(t *testing.T) {
	in, dir, _ := refutationCase(t)
	r, err := CheckWithin(context.Background(), dir, 1<<10)
	require.NoError(t, err)
	require.False(t, r.Verified)
	require.Contains(t, r.Failure, "more than the memory budget of 1024 bytes")
	r, err = CheckWithin(context.Background(), dir, 0)
	require.NoError(t, err)
	require.True(t, r.Verified, r.Failure)
	_, err = WriteOptions(context.Background(), t.TempDir(), in, solve(t, in, model.Wormhole), Options{Prover: Gophersat{}, Refute: true, MaxMemory: 1 << 10})
	var se *optimal.SizeError
	require.ErrorAs(t, err, &se)
}

// A refused write leaves nothing half-written: a refutation over the memory
// budget and a cancelled proof each leave a new folder
// uncreated and no staging folder behind, and a certificate already in the folder
// whole, still verified (WriteOptions wrote instance.json and schedule.json, and
// removed the manifest, before it refused).
func TestRefusedWriteLeavesNothing(t *testing.T) {
	in, good, _ := refutationCase(t)
	res := solve(t, in, model.Wormhole)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	other := generate(t, instances.Spec{Kind: "tree", Size: 12, Messages: 16, Flits: 4, Seed: 7})
	for _, c := range []struct {
		name string
		in   *model.Instance
		res  *optimal.Result
		ctx  context.Context
		opt  Options
	}{
		{"over the budget", in, res, context.Background(), Options{Prover: Gophersat{}, Refute: true, MaxMemory: 1 << 10}},
		{"cancelled", in, res, cancelled, Options{Prover: Gophersat{}, Refute: true}},
		{"another instance over the budget", other, solve(t, other, model.Wormhole), context.Background(), Options{Prover: Gophersat{}, Refute: true, MaxMemory: 1 << 10}},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			_, err := WriteOptions(c.ctx, filepath.Join(parent, "new"), c.in, c.res, c.opt)
			require.Error(t, err)
			left, err := os.ReadDir(parent)
			require.NoError(t, err)
			assert.Empty(t, left, "a refused write into a new folder")

			dir := copyDir(t, good)
			before, err := os.ReadDir(dir)
			require.NoError(t, err)
			_, err = WriteOptions(c.ctx, dir, c.in, c.res, c.opt)
			require.Error(t, err)
			after, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Equal(t, len(before), len(after), "the folder's files")
			r := mustCheck(t, dir)
			assert.True(t, r.Verified, r.Failure)
			assert.Contains(t, r.Checked[0], in.Name, "the certificate already there")
			sibling, err := filepath.Glob(filepath.Join(filepath.Dir(dir), ".wormlab-certificate.*"))
			require.NoError(t, err)
			assert.Empty(t, sibling, "staging folders")
		})
	}
}

// A certificate written into a folder on another file system than its parent's
// (a symbolic link to /dev/shm, a tmpfs) is written whole and checks, and a
// refused write there leaves the certificate already in it whole. The staging
// folder was made beside the link, on the parent's file system, so every rename
// into the folder failed (invalid cross-device link) after the old manifest had
// been removed: the run ended with exit 2 after the solve and the certificate
// already there had lost its manifest.
func TestWriteIntoFolderOnAnotherFileSystem(t *testing.T) {
	parent := t.TempDir()
	other, err := os.MkdirTemp("/dev/shm", "wormlab-certify-test.*")
	if err != nil {
		t.Skipf("no /dev/shm: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(other) })
	var a, b syscall.Stat_t
	require.NoError(t, syscall.Stat(parent, &a))
	require.NoError(t, syscall.Stat(other, &b))
	if a.Dev == b.Dev {
		t.Skip("/dev/shm is on the temporary folder's file system")
	}
	link := filepath.Join(parent, "cert")
	require.NoError(t, os.Symlink(other, link))

	in, good, _ := refutationCase(t)
	res := solve(t, in, model.Wormhole)
	_, err = WriteOptions(context.Background(), link, in, res, Options{Prover: Gophersat{}, Refute: true})
	require.NoError(t, err)
	r := mustCheck(t, link)
	require.True(t, r.Verified, r.Failure)

	require.NoError(t, os.RemoveAll(other))
	require.NoError(t, os.Mkdir(other, 0o755))
	files, err := os.ReadDir(good)
	require.NoError(t, err)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(good, f.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(other, f.Name()), data, 0o644))
	}
	_, err = WriteOptions(context.Background(), link, in, res, Options{Prover: Gophersat{}, Refute: true, MaxMemory: 1 << 10})
	require.Error(t, err)
	after, err := os.ReadDir(other)
	require.NoError(t, err)
	assert.Equal(t, len(files), len(after), "the folder's files")
	r = mustCheck(t, link)
	assert.True(t, r.Verified, r.Failure)
}

// A certificate's files have the mode of every output file (docs/cli.md): 0666
// less the umask, and a file replaced keeps its mode. They were 0644 whatever the
// umask (0600 under umask 077 for -o beside them) and a replaced file's mode was
// lost.
func TestCertificateFileModes(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	in := mesh(t, 3, 8, 2)
	res := solve(t, in, model.Wormhole)
	modes := func(dir string) map[string]os.FileMode {
		files, err := os.ReadDir(dir)
		require.NoError(t, err)
		m := map[string]os.FileMode{}
		for _, f := range files {
			fi, err := f.Info()
			require.NoError(t, err)
			m[f.Name()] = fi.Mode().Perm()
		}
		return m
	}
	dir := filepath.Join(t.TempDir(), "cert")
	require.NoError(t, Write(dir, in, res))
	got := modes(dir)
	require.Len(t, got, 3)
	for name, mode := range got {
		assert.Equal(t, os.FileMode(0o644), mode, name)
	}
	require.NoError(t, os.Chmod(filepath.Join(dir, InstanceFile), 0o600))
	require.NoError(t, os.Chmod(filepath.Join(dir, ManifestFile), 0o640))
	require.NoError(t, Write(dir, in, res))
	got = modes(dir)
	assert.Equal(t, os.FileMode(0o600), got[InstanceFile], "a replaced instance.json")
	assert.Equal(t, os.FileMode(0o640), got[ManifestFile], "a replaced manifest.json")
	assert.Equal(t, os.FileMode(0o644), got[ScheduleFile])

	syscall.Umask(0o077)
	private := filepath.Join(t.TempDir(), "private")
	require.NoError(t, Write(private, in, res))
	for name, mode := range modes(private) {
		assert.Equal(t, os.FileMode(0o600), mode, name)
	}
	r := mustCheck(t, private)
	assert.True(t, r.Verified, r.Failure)
}

// A certificate's files must be regular files: one replaced by a device (a
// symbolic link to /dev/null; /dev/zero read whole filled the memory, a FIFO
// as manifest.json blocked check-certificate forever) or a directory is refused
// by name before it is read, the manifest too (a deadlock certificate's files
// are read by the same readPart).
func TestCheckRefusesFilesNotRegular(t *testing.T) {
	in := mesh(t, 3, 8, 2)
	good, _ := certificate(t, in, model.Wormhole, Gophersat{})
	for _, name := range []string{ManifestFile, InstanceFile, ScheduleFile} {
		for _, kind := range []string{"a device", "a directory"} {
			dir := copyDir(t, good)
			p := filepath.Join(dir, name)
			require.NoError(t, os.Remove(p))
			if kind == "a device" {
				require.NoError(t, os.Symlink("/dev/null", p))
			} else {
				require.NoError(t, os.Mkdir(p, 0o755))
			}
			_, err := Check(dir)
			require.Error(t, err, "%s as %s", name, kind)
			assert.Contains(t, err.Error(), name+": "+kind+", not a regular file")
		}
	}
}

// readPart decides on the file it opened: a FIFO renamed over a certificate's
// file while it is read is refused as a named pipe, never waited on (a check by
// name then an open would block on a FIFO put in between), and a regular file
// is read whole.
func TestReadPartFIFOSwappedIn(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ManifestFile)
	reg, fifo := filepath.Join(dir, "reg"), filepath.Join(dir, "fifo")
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			if i%2 == 0 {
				if os.WriteFile(reg, []byte("{}"), 0o644) == nil {
					_ = os.Rename(reg, p)
				}
			} else if syscall.Mkfifo(fifo, 0o644) == nil {
				_ = os.Rename(fifo, p)
			}
		}
	}()
	fifos := 0
	for range 3000 {
		data, err := readPart(p, 1<<10)
		switch {
		case err == nil:
			require.Equal(t, "{}", string(data))
		case strings.Contains(err.Error(), "a named pipe, not a regular file"):
			fifos++
		default:
			require.True(t, os.IsNotExist(err), "%v", err)
		}
	}
	close(done)
	wg.Wait()
	require.Positive(t, fifos, "no FIFO met in 3000 reads")
}

// Certificates are defined for the wormhole and bufferless models (solve
// --certify writes no other): a manifest naming store-and-forward, its schedule
// relabelled to match, is refused as bad input naming the field, before any
// claim is weighed.
func TestCheckRefusesStoreAndForward(t *testing.T) {
	in := mesh(t, 2, 14, 3)
	dir, man := certificate(t, in, model.Wormhole, nil)
	require.Equal(t, KindBound, man.Kind)
	rewrite(t, dir, man.Schedule.File, func(b []byte) []byte {
		s := strings.Replace(string(b), `"wormhole"`, `"store-and-forward"`, 1)
		require.NotEqual(t, string(b), s)
		return []byte(s)
	}, func(m *Manifest) { m.Model = model.StoreAndForward })
	r, err := Check(dir)
	require.EqualError(t, err, `manifest.json: field "model": "store-and-forward", a certificate is for model wormhole or bufferless`, "%+v", r)
}
