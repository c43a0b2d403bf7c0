package deadlock

// Replaying a configuration in the simulator, from an empty network, until the
// simulator's own detector (sim.DeadlockError) reports the deadlock: reachability
// shown rather than assumed.
//
// Every worm becomes a packet of a closed batch (sim.RunBatch): its source and
// routing state at the source are those of the shortest real packet reaching its
// tail state (Graph.Path), it is steered (sim.Packet.Steer) along that prefix and
// its chain, and it has (m-1) B + 1 flits for a chain of m VCs (B in every VC but
// the tail's, which keeps one), or m B when another head commits to its tail VC
// (non-atomic: the VC must stay full). A committed head is steered to its
// commitment as well. A steered head takes its VC whenever it is free and never
// waits while a VC the routing offers is free, so the replay runs what the
// routing allows.
//
// The order: every worm's head is released so as to reach its last router in one
// common cycle T (its time alone in the network is measured by a run of its own):
// then every VC a head may request is held by the worm whose chain contains it,
// allocated on the way there. Under non-atomic reallocation a committed head may
// also request VCs no worm holds in the end; a helper packet holds each such VC
// from before T until every worm has packed into its chain (a one-hop packet
// when the routing offers that VC as a first hop, else the shortest packet whose
// first hop it is), then drains to its destination. When the simulator does not
// deadlock so, release times are perturbed (a fixed pseudo-random sequence of
// offsets of up to a few cycles per worm) and the run repeated, up to Tries
// times.
//
// Success means the detector stopped the run with flits of every worm still in
// the network and a wait cycle made of worms only.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// ReplayOptions tune Replay.
type ReplayOptions struct {
	// Buf is the buffer depth in flits (B); Pipeline the router's delays (the
	// zero value: sim.Ideal()).
	Buf      int
	Pipeline sim.Pipeline
	// Tries bounds the runs (0: 40).
	Tries int
}

// ReplayResult is a replay that deadlocked.
type ReplayResult struct {
	// Packets is the batch: the worms first, one per worm in order, then the
	// helpers.
	Packets []sim.Packet
	Worms   int
	// Deadlock is the simulator's report.
	Deadlock *sim.DeadlockError
	// Tries counts the runs made.
	Tries int
}

// ErrNotReplayed says no schedule tried made the simulator deadlock.
var ErrNotReplayed = errors.New("the simulator did not deadlock")

