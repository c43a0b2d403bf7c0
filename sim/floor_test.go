package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/topology"
)

// NetworkFloor, made from a spec's size before the network is built, is a floor
// on EngineBytes, the estimate made of the built network, for every kind whose
// size follows from its spec, VCs from 1 to 16 and buffers from 1 to 64 flits, with
// one injection port a router and one an output port; and, with one a router
// (the default), it is close enough to refuse what will not fit: at least a third
// of EngineBytes on every kind (what it leaves out is the extra injection queues
// of concentrated routers and the event wheels of long links), at least 95% on the
// tori and meshes.
func TestNetworkFloorBelowEngineBytes(t *testing.T) {
	for _, spec := range []string{"torus:8x8", "mesh:4x6", "torus:4x4x4", "cmesh:4x4,c=4", "fattree:64",
		"dragonfly:p=2", "dragonfly:a=4,p=3,h=2,g=5", "fly:k=2,n=4", "hyperx:3x4,k=2x1,t=2", "flatfly:k=4,n=3"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err, spec)
		sz, ok := topology.SizeOf(spec)
		require.True(t, ok, spec)
		for _, vcs := range []int{1, 2, 3, 8, 16} {
			for _, buf := range []int{1, 4, 8, 20, 64} {
				for _, perPort := range []bool{false, true} {
					cfg := &Config{Net: net, VCs: vcs, Buf: buf, InjectPerPort: perPort}
					floor, est := NetworkFloor(sz, vcs, buf), EngineBytes(cfg)
					require.Positive(t, floor, spec)
					require.LessOrEqual(t, floor, est, "%s, %d VCs of %d flits, per port %v", spec, vcs, buf, perPort)
					if perPort {
						continue
					}
					require.GreaterOrEqual(t, 3*floor, est, "%s, %d VCs of %d flits", spec, vcs, buf)
					if strings.HasPrefix(spec, "torus") || strings.HasPrefix(spec, "mesh") {
						require.GreaterOrEqual(t, float64(floor), 0.95*float64(est), "%s, %d VCs of %d flits", spec, vcs, buf)
					}
				}
			}
		}
	}
}

// Lemma (the floor refuses no run that fits): for every network of a kind whose
// size follows from its spec, NetworkFloor of SizeOf(spec) is at most EngineBytes
// of the built network under any router configuration: VCs from 1 to 20, buffers
// from 1 to 70 flits, one injection port a router or one an output port, either
// pipeline, any arbitration (a floor above the estimate would refuse, unbuilt, a
// run the estimate after building lets through).
func TestNetworkFloorBelowEngineBytesRandom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sides := func(most int) string {
			s := make([]string, rapid.IntRange(1, 3).Draw(t, "dims"))
			for i := range s {
				s[i] = fmt.Sprint(rapid.IntRange(2, most).Draw(t, "side"))
			}
			return strings.Join(s, "x")
		}
		spec := rapid.SampledFrom([]string{
			"torus:" + sides(9), "mesh:" + sides(9),
			fmt.Sprintf("cmesh:%s,c=%d", sides(6), rapid.IntRange(1, 6).Draw(t, "c")),
			fmt.Sprintf("fattree:%d", rapid.SampledFrom([]int{4, 16, 64, 256}).Draw(t, "n")),
			fmt.Sprintf("dragonfly:p=%d", rapid.IntRange(1, 4).Draw(t, "p")),
			fmt.Sprintf("dragonfly:a=%d,p=%d,h=%d,g=%d", rapid.IntRange(1, 6).Draw(t, "a"), rapid.IntRange(1, 4).Draw(t, "p"),
				rapid.IntRange(1, 3).Draw(t, "h"), rapid.IntRange(2, 10).Draw(t, "g")),
			fmt.Sprintf("fly:k=%d,n=%d", rapid.IntRange(2, 4).Draw(t, "k"), rapid.IntRange(1, 4).Draw(t, "n")),
			fmt.Sprintf("hyperx:%s,k=%d,t=%d", sides(5), rapid.IntRange(1, 3).Draw(t, "k"), rapid.IntRange(1, 4).Draw(t, "t")),
			fmt.Sprintf("flatfly:k=%d,n=%d,c=%d", rapid.IntRange(2, 5).Draw(t, "k"), rapid.IntRange(2, 3).Draw(t, "n"), rapid.IntRange(1, 5).Draw(t, "c")),
		}).Draw(t, "spec")
		net, err := topology.Parse(spec)
		if err != nil {
			t.Skip(spec, err)
		}
		sz, ok := topology.SizeOf(spec)
		if !ok {
			t.Fatalf("%s: built, but SizeOf has no size", spec)
		}
		pipe, err := LookupPipeline(rapid.SampledFrom(PipelineNames()).Draw(t, "pipeline"), net)
		if err != nil {
			t.Fatal(err)
		}
		arb, err := LookupArbitration(rapid.SampledFrom(ArbitrationNames()).Draw(t, "arbitration"))
		if err != nil {
			t.Fatal(err)
		}
		vcs, buf := rapid.IntRange(1, 20).Draw(t, "vcs"), rapid.IntRange(1, 70).Draw(t, "buf")
		cfg := &Config{Net: net, VCs: vcs, Buf: buf, Pipeline: pipe, Arbiter: arb, InjectPerPort: rapid.Bool().Draw(t, "per port")}
		if floor, est := NetworkFloor(sz, vcs, buf), EngineBytes(cfg); floor <= 0 || floor > est {
			t.Fatalf("%s, %d VCs of %d flits, per port %v: floor %d, estimate %d", spec, vcs, buf, cfg.InjectPerPort, floor, est)
		}
	})
}
