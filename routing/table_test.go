package routing

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

func tableOf(t *testing.T, spec, name string, vcs int) (*Table, sim.Routing, topology.Network) {
	t.Helper()
	net, err := topology.Parse(spec)
	require.NoError(t, err)
	alg, err := Lookup(name)
	require.NoError(t, err)
	r, err := alg.New(net, vcs)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, net, "", r, vcs))
	tab, err := ReadTable(&b, name+".json")
	require.NoError(t, err)
	return tab, r, net
}

// walkStates enumerates every state of r from every source to every destination
// (start states, then Route, Advance and the simulator's header update) and calls
// visit on each state short of its destination.
func walkStates(t *testing.T, net topology.Network, r sim.Routing, vcs int, visit func(at int, h sim.Header)) {
	t.Helper()
	st := r.(Starter)
	seen := map[[2]any]bool{}
	var queue []struct {
		at int
		h  sim.Header
	}
	for _, s := range topology.Sources(net) {
		for _, d := range topology.Sinks(net) {
			if s == d {
				continue
			}
			for _, h := range st.Starts(sim.Header{Src: int32(s), Dst: int32(d), Port: -1, InPort: -1, VC: -1}, nil) {
				queue = append(queue, struct {
					at int
					h  sim.Header
				}{s, h})
			}
		}
	}
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[[2]any{q.at, q.h}] || q.at == int(q.h.Dst) {
			continue
		}
		seen[[2]any{q.at, q.h}] = true
		visit(q.at, q.h)
		h := q.h
		for _, c := range r.Route(q.at, &h, nil) {
			for v := range vcs {
				if c.VCs>>uint(v)&1 == 0 {
					continue
				}
				nh := q.h
				r.Advance(q.at, &nh, c.Port, v)
				next, in := net.Link(q.at, c.Port)
				nh.Hops++
				nh.Port, nh.InPort, nh.VC = int32(c.Port), int32(in), int32(v)
				queue = append(queue, struct {
					at int
					h  sim.Header
				}{next, nh})
			}
		}
	}
}

// A routing whose choices depend only on (router, destination, input, VC) written
// as a table and read back routes every reachable state as the routing does, and
// keeps its escape VCs: Duato's protocol and BookSim2's min_adapt (adaptive), and
// dimension order on a mesh.
func TestTableRoundTrip(t *testing.T) {
	for _, c := range []struct {
		spec, name string
		vcs        int
	}{{"torus:4x4", "duato", 3}, {"torus:5x5", "duato", 3}, {"mesh:4x4", "duato", 2}, {"mesh:4x3", "dor", 1}, {"fattree:16", "updown", 1}} {
		tab, r, net := tableOf(t, c.spec, c.name, c.vcs)
		require.Equal(t, c.vcs, tab.VCs())
		_, esc := r.(escaper)
		require.Equal(t, esc, tab.HasEscape(), c.name)
		states := 0
		walkStates(t, net, r, c.vcs, func(at int, h sim.Header) {
			states++
			want := r.Route(at, &h, nil)
			got := tab.Routing().Route(at, &h, nil)
			require.ElementsMatch(t, want, got, "%s %s at %d, %+v", c.name, c.spec, at, h)
			if esc {
				for _, ch := range want {
					for v := range c.vcs {
						if ch.VCs>>uint(v)&1 == 1 {
							require.Equal(t, r.(escaper).Escape(at, &h, ch.Port, v), tab.Routing().(escaper).Escape(at, &h, ch.Port, v))
						}
					}
				}
			}
		})
		require.Positive(t, states)
	}
}

// Routings whose state is more than the table's key have no table, and the writer
// says so: dimension order with datelines on a torus (the class), Valiant (the
// intermediate node).
func TestTableNeedsStatelessRouting(t *testing.T) {
	for _, name := range []string{"dor", "valiant"} {
		net, _ := topology.Parse("torus:4x4")
		alg, _ := Lookup(name)
		r, err := alg.New(net, 4)
		require.NoError(t, err)
		err = WriteTable(&bytes.Buffer{}, net, "", r, 4)
		require.ErrorContains(t, err, "depend on more than", name)
	}
}

// The same table drives the simulator: a batch routed by dimension order on a mesh
// and by its table gives the same delivery times.
func TestTableDrivesSimulator(t *testing.T) {
	tab, r, net := tableOf(t, "mesh:4x4", "dor", 2)
	var packets []sim.Packet
	for s := range 16 {
		packets = append(packets, sim.Packet{Src: s, Dst: (s*7 + 3) % 16, Flits: 5})
	}
	packets[5].Dst = 0
	run := func(rt sim.Routing) *sim.BatchResult {
		// a broken simulator fails here after two minutes of CPU time instead of hanging the suite
		res, err := sim.RunBatch(testctx.For(t), sim.Config{Net: net, Routing: rt, VCs: 2, Buf: 2, Pipeline: sim.Ideal(), Seed: 3}, packets, sim.BatchOptions{})
		require.NoError(t, err)
		return res
	}
	require.Equal(t, run(r).Delivered, run(tab.Routing()).Delivered)
}