// Replay runs c in the simulator with routing r (the routing the graph was built
// from, on the graph's network and VCs).
func (c *Config) Replay(ctx context.Context, r sim.Routing, opt ReplayOptions) (*ReplayResult, error) {
	g := c.g
	if _, ok := r.(sim.Sensing); ok {
		// a routing that senses congestion runs, in the replay, with every choice
		// it may make offered (what the decision enumerated)
		r = unsensed{r}
	}
	if opt.Pipeline == (sim.Pipeline{}) {
		opt.Pipeline = sim.Ideal()
	}
	if opt.Buf < 1 {
		return nil, fmt.Errorf("buffer depth %d below 1", opt.Buf)
	}
	tries := opt.Tries
	if tries == 0 {
		tries = 40
	}
	B := opt.Buf
	committedTo := map[int32]bool{}
	for _, w := range c.Worms {
		if w.Commit >= 0 {
			committedTo[w.Commit] = true
		}
	}
	onChain := map[int32]bool{}
	for i := range c.Worms {
		for _, v := range c.VCs(i) {
			onChain[v] = true
		}
	}
	hop := func(v int32) sim.Hop {
		ch := g.Channel(v)
		return sim.Hop{Port: ch.Port, VC: ch.VC}
	}
	var packets []sim.Packet
	finalHop := make([]int, len(c.Worms)) // index of the hop into the head's VC
	// sources: distinct where possible (a source injects its packets one after
	// another), and prefixes that keep off the other chains
	busy := map[int]bool{}
	for i, w := range c.Worms {
		n0 := w.Nodes[0]
		_, rh := g.Rep(n0)
		isTail := func(st *state) bool {
			k, ok := g.b.memo.get(st)
			return ok && k == n0
		}
		offChains := func(v int32) bool { return onChain[v] && v != g.held[n0] }
		free := func(s int) bool { return !busy[s] }
		src, start, pre, err := g.pathWhere(ctx, int(rh.Dst), isTail, free, offChains)
		if errors.Is(err, errNoPath) {
			src, start, pre, err = g.pathWhere(ctx, int(rh.Dst), isTail, free, nil)
		}
		if errors.Is(err, errNoPath) {
			src, start, pre, err = g.Path(ctx, n0)
		}
		if err != nil {
			return nil, err
		}
		busy[src] = true
		steer := make([]sim.Hop, 0, len(pre)+len(w.Nodes))
		for _, v := range pre {
			steer = append(steer, hop(v))
		}
		for _, n := range w.Nodes[1:] {
			steer = append(steer, hop(g.held[n]))
		}
		finalHop[i] = len(steer) - 1
		if w.Commit >= 0 {
			steer = append(steer, hop(w.Commit))
		}
		flits := c.flits(i, B)
		_, h := g.Rep(w.head())
		st := start
		packets = append(packets, sim.Packet{Src: src, Dst: int(h.Dst), Flits: flits, Start: &st, Steer: steer})
	}
	cfg := sim.Config{Net: g.Net, Routing: r, VCs: g.VCs, Buf: B, Pipeline: opt.Pipeline, AtomicVC: c.Atomic, DeadlockCycles: 0}
	// each worm alone: when its head enters its last VC
	arrive := make([]int64, len(packets))
	hops := make([][]int64, len(packets)) // per hop, when the head entered its buffer
	longest := 0
	for i, p := range packets {
		p.Release = 0
		p.Steer = p.Steer[:finalHop[i]+1]
		res, err := sim.RunBatch(ctx, cfg, []sim.Packet{p}, sim.BatchOptions{RecordHops: true})
		if err != nil {
			return nil, fmt.Errorf("deadlock: worm %d alone: %v", i+1, err)
		}
		hops[i] = res.HeadArrivals[0]
		arrive[i] = hops[i][finalHop[i]]
		longest = max(longest, p.Flits)
	}
	// helpers: one per VC a committed head may request that no chain holds,
	// injected where no worm is, through VCs no worm holds or requests
	var helpers []sim.Packet
	hold := int64(4*longest + 8*len(packets) + 64)
	var T int64
	for _, a := range arrive {
		T = max(T, a)
	}
	T += 16
	helperArrive := []int64{}
	var helperHops [][]int64
	if !c.Atomic {
		busySrc := map[int]bool{}
		for _, p := range packets {
			busySrc[p.Src] = true
		}
		requested := map[int32]bool{}
		for _, w := range c.Worms {
			for _, v := range g.Choices(w.head()) {
				requested[v] = true
			}
		}
		seen := map[int32]bool{}
		for _, w := range c.Worms {
			if w.Commit < 0 {
				continue
			}
			for _, v := range g.Choices(w.head()) {
				if onChain[v] || seen[v] {
					continue
				}
				seen[v] = true
				avoid := func(x int32) bool { return x != v && (onChain[x] || requested[x]) }
				hp, err := c.helper(ctx, v, int(hold), busySrc, avoid)
				if err != nil {
					hp, err = c.helper(ctx, v, int(hold), map[int]bool{}, avoid)
				}
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					continue // no helper for v: the runs may still deadlock
				}
				busySrc[hp.Src] = true
				res, err := sim.RunBatch(ctx, cfg, []sim.Packet{hp}, sim.BatchOptions{RecordHops: true})
				if err != nil {
					return nil, fmt.Errorf("deadlock: helper on %s alone: %v", g.ChannelName(v), err)
				}
				at := res.HeadArrivals[0][len(hp.Steer)-1]
				helpers = append(helpers, hp)
				helperArrive = append(helperArrive, at)
				helperHops = append(helperHops, res.HeadArrivals[0])
				T = max(T, at+16)
			}
		}
	}
	all := append(slices.Clone(packets), helpers...)
	allHops := append(slices.Clone(hops), helperHops...)
	var release []int64
	for round := 0; round < 3; round++ {
		release = c.schedule(all, allHops, arrive, finalHop)
		if release == nil || len(helpers) == 0 {
			break
		}
		// a helper holds its VC from its head's passage until every worm has
		// arrived and packed into its chain
		end := int64(0)
		for i, a := range arrive {
			end = max(end, release[i]+a)
		}
		end += int64(2*longest + 64)
		for i := range helpers {
			j := len(packets) + i
			helpers[i].Flits = int(max(hold, end-(release[j]+helperHops[i][len(helperHops[i])-1])))
			all[j].Flits = helpers[i].Flits
		}
	}
	// more than any link's latency and the pipeline's quiet time (sim's check)
	lat := 0
	for v := range g.Net.Nodes() {
		for p := range g.Net.Ports(v) {
			lat = max(lat, topology.Latency(g.Net, v, p))
		}
	}
	cfg.DeadlockCycles = int(hold) + 64 + 4*lat
	rng := rand.New(rand.NewPCG(21, uint64(len(packets))))
	for try := 0; try < tries; try++ {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		batch := make([]sim.Packet, 0, len(packets)+len(helpers))
		for i, p := range packets {
			p.Release = T - arrive[i]
			if release != nil {
				p.Release = release[i]
			}
			if try > 0 {
				p.Release += int64(rng.IntN(7)) - 3
			}
			batch = append(batch, p)
		}
		first := T - 16 // the first head's arrival
		if release != nil {
			for i, a := range arrive {
				first = min(first, release[i]+a)
			}
		}
		for i, hp := range helpers {
			hp.Release = first - 8 - helperArrive[i]
			if release != nil {
				hp.Release = release[len(packets)+i]
			}
			batch = append(batch, hp)
		}
		lo := int64(0)
		for _, p := range batch {
			lo = min(lo, p.Release)
		}
		for i := range batch {
			batch[i].Release -= lo
		}
		res, err := sim.RunBatch(ctx, cfg, batch, sim.BatchOptions{})
		var de *sim.DeadlockError
		if !errors.As(err, &de) {
			if err != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		if !c.confirms(res, de, batch, len(packets)) {
			continue
		}
		return &ReplayResult{Packets: batch, Worms: len(packets), Deadlock: de, Tries: try + 1}, nil
	}
	return nil, fmt.Errorf("deadlock: %w in %d runs", ErrNotReplayed, tries)
}

