package deadlock

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// bruteForce decides the configurations of config.go on g by enumeration,
// sharing nothing with the fixpoint or the formula: every set S of VCs, every
// choice of a holder per VC of S, every way for each holder to be a head or to
// continue into a holder of S (each holder entered at most once), and, non-atomic,
// every choice of commitments. It returns whether a configuration exists and the
// fewest worms one has. Exponential: for graphs of a dozen VCs.
func bruteForce(g *Graph, atomic bool) (bool, int) {
	var vcs []int32
	for c := range g.Channels {
		if len(g.Holders(int32(c))) > 0 {
			vcs = append(vcs, int32(c))
		}
	}
	if len(vcs) > 16 {
		panic("bruteForce: too many VCs")
	}
	best := -1
	for mask := 1; mask < 1<<len(vcs); mask++ {
		in := map[int32]bool{}
		var S []int32
		for i, c := range vcs {
			if mask>>i&1 == 1 {
				in[c] = true
				S = append(S, c)
			}
		}
		node := map[int32]int32{} // VC -> holder
		var assign func(i int)
		assign = func(i int) {
			if i == len(S) {
				if k := roles(g, S, node, atomic); k > 0 && (best < 0 || k < best) {
					best = k
				}
				return
			}
			for _, n := range g.Holders(S[i]) {
				if !viable(g, n, in, atomic) {
					continue
				}
				node[S[i]] = n
				assign(i + 1)
			}
			delete(node, S[i])
		}
		assign(0)
	}
	return best > 0, best
}

// viable: holder n could be a head (atomic: all its requests in S; non-atomic:
// one) or continue into S.
func viable(g *Graph, n int32, in map[int32]bool, atomic bool) bool {
	for _, s := range g.Succ(n) {
		if in[g.Held(s)] {
			return true
		}
	}
	all, some := true, false
	for _, r := range g.Choices(n) {
		all = all && in[r]
		some = some || in[r]
	}
	return (atomic && all) || (!atomic && some)
}

// roles returns the fewest heads over the ways the holders node[c], c in S, can be
// heads or continue, making a dead configuration occupying exactly S (0: none).
func roles(g *Graph, S []int32, node map[int32]int32, atomic bool) int {
	best := 0
	in := map[int32]bool{}
	for _, c := range S {
		in[c] = true
	}
	next := make([]int32, len(S)) // -1 head, else index into S of the successor
	entered := make([]bool, len(S))
	var try func(i, heads int)
	try = func(i, heads int) {
		if best > 0 && heads >= best {
			return
		}
		if i == len(S) {
			if k := deadCheck(g, S, node, next, atomic); k > 0 && (best == 0 || k < best) {
				best = k
			}
			return
		}
		n := node[S[i]]
		for j, c := range S {
			if entered[j] {
				continue
			}
			for _, s := range g.Succ(n) {
				if s == node[c] {
					next[i], entered[j] = int32(j), true
					try(i+1, heads)
					entered[j] = false
				}
			}
		}
		if viableHead(g, n, in, atomic) {
			next[i] = -1
			try(i+1, heads+1)
		}
	}
	try(0, 0)
	return best
}

func viableHead(g *Graph, n int32, in map[int32]bool, atomic bool) bool {
	all, some := true, false
	for _, r := range g.Choices(n) {
		all = all && in[r]
		some = some || in[r]
	}
	return (atomic && all) || (!atomic && some)
}

