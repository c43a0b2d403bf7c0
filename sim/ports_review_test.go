package sim_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/verify"
)

// star is a theory-model instance on a star of k leaves, both ways: a worm from the
// centre to each leaf, and one from each leaf through the centre to the next leaf.
// Its channel dependencies have no cycle, so it cannot deadlock.
func star(t *testing.T, k int) *model.Instance {
	t.Helper()
	nodes := []string{`"c"`}
	var edges, msgs []string
	for i := range k {
		nodes = append(nodes, fmt.Sprintf(`"l%d"`, i))
		edges = append(edges, fmt.Sprintf(`["c","l%d"]`, i), fmt.Sprintf(`["l%d","c"]`, i))
		msgs = append(msgs, fmt.Sprintf(`{"id":"m%d","path":["c","l%d"]}`, i, i),
			fmt.Sprintf(`{"id":"x%d","path":["l%d","c","l%d"]}`, i, i, (i+1)%k))
	}
	js := fmt.Sprintf(`{"name":"star","network":{"nodes":[%s],"edges":[%s]},"flits":2,"messages":[%s]}`,
		strings.Join(nodes, ","), strings.Join(edges, ","), strings.Join(msgs, ","))
	in, err := model.ParseInstance([]byte(js))
	require.NoError(t, err)
	return in
}

// A router's input ports are bits of 64-bit masks (the engine's portBusy, vcSet),
// and Config.check refuses a node of more than 63 input ports. With InjectPerPort
// (the theory model) a node has an injection port per output port, so the centre
// of a star of 33 leaves has 33 + 33 input ports: refused, naming the network,
// instead of run with the ports past 63 never (or wrongly) marked busy, which
// reported a deadlock on this deadlock-free instance. A star of 31 leaves (62
// input ports) runs, and its schedule is legal.
func TestInjectPerPortCountsPorts(t *testing.T) {
	in := star(t, 31)
	s, _, err := sim.Theory(testCtx(t), in, sim.FixedOrder{}, 1)
	require.NoError(t, err)
	require.NoError(t, verify.Schedule(in, s))

	_, _, err = sim.Theory(testCtx(t), star(t, 33), sim.FixedOrder{}, 1)
	var ce *sim.ConfigError
	require.True(t, errors.As(err, &ce), "want a ConfigError, got %v", err)
	require.Equal(t, "net", ce.Field)
	require.Contains(t, ce.Error(), "63")
}
