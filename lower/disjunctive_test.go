package lower

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
)

// The leader condition r_i <= L_i - 1 of the general separation lemma is needed.
// Found by rapid with the condition removed: m3 (1 flit) enters 3->2 with two hops
// left, so after its tail leaves 3->2 it can still wait, and the disjunction
// "D_m2 >= D_m3 + L + r - r'" it would give is false. With the condition the bound
// stays at the optimum 4; without it the relaxation claims 5.
func TestDisjunctiveLeaderCondition(t *testing.T) {
	f, err := os.Open("testdata/leader-condition.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)
	opt := wormholeOptimum(in)
	require.Equal(t, 4, opt)
	var lemma []Disjunction
	lemma = Disjunctions(in)
	sl := &disjSearch{nMsg: len(in.Messages), out: make([][]arc, len(in.Messages))}
	for i := range in.Messages {
		sl.base = append(sl.base, len(in.Messages[i].Path)+in.Messages[i].L-1)
	}
	for _, d := range lemma {
		sl.choices = append(sl.choices, choice{[]arc{{d.I, d.J, d.A}}, []arc{{d.J, d.I, d.B}}})
	}
	v, exact := sl.solve(0, 0)
	require.True(t, exact)
	assert.LessOrEqual(t, v, opt)

	// every pair on every shared edge, leader condition dropped:
	var naive []Disjunction
	for _, us := range in.Users() {
		for a := 0; a < len(us); a++ {
			for b := a + 1; b < len(us); b++ {
				mi, mj := &in.Messages[us[a].Msg], &in.Messages[us[b].Msg]
				ri, rj := len(mi.Path)-us[a].Pos-1, len(mj.Path)-us[b].Pos-1
				naive = append(naive, Disjunction{us[a].Msg, us[b].Msg, mj.L + rj - ri, mi.L + ri - rj})
			}
		}
	}
	// the delivery times alone under these disjunctions:
	s := &disjSearch{nMsg: len(in.Messages), out: make([][]arc, len(in.Messages))}
	for i := range in.Messages {
		s.base = append(s.base, len(in.Messages[i].Path)+in.Messages[i].L-1)
	}
	for _, d := range naive {
		s.choices = append(s.choices, choice{[]arc{{d.I, d.J, d.A}}, []arc{{d.J, d.I, d.B}}})
	}
	w, _ := s.solve(0, 0)
	assert.Greater(t, w, opt, "the unconditioned relaxation overshoots the optimum")
}

// Found by `wormlab adversary --network line:6 --objective opt/lower --seed 1`
// after the edge-sequence bound: m2 = 3->2->1 meets m1 on 3->2 (not aligned) and
// m0 on 2->1 (aligned). Every order of the two meetings costs a step, so the
// optimum is 5, while c_L, the edge bounds, the cliques and colourings give 4.
// The disjunctive relaxation of the general separation lemma proves 5.
func TestDisjunctiveClosesChainGap(t *testing.T) {
	f, err := os.Open("testdata/adversary-line6-chain.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)
	require.Equal(t, 5, wormholeOptimum(in))
	for _, b := range append(in.LowerBounds(), Bounds(in)...) {
		if b.Name != BoundDisjunctive {
			assert.LessOrEqual(t, b.Value, 4, b.Name)
		}
	}
	v, exact := Disjunctive(in, 0, 0)
	assert.True(t, exact)
	assert.Equal(t, 5, v)
	assert.Equal(t, BoundDisjunctive, Best(in).Name)
}

// Found by `wormlab adversary --network kary-tree:2x3 --objective opt/lower --seed 2`:
// m0 and m1 meet on their first edge, where m0 (3 hops to go) cannot use the
// separation lemma, and m1 then meets m2 on its last edge. The optimum is 7; every
// bound but the disjunctive one gives 5: only the head-time arcs
// h_j(e) >= h_i(e) + L_i see that whoever loses the first edge is delayed two steps.
func TestDisjunctiveClosesJobShopGap(t *testing.T) {
	f, err := os.Open("testdata/adversary-tree-job-shop.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)
	require.Equal(t, 7, wormholeOptimum(in))
	for _, b := range append(in.LowerBounds(), Bounds(in)...) {
		if b.Name != BoundDisjunctive {
			assert.LessOrEqual(t, b.Value, 5, b.Name)
		}
	}
	v, exact := Disjunctive(in, 0, 0)
	assert.True(t, exact)
	assert.Equal(t, 7, v)
}
