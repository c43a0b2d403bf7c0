package online

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
)

// Every algorithm under every policy on every instance shipped in instances/ (and in
// testdata/) is legal, or, on a cyclic channel dependency graph, may deadlock.
func TestShippedInstances(t *testing.T) {
	files, _ := filepath.Glob("../instances/*.json")
	more, _ := filepath.Glob("testdata/*.json")
	files = append(files, more...)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		in, err := model.ParseInstance(data)
		require.NoError(t, err, f)
		for _, cfg := range configs() {
			for _, arb := range engine.Policies() {
				cfg.opt.Arb, cfg.opt.Seed = arb, 5
				r, err := Run(context.Background(), in, cfg.alg, cfg.opt)
				if err != nil {
					var d *engine.Deadlock
					require.NotNil(t, in.Dependencies().Cycle(), "%s %s/%s: %v", f, cfg.alg.Name(), arb, err)
					require.True(t, errors.As(err, &d) || (doubling(cfg.alg) && errors.Is(err, ErrDeadlock)), "%s %s/%s: %v", f, cfg.alg.Name(), arb, err)
					continue
				}
				checkLegal(t, in, r)
			}
		}
	}
}
