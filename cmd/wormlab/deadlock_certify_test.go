package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// Ctrl-C or --timeout while deadlock --certify writes its certificate (its
// check's enumeration, its proof) is a stop, as one in the decision is
// (docs/cli.md, Ctrl-C): exit 1, one line saying why, what was decided and that
// no certificate was written, the output marked interrupted; the folder is not
// created (certify.WriteDeadlock stages it). The command returned the checker's
// "context canceled", exit 2 (bad input), and printed nothing.
func TestDeadlockCertifyStopped(t *testing.T) {
	net, err := topology.Parse("mesh:3x3")
	require.NoError(t, err)
	alg, err := routing.Lookup("dor")
	require.NoError(t, err)
	r, err := alg.New(net, 1)
	require.NoError(t, err)
	res, err := deadlock.Exact(context.Background(), net, r.(deadlock.Function), 1, alg.Name, deadlock.ExactOptions{Buf: 2})
	require.NoError(t, err)
	require.Equal(t, "deadlock-free", res.Verdict)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, asJSON := range []bool{false, true} {
		var stdout bytes.Buffer
		e := &env{stdout: &stdout, stderr: &bytes.Buffer{}}
		dir := filepath.Join(t.TempDir(), "cert")
		err = writeDeadlockCertificate(cancelled, e, asJSON, net, alg.Name, 1, dir, "dor", res)
		var ee *exitError
		require.ErrorAs(t, err, &ee)
		assert.Equal(t, 1, ee.code)
		assert.ErrorContains(t, err, "interrupted while writing the certificate to "+dir+": deadlock-free decided, no certificate written")
		if asJSON {
			assert.Contains(t, stdout.String(), `"interrupted": true`)
		} else {
			assert.Contains(t, stdout.String(), "no certificate written")
		}
		_, err = os.Stat(dir)
		assert.ErrorIs(t, err, os.ErrNotExist, "a certificate folder created")
	}
}
