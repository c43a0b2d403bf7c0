package sim_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

func TestOpenSmoke(t *testing.T) {
	for _, rate := range []float64{0.1, 0.4, 0.6} {
		cfg := dorConfig(t, "torus:8x8", 4, 8, sim.BookSim(mustNet(t, "torus:8x8")))
		pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
		require.NoError(t, err)
		res, err := sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Fixed(16)}, sim.Measure{MaxCycles: 50000})
		require.NoError(t, err)
		res.Channels = nil
		b, _ := json.Marshal(res)
		t.Logf("%s", b)
	}
}
