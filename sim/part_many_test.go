package sim_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

// A run on more than 256 partitions (Config.Threads, or one per core on a
// machine of that many) counts each router's source in its own partition:
// the partitions' counts of sources holding a packet (part.nSrc) each reach
// 0 once the sources are empty, and the batch ends (engine.idle). A router of
// partition 256 or beyond once counted its source in partition 256 less,
// which then never read idle: the batch's last run, to the credits' return,
// went on forever.
func TestBatchManyPartitions(t *testing.T) {
	net := mustNet(t, "torus:130x130") // 16,900 routers: 265 words
	rt := mustRouting(t, net, "dor-booksim", 2)
	last := net.Nodes() - 1 // in partition 264
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := sim.RunBatch(ctx, sim.Config{Net: net, Routing: rt, VCs: 2, Buf: 4, Pipeline: sim.BookSim(net), Threads: 300},
		[]sim.Packet{{Src: last, Dst: last - 1, Flits: 4}, {Src: 3, Dst: 4, Flits: 4}},
		sim.BatchOptions{MaxCycles: 10000})
	require.NoError(t, err)
	require.Less(t, res.Cycles, int64(100), "the batch ran %d cycles", res.Cycles)
}
