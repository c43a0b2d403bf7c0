package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// check-proof and check-certificate run under the command's context (docs/cli.md,
// Ctrl-C): stopped before the check ends they print one line on stderr saying so
// and exit 1, nothing verified, where they used context.Background() and Ctrl-C
// killed them without the convention. Here the context is a caller's (a sweep
// point's e.ctx) cancelled before the check starts; the same proof and
// certificate verify under a live one.
func TestChecksStopOnTheirContext(t *testing.T) {
	dir := t.TempDir()
	cnf, proof := filepath.Join(dir, "f.cnf"), filepath.Join(dir, "f.drat")
	// (1 2)(1 -2)(-1 2)(-1 -2): no unit, so the proof's lemma 1 is checked.
	require.NoError(t, os.WriteFile(cnf, []byte("p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n"), 0o644))
	require.NoError(t, os.WriteFile(proof, []byte("1 0\n0\n"), 0o644))

	in, err := instances.Generate(instances.Spec{Kind: "tree", Size: 12, Messages: 16, Flits: 4, Seed: 7})
	require.NoError(t, err)
	res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: model.Wormhole})
	require.NoError(t, err)
	res.Stats.LowerSource = "unsat" // a refutation certificate, with a DRAT proof to check
	cert := filepath.Join(dir, "cert")
	require.NoError(t, certifyTo(context.Background(), &env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}, cert, in, res, "", 0))

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		args []string
		stop string
	}{
		{[]string{"check-proof", cnf, proof}, "wormlab check-proof: interrupted: the proof was not checked to its end, nothing verified\n"},
		{[]string{"check-proof", "--backward", cnf, proof}, "wormlab check-proof: interrupted: the proof was not checked to its end, nothing verified\n"},
		{[]string{"check-certificate", cert}, "wormlab check-certificate: interrupted: the certificate was not checked to its end, nothing verified\n"},
	} {
		var out, errb bytes.Buffer
		code := runEnv(c.args, &env{stdout: &out, stderr: &errb, ctx: context.Background()})
		assert.Equal(t, 0, code, "%v: %s%s", c.args, out.String(), errb.String())
		assert.Contains(t, out.String(), "VERIFIED", c.args)

		out.Reset()
		errb.Reset()
		code = runEnv(c.args, &env{stdout: &out, stderr: &errb, ctx: cancelled})
		assert.Equal(t, 1, code, "%v: %s%s", c.args, out.String(), errb.String())
		assert.Equal(t, c.stop, errb.String(), c.args)
		assert.Empty(t, out.String(), c.args)
	}
}