// schedule chooses release times under which every head, arriving, finds each VC
// it may request already taken by the worm whose chain holds it (or the helper
// that holds it for a while): for head i and a request held at hop k of packet j,
// R_j + (packet j alone: its head past hop k) <= R_i + (worm i alone: its head at
// its last router); and packets of one source one after the other. ps lists the
// worms, then the helpers. These are difference constraints, solved by Bellman-Ford; nil
// when they have no solution (the releases then make every head arrive together).
func (c *Config) schedule(ps []sim.Packet, hops [][]int64, arrive []int64, final []int) []int64 {
	g := c.g
	n := len(ps)
	type at struct{ worm, hop int }
	where := map[int32]at{}
	for j, w := range c.Worms {
		for k := range w.Nodes {
			where[g.held[w.Nodes[k]]] = at{j, final[j] - (len(w.Nodes) - 1 - k)}
		}
	}
	for j := len(c.Worms); j < n; j++ { // helpers: their last hop
		last := ps[j].Steer[len(ps[j].Steer)-1]
		next := ps[j].Src
		for _, h := range ps[j].Steer[:len(ps[j].Steer)-1] {
			next, _ = g.Net.Link(next, h.Port)
		}
		where[g.ChannelID(Channel{Router: next, Port: last.Port, VC: last.VC})] = at{j, len(ps[j].Steer) - 1}
	}
	type edge struct {
		from, to int
		w        int64
	}
	var base []edge // R_to <= R_from + w
	for i, w := range c.Worms {
		for _, r := range g.Choices(w.head()) {
			if x, ok := where[r]; ok && x.worm != i && x.hop >= 0 {
				base = append(base, edge{i, x.worm, arrive[i] - hops[x.worm][x.hop]})
			}
		}
	}
	solve := func(es []edge) []int64 {
		d := make([]int64, n)
		for range n + 1 {
			changed := false
			for _, e := range es {
				if d[e.from]+e.w < d[e.to] {
					d[e.to] = d[e.from] + e.w
					changed = true
				}
			}
			if !changed {
				lo := int64(0)
				for _, x := range d {
					lo = min(lo, x)
				}
				for i := range d {
					d[i] += 20 - lo
				}
				return d
			}
		}
		return nil // a negative cycle
	}
	first := solve(base)
	if first == nil {
		return nil
	}
	// packets of one source one after the other: worms in the order the
	// constraints alone give them, helpers after them (a helper holds its VC
	// until every worm has arrived, so nothing of its source can follow it)
	bySrc := map[int][]int{}
	for i, p := range ps {
		bySrc[p.Src] = append(bySrc[p.Src], i)
	}
	worms := len(c.Worms)
	es := base
	for _, ws := range bySrc {
		sort.Slice(ws, func(x, y int) bool {
			a, b := ws[x], ws[y]
			if (a < worms) != (b < worms) {
				return a < worms
			}
			return first[a] < first[b] || (first[a] == first[b] && a < b)
		})
		for k := 1; k < len(ws); k++ {
			a, b := ws[k-1], ws[k]
			if a >= worms {
				return nil // two helpers at one source
			}
			es = append(es, edge{b, a, -int64(ps[a].Flits) - 1})
		}
	}
	return solve(es)
}

