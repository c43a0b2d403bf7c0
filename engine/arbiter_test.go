package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/verify"
)

// lastWins is a policy declared outside the registry: the largest message index
// wins. It checks that Config.Policy takes a policy value and that the engine asks
// it, not a built-in order.
type lastWins struct{}

func (lastWins) Arbiter(int, *rand.Rand) Arbiter { return lastWinsArbiter{} }
func (lastWins) QueueBefore(a, b Queued) bool    { return a.Msg > b.Msg }

type lastWinsArbiter struct{ noGrant }

func (lastWinsArbiter) Pick(_ int, reqs []Request, _ int32) int {
	return pickBy(reqs, func(x, y Request) bool { return x.Msg > y.Msg })
}

func TestPolicyValue(t *testing.T) {
	// Two worms of 2 flits from a over a->b at once: the winner crosses in step 1.
	in := parse(t, `{"network":{"edges":[["a","b"]]},"flits":2,"messages":[
		{"id":"p","path":["a","b"]},{"id":"q","path":["a","b"]}]}`)
	for _, c := range []struct {
		cfg   Config
		first int
	}{
		{Config{}, 0},
		{Config{Arb: ArbMessage}, 0},
		{Config{Policy: lastWins{}}, 1},
		{Config{Arb: ArbMessage, Policy: lastWins{}}, 1},
	} {
		e, err := New(in, c.cfg)
		require.NoError(t, err)
		require.NoError(t, e.Release(0, 0))
		require.NoError(t, e.Release(1, 0))
		require.NoError(t, e.Run(context.Background(), -1))
		require.NoError(t, verify.Schedule(in, e.Schedule()))
		require.Equal(t, []int{1}, e.Cross(c.first), "%+v", c.cfg)
		require.Equal(t, []int{3}, e.Cross(1-c.first), "%+v", c.cfg)
	}
}

func TestRegistry(t *testing.T) {
	require.Equal(t, []string{ArbMessage, ArbFarthest, ArbInput, ArbOldest, ArbRandom, ArbRoundRobin}, Policies())
	for _, name := range Policies() {
		p, err := Lookup(name)
		require.NoError(t, err)
		require.NotNil(t, p.Arbiter(3, rand.New(rand.NewPCG(1, 2))))
		require.NotEmpty(t, Summary(name))
	}
	def, err := Lookup("")
	require.NoError(t, err)
	require.Equal(t, MessageOrder{}, def)
	require.Panics(t, func() { Register(ArbRandom, "", Random{}) })
}
