package sim

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/topology"
)

// engineAlloc is the bytes newEngine allocates for cfg: the least of three
// builds, as the runtime's own allocations may fall into a measurement.
func engineAlloc(t *testing.T, cfg Config) int64 {
	least := int64(-1)
	for range 3 {
		var a, b runtime.MemStats
		c := cfg
		runtime.GC()
		runtime.ReadMemStats(&a)
		e, err := newEngine(&c)
		runtime.ReadMemStats(&b)
		require.NoError(t, err)
		runtime.KeepAlive(e)
		if got := int64(b.TotalAlloc - a.TotalAlloc); least < 0 || got < least {
			least = got
		}
	}
	return least
}

// EngineBytes counts the memory a VC selection or a switch input stage adds:
// for every registered rule, what newEngine allocates beyond wormlab's defaults
// (first free VC, the inline input stage) is what EngineBytes adds, up to the
// rounding to the allocator's size classes (an eighth at most). A rule that
// keeps a per-VC or per-port array EngineBytes does not count fails here (on
// this mesh, 1,280 input ports of 4 VCs: 20,480 bytes an int32 per VC, 5,120
// an int32 per port).
func TestEngineBytesCountsRules(t *testing.T) {
	net, err := topology.Parse("mesh:16x16")
	require.NoError(t, err)
	base := Config{Net: net, Routing: xyRouting{net.(*topology.Grid)}, VCs: 4, Buf: 4, Pipeline: BookSim(net),
		Select: FirstFree{}, Arbiter: RoundRobin{}, SwitchInput: ByVC{}, Seed: 1}
	check := func(name string, cfg Config) {
		t.Helper()
		got := engineAlloc(t, cfg) - engineAlloc(t, base)
		est := EngineBytes(&cfg) - EngineBytes(&base)
		t.Logf("%s: allocated %d bytes more than the defaults, EngineBytes counts %d more", name, got, est)
		// Go rounds an allocation up to its size class, by at most an eighth
		assert.InDelta(t, float64(got), float64(est), float64(max(64, est/8)), "%s: allocated beyond the defaults against EngineBytes' count", name)
	}
	for _, name := range SelectorNames() {
		cfg := base
		cfg.Select, err = LookupSelector(name)
		require.NoError(t, err)
		check("--select "+name, cfg)
	}
	for _, name := range SwitchInputNames() {
		cfg := base
		cfg.SwitchInput, err = LookupSwitchInput(name)
		require.NoError(t, err)
		check("--switch-input "+name, cfg)
	}
	cfg := base
	cfg.Select, cfg.SwitchInput = RotateFree{}, ByOutput{}
	check("BookSim2's rules", cfg)
}

// noRouting builds an engine on any network; its runs are never stepped.
type noRouting struct{}

func (noRouting) Start(*Header, *rand.Rand)                     {}
func (noRouting) Advance(int, *Header, int, int)                {}
func (noRouting) Route(_ int, _ *Header, out []Choice) []Choice { return out }

// EngineBytes counts the event wheels newEngine allocates: every partition keeps
// five wheels over all the words, a bucket per slot, word and delay class
// (0289ea1), so the buckets grow with threads times words. For tori and a
// dragonfly (two link delays, two credit delays) on one thread and on as many
// as the words allow, the buckets EngineBytes counts (wheelShape) are at least
// the slice headers the partitions' wheels hold, and EngineBytes at least what
// newEngine allocates. The count before (5 buckets a slot, 88 bytes each) made
// EngineBytes 4,026,272 on the 32x32 torus on 16 threads, which allocates
// 4,060,816 (its wheels 10,240 buckets), and 3,111,712 on the dragonfly on 5,
// which allocates 3,467,768. A network of 1,024 isolated routers (no link, a
// terminal each) too, where three things were missed: wheelShape took a block's
// span to be one cycle where no link bounds it, the engine maxSpan (blockSpan), so
// its wheels have 32 slots, not 4 (2,560 buckets against 320 counted, 52 bytes a
// router); the sources' array grew by appending (its spare capacity and the arrays
// outgrown, 71 bytes a router); and each partition's own record and its view of
// the engine (a copy of its fields) were not counted. EngineBytes was 644,912
// where newEngine allocated 737,960 on one thread.
func TestEngineBytesCountsWheels(t *testing.T) {
	var names, terms []string
	for i := range 1024 {
		names = append(names, fmt.Sprintf(`"r%d"`, i))
		terms = append(terms, fmt.Sprintf(`"r%d": 1`, i))
	}
	isolated := filepath.Join(t.TempDir(), "isolated.json")
	require.NoError(t, os.WriteFile(isolated, []byte(`{"nodes": [`+strings.Join(names, ", ")+`], "edges": [], "terminals": {`+strings.Join(terms, ", ")+`}}`), 0o644))
	for _, spec := range []string{"torus:16x16", "torus:32x32", "dragonfly:p=4", "file:" + isolated} {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		var rt Routing = noRouting{}
		if g, ok := net.(*topology.Grid); ok {
			rt = xyRouting{g}
		}
		words := (net.Nodes() + 63) / 64
		for _, threads := range []int{1, words} {
			cfg := Config{Net: net, Routing: rt, VCs: 4, Buf: 8, Pipeline: BookSim(net), Seed: 1, Threads: threads}
			c := cfg
			e, err := newEngine(&c)
			require.NoError(t, err)
			held := int64(0)
			for _, p := range e.parts {
				held += int64(len(p.links.slots) + len(p.credits.slots) + len(p.injects.slots) + len(p.delivers.slots) + len(p.srcCreds.slots))
			}
			parts, _, buckets, _ := wheelShape(&cfg)
			t.Logf("%s on %d threads: %d partitions' wheels hold %d buckets, wheelShape counts %d x %d", spec, threads, len(e.parts), held, parts, buckets)
			require.Equal(t, int64(len(e.parts)), parts, "%s on %d threads: partitions", spec, threads)
			require.GreaterOrEqual(t, parts*buckets, held, "%s on %d threads: buckets counted below those allocated", spec, threads)
			est, got := EngineBytes(&cfg), engineAlloc(t, cfg)
			t.Logf("%s on %d threads: EngineBytes %d, newEngine allocated %d", spec, threads, est, got)
			require.GreaterOrEqual(t, est, got, "%s on %d threads: EngineBytes below the allocation", spec, threads)
		}
	}
}
