package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// Three single-flit packets on the line a->b->c: one packet per edge per step, so
// they leave a one step apart and pipeline.
func TestStoreLine(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"],["b","c"]]}, "flits": 1,
	  "messages": [{"id":"x","path":["a","b","c"]},{"id":"y","path":["a","b","c"]},{"id":"z","path":["b","c"]}]}`)
	r, err := Store(context.Background(), in, nil, Config{})
	require.NoError(t, err)
	require.NoError(t, CheckHops(in, r.Hops))
	// z starts at b and takes b->c in step 1, before x arrives there.
	assert.Equal(t, [][]int{{1, 2}, {2, 3}, {1}}, r.Hops)
	assert.Equal(t, 3, r.Makespan)
}

// Packets of L flits are received whole: a hop occupies the edge L steps and the
// next hop starts L steps later.
func TestStoreLongPackets(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"],["b","c"]]}, "flits": 3,
	  "messages": [{"id":"x","path":["a","b","c"]},{"id":"y","path":["a","b","c"]}]}`)
	r, err := Store(context.Background(), in, nil, Config{})
	require.NoError(t, err)
	require.NoError(t, CheckHops(in, r.Hops))
	assert.Equal(t, [][]int{{1, 4}, {4, 7}}, r.Hops)
	assert.Equal(t, 9, r.Makespan)
}

// A packet that reaches an edge while another packet is still crossing it is looked
// at again when the edge frees (the case rapid once found: y holds a->b in steps 2-3,
// x arrives at time 2 and crosses in step 4).
func TestStoreWaitsForBusyEdge(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"]]}, "flits": 2,
	  "messages": [{"id":"x","path":["a","b"]},{"id":"y","path":["a","b"]}]}`)
	r, err := Store(context.Background(), in, []int{2, 1}, Config{})
	require.NoError(t, err)
	require.NoError(t, CheckHops(in, r.Hops))
	assert.Equal(t, [][]int{{4}, {2}}, r.Hops)
	assert.Equal(t, 5, r.Makespan)
}

func TestCheckHopsRejects(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"],["b","c"]]}, "flits": 1,
	  "messages": [{"id":"x","path":["a","b","c"]},{"id":"y","path":["a","b","c"]}]}`)
	require.NoError(t, CheckHops(in, [][]int{{1, 2}, {2, 3}}))
	require.ErrorContains(t, CheckHops(in, [][]int{{1, 2}, {1, 3}}), `edge 0 (a->b): messages "x" and "y" both use it at time 1`)
	require.ErrorContains(t, CheckHops(in, [][]int{{2, 2}, {3, 4}}), `message "x": hop 2 at time 2 before hop 1`)
	require.ErrorContains(t, CheckHops(in, [][]int{{0, 2}, {3, 4}}), `not positive`)
	require.ErrorContains(t, CheckHops(in, [][]int{{1}, {3, 4}}), `1 hop times for a path of 2 edges`)
	require.ErrorContains(t, CheckHops(in, [][]int{{1, 2}}), `1 hop lists for 2 messages`)
}

// Property (MODEL.md, store-and-forward; seed 000 B.2 STORE): every store-and-forward
// run under every policy and any release times delivers every packet, passes
// CheckHops, respects the releases, is never faster than the instance's lower bound,
// and is deterministic given the seed.
func TestStoreRunsAreLegal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, false)
		rel := make([]int, len(in.Messages))
		for i := range rel {
			rel[i] = rapid.IntRange(0, 5).Draw(t, "release")
		}
		seed := rapid.Uint64().Draw(t, "seed")
		for _, arb := range Policies() {
			r, err := Store(context.Background(), in, rel, Config{Arb: arb, Seed: seed})
			require.NoError(t, err)
			require.NoError(t, CheckHops(in, r.Hops), "policy %s", arb)
			require.GreaterOrEqual(t, r.Makespan, in.LowerBound().Value)
			for i := range rel {
				require.Greater(t, r.Hops[i][0], rel[i])
				require.Equal(t, r.Hops[i][len(r.Hops[i])-1]+in.Messages[i].L-1, r.Delivered[i])
			}
			r2, err := Store(context.Background(), in, rel, Config{Arb: arb, Seed: seed})
			require.NoError(t, err)
			require.Equal(t, r.Hops, r2.Hops)
		}
	})
}

// A store-and-forward run whose flit hops sum_i d_i L_i pass MaxRelease is refused
// (its makespan and flit counter could overflow), naming the message.
func TestStoreRejectsHugeWork(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"]]}, "flits": 2305843009213693952,
	  "messages": [{"id":"m","path":["a","b"]},{"id":"n","path":["a","b"]}]}`)
	_, err := Store(context.Background(), in, nil, Config{})
	require.ErrorContains(t, err, `message "n"`)
	in.Messages[0].L, in.Messages[1].L = MaxRelease/2, MaxRelease/2
	_, err = Store(context.Background(), in, nil, Config{})
	require.NoError(t, err)
	_, err = Store(context.Background(), in, []int{MaxRelease + 1, 0}, Config{})
	require.ErrorContains(t, err, `message "m"`)
}

// storeSchedule writes hop lists as a store-and-forward schedule (makespan omitted:
// the verifier computes it).
func storeSchedule(in *model.Instance, hops [][]int) *model.Schedule {
	s := &model.Schedule{Model: model.StoreAndForward, NoMakespan: true, Messages: make([]model.Times, len(in.Messages))}
	for i := range in.Messages {
		s.Messages[i] = model.Times{ID: in.Messages[i].ID, Cross: hops[i]}
	}
	return s
}

// Property (MODEL.md, store-and-forward): verify.Schedule, written apart from
// CheckHops (it imports only model), accepts every store-and-forward run, and on
// hop lists perturbed at random the two checkers agree on legality.
func TestStoreVerifyAgreesWithCheckHops(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, false)
		r, err := Store(context.Background(), in, nil, Config{Arb: rapid.SampledFrom(Policies()).Draw(t, "arb")})
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, storeSchedule(in, r.Hops)))
		hops := make([][]int, len(r.Hops))
		for i := range hops {
			hops[i] = append([]int(nil), r.Hops[i]...)
			for k := range hops[i] {
				hops[i][k] += rapid.IntRange(-2, 2).Draw(t, "shift")
			}
		}
		want := CheckHops(in, hops) == nil
		got := verify.Schedule(in, storeSchedule(in, hops))
		require.Equal(t, want, got == nil, "CheckHops legal %v, verify: %v", want, got)
	})
}
