package sim

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/topology"
)

// line builds the MODEL.md network a -> b -> c (plus c -> a, closing a ring, when
// ring) as routers, and an engine on it with V VCs of B flits and pipeline p.
func line(t *testing.T, ring bool, V, B int, p Pipeline) *engine {
	net := &model.Network{}
	for _, n := range []string{"a", "b", "c"} {
		net.AddNode(n)
	}
	net.AddEdge(0, 1)
	net.AddEdge(1, 2)
	if ring {
		net.AddEdge(2, 0)
	}
	e, err := newEngine(&Config{Net: topology.FromModel(net), VCs: V, Buf: B, Pipeline: p})
	require.NoError(t, err)
	return e
}

// iv is the input VC v of local input port port of router r.
func (e *engine) ivOf(r, port, v int) int32 { return (e.inBase[r]+int32(port))<<e.vs | int32(v) }
func (e *engine) ovOf(r, port, v int) int32 { return (e.outBase[r]+int32(port))<<e.vs | int32(v) }

// inject and receive: a packet generated in cycle 0 enters the injection buffer
// (input port InPorts(a) = 0 at a) in cycle Inject, one flit per cycle, on a VC
// with a credit; the source's credit is spent.
func TestPhaseInject(t *testing.T) {
	e := line(t, false, 2, 4, Pipeline{Link: 1, Credit: 1, Inject: 2})
	e.newPacket(0, 2, 3, []int32{0, 0}, 0)
	inj := e.ivOf(0, 0, 0)
	for c := range 2 {
		e.receive(e.parts[0])
		e.inject(e.parts[0])
		require.Equal(t, int32(0), e.vc[inj].n, "cycle %d: still on the way", c)
		e.t++
	}
	e.receive(e.parts[0])
	require.Equal(t, int32(1), e.vc[inj].n, "the head arrives in cycle Inject")
	require.True(t, e.front(inj).head())
	require.Equal(t, int32(4-2), e.srcCredit[0], "flits sent in cycles 0 and 1 spent two credits")
	e.inject(e.parts[0])
	require.Equal(t, int32(4-3), e.srcCredit[0], "one flit per cycle")
}

// route: a head at the front of an idle VC gets its choices (the fixed path's
// next port, all VCs) and may ask for a VC Route cycles later; a body flit is
// never routed.
func TestPhaseRoute(t *testing.T) {
	e := line(t, false, 2, 4, Pipeline{Route: 3, Link: 1, Credit: 1})
	e.newPacket(0, 2, 2, []int32{0, 0}, 0)
	e.receive(e.parts[0])
	e.inject(e.parts[0])
	require.NoError(t, e.route(e.parts[0]))
	iv := e.ivOf(0, 0, 0)
	require.Equal(t, vcWait, e.vc[iv].state)
	require.Equal(t, []Choice{{Port: 0, VCs: 3}}, e.heads[iv].ch)
	require.Equal(t, int64(3), e.heads[iv].ready)
	e.allocVCs(e.parts[0])
	require.Equal(t, vcWait, e.vc[iv].state, "not before Route cycles")
}

// allocVCs: the waiting head takes the first free output VC (FirstFree), the
// header records the hop, and a second head asking for the same VC loses to the
// first; a held VC is not offered, and the head that finds none free is parked
// until a release of that VC.
func TestPhaseAllocVCs(t *testing.T) {
	e := line(t, false, 1, 4, Pipeline{Link: 1, Credit: 1})
	// two packets at b: one arriving from a, one injected at b, both for c
	p1 := e.newPacket(0, 2, 1, []int32{0, 0}, 0)
	e.src[e.firstQ[0]].q, e.srcOn[e.firstQ[0]] = nil, false // not at a's source: at b
	e.srcRtr[0], e.parts[0].nSrc = 0, 0
	e.write(e.parts[0], e.ivOf(1, 0, 0), flitOf(p1, 0, 1))
	e.packets[p1].h.Hops = 1
	p2 := e.newPacket(1, 2, 1, []int32{0}, 1)
	e.receive(e.parts[0])
	e.inject(e.parts[0])
	require.NoError(t, e.route(e.parts[0]))
	before := map[int32]int32{p1: 1, p2: 0}
	e.allocVCs(e.parts[0])
	ov := e.ovOf(1, 0, 0)
	owner := e.ov[ov].owner
	require.GreaterOrEqual(t, owner, int32(0))
	won := e.front(owner).pkt()
	lost := p1 + p2 - won
	require.Equal(t, before[won]+1, e.packets[won].h.Hops, "the winner's header took the hop")
	require.Equal(t, before[lost], e.packets[lost].h.Hops, "the loser's did not")
	require.Equal(t, vcActive, e.vc[owner].state)
	e.allocVCs(e.parts[0])
	require.Equal(t, owner, e.ov[ov].owner, "a held VC is not given again")

	// the loser found it held: parked (passBy) out of the waiting set, so that b
	// is not visited, until the VC's release puts it back; then it takes the VC
	loser := int32(-1)
	for iv := e.inBase[1] << e.vs; iv < e.inBase[2]<<e.vs; iv++ {
		if e.vc[iv].state == vcWait {
			loser = iv
		}
	}
	require.Equal(t, lost, e.front(loser).pkt())
	in := e.port(loser)
	require.Equal(t, uint64(1)<<uint(loser&e.vm), e.passBy[in], "the loser is parked")
	require.Equal(t, uint64(1)<<uint(in-e.inBase[1]), e.parked[1])
	require.Zero(t, e.waiting.rtrs[0], "no router has a head to try")
	e.release(e.outRtr[e.port(ov)], ov)
	require.Zero(t, e.passBy[in])
	require.Zero(t, e.parked[1])
	e.allocVCs(e.parts[0])
	require.Equal(t, loser, e.ov[ov].owner, "the released VC goes to the parked head")
	require.Equal(t, vcActive, e.vc[loser].state)
}