func deadCheck(g *Graph, S []int32, node map[int32]int32, next []int32, atomic bool) int {
	entered := make([]bool, len(S))
	for _, j := range next {
		if j >= 0 {
			if entered[j] {
				return 0
			}
			entered[j] = true
		}
	}
	occupied := map[int32]bool{}
	tail := map[int32]bool{}
	owned := map[int32]bool{}
	for i, c := range S {
		occupied[c] = true
		if !entered[i] {
			tail[c] = true
		} else {
			owned[c] = true
		}
	}
	var heads []int32
	for i, c := range S {
		if next[i] < 0 {
			heads = append(heads, node[c])
		}
	}
	if atomic {
		for _, h := range heads {
			for _, r := range g.Choices(h) {
				if !occupied[r] {
					return 0
				}
			}
		}
		return len(heads)
	}
	// every assignment of commitments (to tail VCs the head may request, at most
	// one head each) or none
	var ok func(i int, owned map[int32]bool, used map[int32]bool) bool
	ok = func(i int, own map[int32]bool, used map[int32]bool) bool {
		if i == len(heads) {
			// heads without commitment need every request owned
			for k, h := range heads {
				if used[-1-int32(k)] {
					continue
				}
				for _, r := range g.Choices(h) {
					if !own[r] {
						return false
					}
				}
			}
			return true
		}
		if ok(i+1, own, used) {
			return true
		}
		for _, r := range g.Choices(heads[i]) {
			if tail[r] && !used[r] {
				used[r], used[-1-int32(i)] = true, true
				o2 := map[int32]bool{r: true}
				for k, v := range own {
					o2[k] = v
				}
				if ok(i+1, o2, used) {
					return true
				}
				delete(used, r)
				delete(used, -1-int32(i))
			}
		}
		return false
	}
	if ok(0, owned, map[int32]bool{}) {
		return len(heads)
	}
	return 0
}

// randomTable draws a routing table on a small network: at every state, a
// non-empty set of the ports that start a shortest route and a non-empty set of
// VCs on each, chosen per input and input VC (so the routing may be incoherent).
func randomTable(t *rapid.T) *routing.Table {
	// at most 10 VCs, for bruteForce
	spec := rapid.SampledFrom([]string{"torus:3", "torus:4", "mesh:3", "mesh:4", "ring4", "ring5"}).Draw(t, "net")
	vcs := 1
	if spec == "ring4" || spec == "mesh:3" || spec == "mesh:4" {
		vcs = rapid.IntRange(1, 2).Draw(t, "vcs")
	}
	var head string
	var net topology.Network
	switch spec {
	case "ring4", "ring5":
		k := 4
		if spec == "ring5" {
			k = 5
		}
		var edges []string
		for i := range k {
			edges = append(edges, fmt.Sprintf(`["%d","%d"]`, i, (i+1)%k))
		}
		head = `"network": {"edges": [` + strings.Join(edges, ",") + `]}`
		net = ringNet(k) // the same network, to compute distances on
	default:
		head = `"topology": "` + spec + `"`
		net, _ = topology.Parse(spec)
	}
	n := net.Nodes()
	// hop distances to every destination
	dist := make([][]int, n)
	for d := range n {
		dist[d] = make([]int, n)
		for i := range dist[d] {
			dist[d][i] = -1
		}
		dist[d][d] = 0
		for changed := true; changed; {
			changed = false
			for v := range n {
				for p := range net.Ports(v) {
					w, _ := net.Link(v, p)
					if w >= 0 && dist[d][w] >= 0 && (dist[d][v] < 0 || dist[d][w]+1 < dist[d][v]) {
						dist[d][v] = dist[d][w] + 1
						changed = true
					}
				}
			}
		}
	}
	var routes []string
	for at := range n {
		for d := range n {
			if d == at {
				continue
			}
			var ports []int
			for p := range net.Ports(at) {
				if w, _ := net.Link(at, p); w >= 0 && dist[d][w] == dist[d][at]-1 {
					ports = append(ports, p)
				}
			}
			type input struct {
				in string
				vc int
			}
			ins := []input{{`"in":"inject"`, -1}}
			for ip := range net.InPorts(at) {
				for v := range vcs {
					ins = append(ins, input{fmt.Sprintf(`"in":%d`, ip), v})
				}
			}
			for _, in := range ins {
				var cs []string
				pm := rapid.IntRange(1, 1<<len(ports)-1).Draw(t, "ports")
				for i, p := range ports {
					if pm>>i&1 == 0 {
						continue
					}
					vm := rapid.IntRange(1, 1<<vcs-1).Draw(t, "vcs")
					var l []int
					for v := range vcs {
						if vm>>v&1 == 1 {
							l = append(l, v)
						}
					}
					b, _ := json.Marshal(l)
					cs = append(cs, fmt.Sprintf(`{"port":%d,"vcs":%s}`, p, b))
				}
				vc := ""
				if in.vc >= 0 {
					vc = fmt.Sprintf(`,"vc":%d`, in.vc)
				}
				routes = append(routes, fmt.Sprintf(`{"at":%d,"dst":%d,%s%s,"choices":[%s]}`, at, d, in.in, vc, strings.Join(cs, ",")))
			}
		}
	}
	src := `{"format":"wormlab-routing-table/1",` + head + fmt.Sprintf(`,"vcs":%d,"routes":[`, vcs) + strings.Join(routes, ",\n") + `]}`
	tab, err := routing.ReadTable(strings.NewReader(src), "random")
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return tab
}

