package sim

import (
	"runtime"
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
