package deadlock

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// plain hides a routing's Canon: Build then merges states only by bisimilarity.
type plain struct {
	sim.Routing
	st interface {
		Starts(sim.Header, []sim.Header) []sim.Header
	}
}

func (p plain) Starts(h sim.Header, out []sim.Header) []sim.Header { return p.st.Starts(h, out) }

// signature of a graph that does not depend on how its nodes are numbered: the
// counts of nodes, successors and requests, and per VC the sorted list of its
// holders' (successors, requests) counts.
func shape(g *Graph) []int {
	out := []int{g.Nodes(), len(g.succ), len(g.ch)}
	for c := range g.Channels {
		var hs []int
		for _, n := range g.Holders(int32(c)) {
			hs = append(hs, len(g.Succ(n))*1000+len(g.Choices(n)))
		}
		slices.Sort(hs)
		out = append(out, len(hs))
		out = append(out, hs...)
	}
	return out
}

// Canon is only an acceleration: for every routing that declares the header
// fields it never reads (routing/canon.go), the quotient graph built with Canon has
// the shape of the one built from full headers (the same nodes, successors and
// requests per VC), and the fixpoint keeps the same VCs under both rules, on two
// networks each, at the routing's VC count and one fewer.
func TestCanonical(t *testing.T) {
	nets := map[string][]string{
		"grid":       {"torus:4x4", "torus:5x3", "mesh:4x4"},
		"fattree":    {"fattree:16"},
		"df":         {"dragonfly:a=3,p=1,h=1"},
		"hx":         {"hyperx:3x3,t=1"},
		"fly":        {"fly:k=2,n=3"},
		"any-updown": {"torus:4x4", "fattree:16"},
		"any-min":    {"torus:4x4", "torus:5x3"},
	}
	checked := 0
	for _, name := range routing.Names() {
		alg, _ := routing.Lookup(name)
		var specs []string
		for _, ss := range nets {
			specs = append(specs, ss...)
		}
		slices.Sort(specs)
		specs = slices.Compact(specs)
		for _, spec := range specs {
			net, err := topology.Parse(spec)
			require.NoError(t, err)
			need, err := alg.MinVCs(net)
			if err != nil {
				continue
			}
			for _, vcs := range []int{need, max(need-1, 1)} {
				r, err := alg.New(net, vcs)
				require.NoError(t, err)
				if _, ok := r.(Canonical); !ok {
					continue
				}
				f := r.(Function)
				a, err := Build(context.Background(), net, f, vcs, name, 0)
				require.NoError(t, err)
				b, err := Build(context.Background(), net, plain{r, f}, vcs, name, 0)
				require.NoError(t, err)
				require.Equal(t, shape(b), shape(a), "%s on %s with %d VCs", name, spec, vcs)
				require.Less(t, a.States, b.States+1)
				for _, atomic := range []bool{true, false} {
					fa, fb := fixpoint(a, atomic), fixpoint(b, atomic)
					require.Equal(t, fb.Alive, fa.Alive, "%s on %s", name, spec)
				}
				checked++
			}
		}
	}
	require.Greater(t, checked, 30)
}