// An example table written by hand: a 4-node ring routed the + way, with a
// dateline (VC 1 after the link 3 -> 0), in the format of docs/routing-table.md.
const ringTable = `{
 "format": "wormlab-routing-table/1",
 "topology": "torus:4",
 "vcs": 2,
 "routes": [
  {"at": "0", "dst": ["1", "2", "3"], "in": "inject", "choices": [{"port": "+x", "vcs": [0]}]},
  {"at": "1", "dst": ["2", "3", "0"], "in": "inject", "choices": [{"port": "+x", "vcs": [0]}]},
  {"at": "2", "dst": ["3", "0", "1"], "in": "inject", "choices": [{"port": "+x", "vcs": [0]}]},
  {"at": "3", "dst": ["0", "1", "2"], "in": "inject", "choices": [{"to": "0", "vcs": [0]}]},
  {"at": "0", "dst": ["1", "2", "3"], "in": "-x", "choices": [{"port": "+x", "vcs": [1]}]},
  {"at": "1", "dst": ["2", "3"], "from": "0", "vc": 0, "choices": [{"port": "+x", "vcs": [0]}]},
  {"at": "1", "dst": ["2", "3"], "from": "0", "vc": 1, "choices": [{"port": "+x", "vcs": [1]}]},
  {"at": "2", "dst": ["3", "0", "1"], "from": "1", "choices": [{"port": "+x", "vcs": [0]}]},
  {"at": "2", "dst": ["3"], "from": "1", "vc": 1, "choices": [{"port": "+x", "vcs": [1]}]},
  {"at": "3", "dst": ["0", "1", "2"], "from": "2", "choices": [{"port": "+x", "vcs": [0]}]},
  {"at": "3", "dst": ["0", "1", "2"], "from": "2", "vc": 1, "choices": [{"port": "+x", "vcs": [1]}]}
 ]
}`

func TestTableByHand(t *testing.T) {
	tab, err := ReadTable(strings.NewReader(ringTable), "ring.json")
	require.NoError(t, err)
	require.Equal(t, "torus:4", tab.Spec())
	h := sim.Header{Src: 3, Dst: 2, Port: 0, InPort: 1, VC: 0, Hops: 1}
	// at 0 arriving from 3 (input -x): VC 1, whatever the input VC
	require.Equal(t, []sim.Choice{{Port: 0, VCs: 2}}, tab.Route(0, &h, nil))
	require.Equal(t, "routes[4]", tab.Where(0, &h))
	h = sim.Header{Src: 0, Dst: 3, Port: 0, InPort: 1, VC: 1, Hops: 2}
	require.Equal(t, []sim.Choice{{Port: 0, VCs: 2}}, tab.Route(2, &h, nil), "the input VC's entry overrides the input's")
	require.Equal(t, "routes[8]", tab.Where(2, &h))
	h.VC = 0
	require.Equal(t, "routes[7]", tab.Where(2, &h))
}

