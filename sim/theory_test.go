package sim_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// The example instance of MODEL.md: the theory model's schedule is legal and has
// the makespan of the engine's greedy run under the input policy.
func TestTheoryExample(t *testing.T) {
	in, _ := fixture.Example(t)
	s, _, err := sim.Theory(testCtx(t), in, sim.FixedOrder{}, 1)
	require.NoError(t, err)
	require.NoError(t, verify.Schedule(in, s))
	es, err := engineGreedy(in)
	require.NoError(t, err)
	require.Equal(t, es.Makespan, s.Makespan)
}

func engineGreedy(in *model.Instance) (*model.Schedule, error) { return enginePolicy(in, "input") }

func enginePolicy(in *model.Instance, policy string) (*model.Schedule, error) {
	return enginePolicyRotate(in, policy, false)
}

func enginePolicyRotate(in *model.Instance, policy string, rotate bool) (*model.Schedule, error) {
	e, err := engine.New(in, engine.Config{Arb: policy, Rotate: rotate})
	if err != nil {
		return nil, err
	}
	for i := range in.Messages {
		if err := e.Release(i, 0); err != nil {
			return nil, err
		}
	}
	if err := e.Run(context.Background(), -1); err != nil {
		return nil, err
	}
	return e.Schedule(), nil
}

// policies pairs the simulator's arbitrations with package engine's policies of
// the same rule: fixed order by input port with the injection ports last is the
// engine's "input"; round-robin over input ports (injection last), moving past a
// winner that enters, is the engine's "round-robin".
var policies = []struct {
	arb    sim.Arbitration
	policy string
}{{sim.FixedOrder{}, "input"}, {sim.RoundRobin{}, "round-robin"}}

// theoryAgrees checks one instance under both pairs of policies (ctx is the whole
// test's deadline, shared by its cases: a case's own deadline let a simulator
// whose deadlock detector was off wait two minutes a case, and the property's
// hundred cases and their shrinking past the package's timeout): the simulator's
// theory-model schedule is legal by verify.Schedule, and it is the engine's greedy
// schedule under the same policy, head crossing time by head crossing time; when
// one of them deadlocks, so does the other.
func theoryAgrees(ctx context.Context, t *rapid.T, in *model.Instance) {
	for _, p := range policies {
		theoryAgreesUnder(ctx, t, in, p.arb, p.policy)
	}
}

func theoryAgreesUnder(ctx context.Context, t *rapid.T, in *model.Instance, arb sim.Arbitration, policy string) {
	theoryAgreesRotate(ctx, t, in, arb, policy, false)
}

func theoryAgreesRotate(ctx context.Context, t *rapid.T, in *model.Instance, arb sim.Arbitration, policy string, rotate bool) {
	cfg, ps := sim.TheoryConfig(in, arb, 1)
	cfg.Rotate = rotate
	s, _, err := sim.TheoryRun(ctx, in, cfg, ps)
	es, eerr := enginePolicyRotate(in, policy, rotate)
	var dl *sim.DeadlockError
	var edl *engine.Deadlock
	if errors.As(err, &dl) || errors.As(eerr, &edl) {
		if !errors.As(err, &dl) || !errors.As(eerr, &edl) {
			t.Fatalf("one deadlocks, the other not: sim %v, engine %v\n%s", err, eerr, dump(in))
		}
		return
	}
	if err != nil || eerr != nil {
		t.Fatalf("sim %v engine %v", err, eerr)
	}
	if err := verify.Schedule(in, s); err != nil {
		t.Fatalf("illegal: %v\n%+v", err, s)
	}
	for i := range in.Messages {
		if !slices.Equal(es.Messages[i].Cross, s.Messages[i].Cross) {
			t.Fatalf("%s: message %s: engine %v sim %v (makespans %d, %d)\n%s", policy, in.Messages[i].ID, es.Messages[i].Cross, s.Messages[i].Cross, es.Makespan, s.Makespan, dump(in))
		}
	}
	if es.Makespan != s.Makespan {
		t.Fatalf("makespan: engine %d sim %d", es.Makespan, s.Makespan)
	}
}

func dump(in *model.Instance) string {
	var b strings.Builder
	if err := model.WriteInstance(&b, in); err != nil {
		return fmt.Sprint(err)
	}
	return b.String()
}

