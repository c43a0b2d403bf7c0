package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// certifyTo (what 'wormlab solve --certify DIR' calls) writes a certificate that
// check-certificate verifies; a proof cut short makes check-certificate exit 1, a
// missing manifest exit 2.
func TestCertifyTo(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "tree", Size: 12, Messages: 16, Flits: 4, Seed: 7})
	require.NoError(t, err)
	res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: model.Wormhole})
	require.NoError(t, err)
	// The refutation path: an optimum the solver proved with the edge-set bound
	// (this one) would get an edge-set certificate, without proof.drat.
	res.Stats.LowerSource = "unsat"
	dir := t.TempDir()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb}
	require.NoError(t, certifyTo(context.Background(), e, dir, in, res, "", 0))
	assert.Contains(t, errb.String(), "certificate written to "+dir+": horizon 24 refuted by ")

	out.Reset()
	code := run([]string{"check-certificate", dir}, nil, &out, &errb, false)
	assert.Equal(t, 0, code, out.String())
	assert.Contains(t, out.String(), "VERIFIED: makespan 25 is optimal (wormhole model, refutation certificate)")
	// the formula is re-encoded within --max-memory, as solve --certify's was
	// written within solve's: below its size the check fails naming the budget
	out.Reset()
	code = run([]string{"check-certificate", "--max-memory", "1K", dir}, nil, &out, &errb, false)
	assert.Equal(t, 1, code)
	assert.Contains(t, lastLine(out.String()), "more than the memory budget of 1024 bytes", out.String())

	proof := filepath.Join(dir, "proof.drat")
	data, err := os.ReadFile(proof)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(proof, data[:len(data)/2], 0o644))
	out.Reset()
	code = run([]string{"check-certificate", dir}, nil, &out, &errb, false)
	assert.Equal(t, 1, code)
	assert.True(t, strings.HasPrefix(lastLine(out.String()), "NOT VERIFIED: proof: proof.drat has sha256"), out.String())

	require.NoError(t, os.Remove(filepath.Join(dir, "manifest.json")))
	errb.Reset()
	code = run([]string{"check-certificate", dir}, nil, &out, &errb, false)
	assert.Equal(t, 2, code)
	assert.Contains(t, errb.String(), "manifest.json: no such file")

	bad := *res
	bad.Optimal = false
	err = certifyTo(context.Background(), e, t.TempDir(), in, &bad, model.Wormhole, 0)
	assert.ErrorContains(t, err, "not proven optimal")
	var ee *exitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 1, ee.code)
	assert.ErrorContains(t, certifyTo(context.Background(), e, t.TempDir(), in, res, model.Bufferless, 0), "is in the wormhole model, not bufferless")
}

// A refutation refused for its size (certify's formula above the memory budget)
// is worded by the lower bound's source: a bound with no certificate, or a
// horizon solve refuted with its own formula (certifyTo said "by the unsat
// bound, which has no certificate" for that one too).
func TestCertifyToSizeWording(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "tree", Size: 12, Messages: 16, Flits: 4, Seed: 7})
	require.NoError(t, err)
	res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: model.Wormhole})
	require.NoError(t, err)
	require.True(t, res.Optimal)
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	for src, want := range map[string]string{
		"unsat":         "makespan 25 is optimal, proven by solve's refutation of horizon 24, whose proof is not kept, and the refutation of horizon 24 is refused: ",
		"encoding":      "makespan 25 is optimal, proven by solve's formula of horizon 24, which holds the empty clause, and the refutation of horizon 24 is refused: ",
		"critical-path": "makespan 25 is optimal by the critical-path bound, which has no certificate, and the refutation of horizon 24 is refused: ",
	} {
		r := *res
		r.Stats.LowerSource = src
		err := certifyTo(context.Background(), e, t.TempDir(), in, &r, "", 1024)
		var ee *exitError
		require.ErrorAs(t, err, &ee, src)
		assert.Equal(t, 1, ee.code, src)
		assert.ErrorContains(t, err, want, src)
		if src != "critical-path" {
			assert.NotContains(t, err.Error(), "no certificate,", src)
		}
	}
	// An optimum the solver proved by its edge-set bound gets an edge-set
	// certificate when certify's own search confirms it; where it does not (on
	// instances/hard/mesh-2x2-opt-over-all-bounds no edge set refutes horizon
	// 17, its optimum 18 less one, though solve refutes it), the refusal does
	// not say the bound has no certificate.
	data, err := os.ReadFile("../../instances/hard/mesh-2x2-opt-over-all-bounds/instance.json")
	require.NoError(t, err)
	hard, err := model.ParseInstance(data)
	require.NoError(t, err)
	res, err = optimal.Solve(context.Background(), hard, optimal.Options{Model: model.Wormhole})
	require.NoError(t, err)
	require.True(t, res.Optimal)
	r := *res
	r.Stats.LowerSource = "edge-set"
	err = certifyTo(context.Background(), e, t.TempDir(), hard, &r, "", 1024)
	var ee *exitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 1, ee.code)
	assert.ErrorContains(t, err, "by solve's edge-set bound, which certify's own search of edge sets did not confirm, and the refutation of horizon")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Ctrl-C during certification stops it: certifyTo runs under the command's
// interrupt context (it used context.Background()).
func TestCertifyHonoursCancel(t *testing.T) {
	var out, errb bytes.Buffer
	dir := t.TempDir()
	inst := filepath.Join(dir, "t6.json")
	require.Equal(t, 0, run([]string{"gen", "mesh:6x6", "--traffic", "transpose", "--flits", "3", "-o", inst}, strings.NewReader(""), &out, &errb, false), errb.String())
	data, err := os.ReadFile(inst)
	require.NoError(t, err)
	in, err := model.ParseInstance(data)
	require.NoError(t, err)
	res, err := optimal.Solve(context.Background(), in, optimal.Options{})
	require.NoError(t, err)
	require.True(t, res.Optimal)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := &env{stdout: &out, stderr: &errb}
	require.Error(t, certifyTo(ctx, e, filepath.Join(dir, "cert"), in, res, "", 0))
}

// Ctrl-C while solve --certify writes its certificate (here before the proof of
// the refutation of horizon 17 on instances/hard/mesh-2x2-opt-over-all-bounds,
// which no closed-form bound or edge set certifies) is a stop, not bad input:
// exit 1 with one line saying the certificate was not written, and the folder
// left as it was (certify.WriteOptions stages it). certifyTo returned the
// prover's "context canceled", exit 2.
func TestCertifyToInterrupted(t *testing.T) {
	data, err := os.ReadFile("../../instances/hard/mesh-2x2-opt-over-all-bounds/instance.json")
	require.NoError(t, err)
	hard, err := model.ParseInstance(data)
	require.NoError(t, err)
	res, err := optimal.Solve(context.Background(), hard, optimal.Options{Model: model.Wormhole})
	require.NoError(t, err)
	require.True(t, res.Optimal)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	e := &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	dir := filepath.Join(t.TempDir(), "cert")
	err = certifyTo(cancelled, e, dir, hard, res, "", 0)
	var ee *exitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 1, ee.code)
	assert.ErrorContains(t, err, "interrupted while writing the certificate")
	_, err = os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist, "a certificate folder created")
}