// allocSwitch and traverse: a granted flit leaves its buffer, spends a credit,
// arrives downstream Link cycles later, and its slot's credit returns upstream
// Credit cycles later; a VC without credits does not ask for the switch.
func TestPhaseSwitchAndCredits(t *testing.T) {
	e := line(t, false, 1, 1, Pipeline{Link: 2, Credit: 3})
	e.newPacket(0, 2, 2, []int32{0, 0}, 0)
	ov := e.ovOf(0, 0, 0)
	step := func() {
		e.receive(e.parts[0])
		e.inject(e.parts[0])
		require.NoError(t, e.route(e.parts[0]))
		e.allocVCs(e.parts[0])
		e.allocSwitch(e.parts[0])
		e.t++
	}
	step() // cycle 0: head injected, routed, allocated, sent
	require.Equal(t, int32(0), e.ov[ov].credit, "the head spent a's only credit")
	require.Equal(t, int32(0), e.vc[e.src[e.firstQ[0]].in<<e.vs].n)
	step() // cycle 1: body in the injection buffer, no credit: it waits
	require.Equal(t, int32(1), e.vc[e.src[e.firstQ[0]].in<<e.vs].n)
	step() // cycle 2: the head arrives at b and leaves it (credit return to a at 5)
	require.Equal(t, int32(0), e.vc[e.ivOf(1, 0, 0)].n)
	step()
	step() // cycle 4
	require.Equal(t, int32(0), e.ov[ov].credit)
	require.Equal(t, int32(1), e.vc[e.src[e.firstQ[0]].in<<e.vs].n, "the body still waits")
	step() // cycle 5: the credit is back and the body goes
	require.Equal(t, int32(0), e.vc[e.src[e.firstQ[0]].in<<e.vs].n)
	require.Equal(t, int64(2), e.out[e.outBase[0]].use)
}

// deadlock: on a ring with one one-flit VC, three 3-flit worms each holding the
// link the next one needs stall, and the error names the cycle of waiting VCs.
func TestPhaseDeadlock(t *testing.T) {
	e := line(t, true, 1, 1, Ideal())
	e.cfg.DeadlockCycles = 50
	for s := range 3 {
		e.newPacket(int32(s), int32((s+2)%3), 3, []int32{0, 0}, int32(s))
	}
	err := e.run(context.Background(), func() bool { return e.t > 1000 })
	var dl *DeadlockError
	require.True(t, errors.As(err, &dl), "%v", err)
	// each worm: its body at its source's injection port waits for a slot at the
	// next router, whose head waits for the output VC the next worm holds there
	require.Len(t, dl.Cycle, 6)
	routers := map[int]bool{}
	for i, w := range dl.Cycle {
		next := dl.Cycle[(i+1)%len(dl.Cycle)]
		routers[w.Router] = true
		require.Contains(t, []int{w.Router, (w.Router + 1) % 3}, next.Router, "a wait for an owner here or a slot downstream")
	}
	require.Len(t, routers, 3)
	require.Equal(t, int64(50), dl.Idle)
}

// Choice.Pri is honoured whatever the selector: the choices of the lowest Pri with
// a free VC are the only candidates (MostCredits would prefer the other port's
// fuller credit count), and a higher Pri is taken only when the lower has no free
// VC.
func TestPickVCHonoursPri(t *testing.T) {
	net := &model.Network{}
	for _, n := range []string{"a", "b", "c"} {
		net.AddNode(n)
	}
	net.AddEdge(0, 1)
	net.AddEdge(0, 2)
	e, err := newEngine(&Config{Net: topology.FromModel(net), VCs: 2, Buf: 4, Pipeline: Ideal(), Select: MostCredits{}})
	require.NoError(t, err)
	iv := e.src[e.firstQ[0]].in << e.vs
	e.heads[iv].ch = []Choice{{Port: 1, VCs: 3, Pri: 1}, {Port: 0, VCs: 3, Pri: 0}}
	e.ov[e.ovOf(0, 1, 0)].credit = 4
	e.ov[e.ovOf(0, 0, 0)].credit = 1
	e.ov[e.ovOf(0, 0, 1)].credit = 2
	ov, ok := e.pickVC(e.parts[0], 0, iv)
	require.True(t, ok)
	require.Equal(t, e.ovOf(0, 0, 1), ov, "Pri 0 first, then the most credits among its VCs")
	e.own(e.ovOf(0, 0, 0), 99)
	e.own(e.ovOf(0, 0, 1), 99)
	ov, ok = e.pickVC(e.parts[0], 0, iv)
	require.True(t, ok)
	require.Equal(t, e.ovOf(0, 1, 0), ov, "the Pri 1 choice once Pri 0 has no free VC")
	e.own(e.ovOf(0, 1, 0), 99)
	e.own(e.ovOf(0, 1, 1), 99)
	_, ok = e.pickVC(e.parts[0], 0, iv)
	require.False(t, ok)
}
