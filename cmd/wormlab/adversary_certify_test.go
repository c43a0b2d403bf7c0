package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// Ctrl-C stops adversary --certify's certificate (the adversary's context is
// already done after a Ctrl-C in the search): certifyBest says that no
// certificate was written, with no error, so that the best instance, its ratio
// and the report are still written (docs/cli.md, Ctrl-C), and the folder is not
// created. Here the optimum of instances/hard/mesh-2x2-opt-over-all-bounds,
// which no closed-form bound certifies, so the certificate needs a proof. The
// command returned the prover's "context canceled" (exit 2) and wrote neither
// -o nor the report. With a live context the certificate is written.
func TestAdversaryCertifyStopped(t *testing.T) {
	data, err := os.ReadFile("../../instances/hard/mesh-2x2-opt-over-all-bounds/instance.json")
	require.NoError(t, err)
	in, err := model.ParseInstance(data)
	require.NoError(t, err)
	res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: model.Wormhole})
	require.NoError(t, err)
	require.True(t, res.Optimal)
	o := &adversary.Optimum{Model: model.Wormhole, Schedule: res.Schedule, Source: res.Stats.LowerSource}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "cert")
	kind, stopped, err := certifyBest(cancelled, dir, in, o)
	require.NoError(t, err)
	assert.Empty(t, kind)
	assert.Equal(t, "interrupted while writing the certificate to "+dir+": no certificate written", stopped)
	_, err = os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist, "a certificate folder created")

	kind, stopped, err = certifyBest(context.Background(), dir, in, o)
	require.NoError(t, err)
	assert.Empty(t, stopped)
	assert.Contains(t, kind, "refutation")
}