// Bad tables: each error names the entry or the state at fault.
func TestTableErrors(t *testing.T) {
	edit := func(old, new string) string {
		require.Contains(t, ringTable, old)
		return strings.Replace(ringTable, old, new, 1)
	}
	cases := []struct{ table, want string }{
		{`{"format": `, "invalid JSON"},
		{`[1, 2]`, "not a routing table"},
		{edit(`"format": "wormlab-routing-table/1"`, `"format": "x"`), `format: "x"`},
		{edit(`"vcs": 2`, `"vcs": 0`), "vcs: 0 outside 1..64"},
		{edit(`"topology": "torus:4"`, `"topology": "torus:1"`), "topology: "},
		{edit(`"topology": "torus:4",`, ``), `no "topology" and no "network"`},
		{edit(`{"port": "+x", "vcs": [1]}]},
  {"at": "1", "dst": ["2", "3"], "from": "0", "vc": 0`, `{"port": "+y", "vcs": [1]}]},
  {"at": "1", "dst": ["2", "3"], "from": "0", "vc": 0`), `routes[4].choices[0]: port: no port named "+y"`},
		{edit(`"in": "-x", "choices": [{"port": "+x", "vcs": [1]}]`, `"in": "-x", "choices": [{"port": "+x", "vcs": [2]}]`), "routes[4].choices[0]: vcs: VC 2 outside 0..1"},
		{edit(`"in": "-x", "choices": [{"port": "+x", "vcs": [1]}]`, `"in": "-x", "choices": [{"port": 7, "vcs": [1]}]`), "routes[4].choices[0]: port: 0 has no output port 7"},
		{edit(`{"at": "1", "dst": ["2", "3"], "from": "0", "vc": 1`, `{"at": "1", "dst": ["2", "3"], "from": "0", "vc": 5`), "routes[6].vc: 5 outside 0..1"},
		{edit(`{"at": "1", "dst": ["2", "3"], "from": "0", "vc": 1`, `{"at": "1", "dst": ["2", "9"], "from": "0", "vc": 1`), `routes[6].dst: no router named "9"`},
		{edit(`{"at": "1", "dst": ["2", "3"], "from": "0", "vc": 1`, `{"at": "1", "dst": ["2", "3"], "from": "3", "vc": 1`), "routes[6].from: 3 has no link to 1"},
		{edit(`{"at": "1", "dst": ["2", "3"], "from": "0", "vc": 1, "choices": [{"port": "+x", "vcs": [1]}]},`, ``), "no entry for a packet for 2 at 1 arriving by input -x on VC 1"},
		{edit(`{"at": "2", "dst": ["3"], "from": "1", "vc": 1,`, `{"at": "2", "dst": ["3"], "from": "1",`), "routes[8]: decides the state of a packet for 3 at 2 arriving by input -x on VC 0 already decided by routes[7]"},
		{`{"format": "wormlab-routing-table/1", "topology": "torus:4", "vcs": 1, "routes": [
		  {"at": "0", "dst": ["1", "2", "3"], "choices": [{"port": "+x"}]},
		  {"at": "1", "dst": ["2", "0"], "choices": [{"port": "+x"}]},
		  {"at": "1", "dst": "3", "choices": [{"port": "-x"}]},
		  {"at": "2", "dst": ["3", "0", "1"], "choices": [{"port": "+x"}]},
		  {"at": "3", "dst": ["0", "1", "2"], "choices": [{"port": "+x"}]}]}`, "routes a packet for 3 in a loop through 0 -> 1 -> 0"},
		{edit(`"choices": [{"to": "0", "vcs": [0]}]`, `"choices": []`), "routes[3].choices: no choice"},
		{edit(`{"to": "0", "vcs": [0]}`, `{"to": "0", "port": "+x"}`), `routes[3].choices[0]: give exactly one of "port", "to" and "edge"`},
		{edit(`"vcs": 2,`, `"vcs": 2, "extra": 1,`), `unknown field "extra"`},
	}
	for _, c := range cases {
		_, err := ReadTable(strings.NewReader(c.table), "ring.json")
		require.Error(t, err, c.want)
		var te *TableError
		require.True(t, errors.As(err, &te), "%v", err)
		require.Contains(t, err.Error(), c.want)
		require.True(t, strings.HasPrefix(err.Error(), "routing table ring.json: "), err.Error())
	}
	// A mesh's edge: a port with no link is routing off the network.
	mesh := `{"format": "wormlab-routing-table/1", "topology": "mesh:2", "vcs": 1, "routes": [
	 {"at": "0", "dst": "1", "choices": [{"port": "-x"}]},
	 {"at": "1", "dst": "0", "choices": [{"port": "-x"}]}]}`
	_, err := ReadTable(strings.NewReader(mesh), "m.json")
	require.ErrorContains(t, err, "routes[0].choices[0]: port -x of 0 has no link: the packet would leave the network")
}

// A table on an inline MODEL.md network: a triangle routed clockwise, edges named
// by index and by neighbour.
func TestTableOnModelNetwork(t *testing.T) {
	src := `{"format": "wormlab-routing-table/1", "vcs": 1,
	 "network": {"edges": [["a","b"],["b","c"],["c","a"]]},
	 "routes": [
	  {"at": "a", "dst": ["b", "c"], "choices": [{"edge": 0}]},
	  {"at": "b", "dst": ["c", "a"], "choices": [{"to": "c"}]},
	  {"at": "c", "dst": ["a", "b"], "choices": [{"port": 0}]}]}`
	tab, err := ReadTable(strings.NewReader(src), "tri.json")
	require.NoError(t, err)
	require.Equal(t, "network", tab.Spec())
	require.Equal(t, 3, tab.Net().Nodes())
	_, err = ReadTable(strings.NewReader(strings.Replace(src, `{"edge": 0}`, `{"edge": 1}`, 1)), "tri.json")
	require.ErrorContains(t, err, "routes[0].choices[0]: edge: edge 1 does not leave a")
}

func TestLoadTable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ring.json")
	require.NoError(t, os.WriteFile(p, []byte(ringTable), 0o644))
	_, err := LoadTable(p)
	require.NoError(t, err)
	_, err = LoadTable(filepath.Join(dir, "none.json"))
	require.ErrorContains(t, err, "routing table "+filepath.Join(dir, "none.json"))
}