// Theorem (the theory model is a special case of the router): on random
// instances (levelled networks, so no deadlock), the simulator with V = 1, B = 1,
// the Ideal pipeline, fixed paths, EjectAll, Latch and one injection queue per
// first edge produces a schedule that verify.Schedule accepts, equal crossing time
// by crossing time to the flit-level engine's greedy run under the same
// arbitration (engine "input" = sim FixedOrder and engine "round-robin" = sim
// RoundRobin, injection ports last).
func TestTheoryMatchesEngine(t *testing.T) {
	ctx := testCtx(t)
	rapid.Check(t, func(t *rapid.T) {
		theoryAgrees(ctx, t, fixture.Instance(t, fixture.Shape{MaxNodes: 6, MaxEdges: 12, MaxMessages: 8, MaxHops: 5, MaxL: 4, Levelled: true}))
	})
}

// The same on arbitrary multigraphs, where cyclic waits exist: both deadlock on the
// same instances (neither lets a closed cycle of worms rotate), and agree elsewhere.
func TestTheoryMatchesEngineCyclic(t *testing.T) {
	ctx := testCtx(t)
	rapid.Check(t, func(t *rapid.T) {
		theoryAgrees(ctx, t, fixture.Instance(t, fixture.Small))
	})
}

// The same on the generated instances of package instances (lines, trees, meshes,
// tori, butterflies, fat-trees, levelled networks).
func TestTheoryMatchesEngineGenerated(t *testing.T) {
	ctx := testCtx(t)
	rapid.Check(t, func(t *rapid.T) {
		theoryAgrees(ctx, t, fixture.Generated(t, nil))
	})
}

// A walk may pass its destination: the worm ends where its path ends (the case
// rapid found: m0 leaves v0 and returns to it, and must not be delivered at its
// source). Both worms of the 2-cycle wait for each other, so both engines
// deadlock.
func TestTheoryWalkThroughDestination(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"name":"c","network":{"nodes":["v0","v1"],"edges":[["v0","v1"],["v0","v1"],["v0","v1"],["v1","v0"]]},"flits":1,
"messages":[{"id":"m0","edges":[0,3]},{"id":"m1","edges":[0]},{"id":"m5","edges":[3,0]}]}`))
	require.NoError(t, err)
	_, _, err = sim.Theory(testCtx(t), in, sim.FixedOrder{}, 1)
	var dl *sim.DeadlockError
	require.True(t, errors.As(err, &dl), "%v", err)
	_, eerr := engineGreedy(in)
	var edl *engine.Deadlock
	require.True(t, errors.As(eerr, &edl), "%v", eerr)
	in.Messages = in.Messages[:2]
	s, _, err := sim.Theory(testCtx(t), in, sim.FixedOrder{}, 1)
	require.NoError(t, err)
	require.Equal(t, []int{1, 2}, s.Messages[0].Cross)
	require.NoError(t, verify.Schedule(in, s))
}

// In the theory model a deadlock names its wait cycle too: two one-flit worms on a
// 2-cycle, each in the buffer the other needs next. No VC is held (their tails have
// crossed), so the waits are for full buffers behind free VCs.
func TestTheoryDeadlockCycle(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"name":"c","network":{"edges":[["a","b"],["b","a"]]},"flits":1,
"messages":[{"id":"m0","edges":[0,1]},{"id":"m1","edges":[1,0]}]}`))
	require.NoError(t, err)
	_, _, err = sim.Theory(testCtx(t), in, sim.FixedOrder{}, 1)
	var dl *sim.DeadlockError
	require.True(t, errors.As(err, &dl), "%v", err)
	require.Len(t, dl.Cycle, 2, "%v", err)
}

// With Rotate, a closed cycle of worms each waiting for the next one's tail shifts
// together, as MODEL.md's holding rule allows: the simulator's theory model is then
// the engine's greedy run with Rotate (wormlab run's default), crossing time by
// crossing time, on random multigraphs where such cycles occur, and both deadlock
// on the same instances.
func TestTheoryMatchesEngineRotate(t *testing.T) {
	ctx := testCtx(t)
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Instance(t, fixture.Small)
		for _, p := range policies {
			theoryAgreesRotate(ctx, t, in, p.arb, p.policy, true)
		}
	})
}