// unsensed hides a routing's Sense from the simulator.
type unsensed struct{ sim.Routing }

// flits is worm i's length: B in every VC of its chain, one in its tail VC unless
// a head commits to it (non-atomic), which must stay full.
func (c *Config) flits(i, B int) int {
	w := c.Worms[i]
	tail := c.g.held[w.Nodes[0]]
	for _, o := range c.Worms {
		if o.Commit == tail {
			return len(w.Nodes) * B
		}
	}
	return (len(w.Nodes)-1)*B + 1
}

// confirms checks a deadlocked run: no worm delivered, and the wait cycle made of
// worms only (a packet's id is its place in the order of generation: by release,
// then by place in the batch).
func (c *Config) confirms(res *sim.BatchResult, de *sim.DeadlockError, batch []sim.Packet, worms int) bool {
	for i := range worms {
		if res != nil && res.Delivered[i] != 0 {
			return false
		}
	}
	if len(de.Cycle) == 0 {
		return false
	}
	order := make([]int, len(batch))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return batch[order[a]].Release < batch[order[b]].Release })
	for _, w := range de.Cycle {
		if w.Packet < 0 || int(w.Packet) >= len(order) || order[w.Packet] >= worms {
			return false
		}
	}
	return true
}

// helper is a packet that takes VC v as its last hop and holds it for about hold
// cycles: from a source busy does not name, through VCs avoid does not refuse.
func (c *Config) helper(ctx context.Context, v int32, hold int, busy map[int]bool, avoid func(int32) bool) (sim.Packet, error) {
	g := c.g
	ch := g.Channel(v)
	next, _ := g.Net.Link(ch.Router, ch.Port)
	src, start, vcs, err := g.pathWhere(ctx, next, func(s *state) bool { return s.held == v && int(s.at) == next }, func(s int) bool { return !busy[s] }, avoid)
	if err != nil {
		return sim.Packet{}, fmt.Errorf("deadlock: no packet ends with %s from a router where no worm starts, to hold it in a replay", g.ChannelName(v))
	}
	steer := make([]sim.Hop, len(vcs))
	for i, x := range vcs {
		c := g.Channel(x)
		steer[i] = sim.Hop{Port: c.Port, VC: c.VC}
	}
	st := start
	return sim.Packet{Src: src, Dst: next, Flits: hold, Start: &st, Steer: steer}, nil
}