func ringNet(k int) topology.Network {
	var edges []string
	for i := range k {
		edges = append(edges, fmt.Sprintf(`["%d","%d"]`, i, (i+1)%k))
	}
	var routes []string
	for at := range k {
		var ds []string
		for d := range k {
			if d != at {
				ds = append(ds, fmt.Sprintf(`"%d"`, d))
			}
		}
		routes = append(routes, fmt.Sprintf(`{"at":"%d","dst":[%s],"choices":[{"port":0}]}`, at, strings.Join(ds, ",")))
	}
	tab, err := routing.ReadTable(strings.NewReader(`{"format":"wormlab-routing-table/1","network":{"edges":[`+strings.Join(edges, ",")+`]},"vcs":1,"routes":[`+strings.Join(routes, ",")+`]}`), "ring")
	if err != nil {
		panic(err)
	}
	return tab.Net()
}

func graphOf(t require.TestingT, net topology.Network, f Function, vcs int) *Graph {
	g, err := Build(context.Background(), net, f, vcs, "test", 0)
	require.NoError(t, err)
	return g
}

// The decision is exact: on random routing tables (shortest-path choices drawn per
// input and input VC, so coherent or not) over small rings, lines and directed
// rings, with one or two VCs, Decide says "deadlock-free" exactly when exhaustive
// enumeration of configurations finds none, under both reallocation rules, and
// its minimal configuration has the fewest worms enumeration finds.
func TestDecideAgreesWithEnumeration(t *testing.T) {
	var free, dead [2]int
	rapid.Check(t, func(t *rapid.T) {
		tab := randomTable(t)
		g := graphOf(t, tab.Net(), tab, tab.VCs())
		for _, atomic := range []bool{true, false} {
			exists, fewest := bruteForce(g, atomic)
			v, err := Decide(context.Background(), g, Options{Atomic: atomic, Minimal: true})
			require.NoError(t, err)
			require.Equal(t, !exists, v.Free, "atomic %v: enumeration says exists=%v", atomic, exists)
			k := 0
			if atomic {
				k = 1
			}
			if v.Free {
				free[k]++
			} else {
				dead[k]++
			}
			if exists {
				require.NoError(t, v.Config.Validate())
				require.Equal(t, fewest, len(v.Config.Worms), "atomic %v: fewest worms\n%s", atomic, v.Config)
				require.True(t, v.MinimalProved)
			}
		}
	})
	// both answers under both rules, or the property was not exercised
	t.Logf("non-atomic: %d free, %d deadlock; atomic: %d free, %d deadlock", free[0], dead[0], free[1], dead[1])
	for k := range 2 {
		require.Positive(t, free[k])
		require.Positive(t, dead[k])
	}
}
