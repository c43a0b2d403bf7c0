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
// The order: each worm's time alone in the network is measured by a run of its
// own (when its head passes each hop), and release times solve difference
// constraints (schedule): every VC a head may request is taken by the worm whose
// chain holds it before the head requests it, and packets of one source go one
// after the other (when the constraints have no solution, every head is released
// to reach its last router in one common cycle). Under non-atomic reallocation a
// committed head may also request VCs no worm holds in the end; a helper packet
// holds each such VC until every worm has packed into its chain (the shortest
// packet ending with that VC, from a router no worm starts at where one exists),
// then drains to its destination; or the head goes by timing, released to arrive
// after the tail it is granted has left (schedule). When the simulator does not
// deadlock so, release times are perturbed (a fixed pseudo-random sequence of
// offsets of up to a few cycles per worm) and the run repeated, up to Tries
// times.
//
// Success means the detector stopped the run with flits of every worm still in
// the network and a wait cycle made of worms only.
//
// The pipeline: first the ideal one (a hop a cycle, a head requesting in the
// cycle it arrives), then, when no run deadlocked, the booksim preset, wormlab
// sim's default (a head requests a cycle after it arrives, and a VC is
// allocated three cycles or more before its holder's head reaches the next
// router). On the ideal pipeline a cycle of one-VC worms whose heads each request
// the next worm's only VC must have all those VCs allocated in one cycle (each
// must be taken before the head that requests it arrives, and that head arrives
// one cycle after its own VC was taken): two worms that start at one router,
// whose source injects one packet at a time, cannot be. The booksim pipeline's
// slack of a few cycles a hop lets them. Under non-atomic reallocation each
// pipeline is tried with helpers for every granted head (from any router), then
// with helpers only where they can start apart from the worms and the other
// heads going by timing, then with every head going by timing: a helper that
// must start where a worm starts delays that worm, and with the booksim
// pipeline's slack a head can arrive after the tail it is granted has left;
// last with helpers whose paths may take other heads' requests as well, from
// routers no worm starts at where one reaches the VC (else, as the first way,
// from any router), that hold those requests too. Then, where the
// release times' constraints had no solution, every attempt again with them
// relaxed by the least slack that gives one (relax): the runs alone are only a
// model of the runs together, and perturbed releases near the best the model
// allows sometimes deadlock.
// When all fail, run.go tries other configurations of as many packets
// (alternative.go); the error says when no attempt's release times met the
// constraints, and how many of the granted heads' other requests no helper
// from a router where no worm starts can end with.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// ReplayOptions tune Replay.
type ReplayOptions struct {
	// Buf is the buffer depth in flits (B); Pipeline the router's delays (the
	// zero value: sim.Ideal(), then sim.BookSim when the ideal runs fail).
	Buf      int
	Pipeline sim.Pipeline
	// Tries bounds the runs of each attempt (0: 40).
	Tries int
}

// ReplayResult is a replay that deadlocked.
type ReplayResult struct {
	// Packets is the batch: the worms first, one per worm in order, then the
	// helpers.
	Packets []sim.Packet
	Worms   int
	// Pipeline is the router's delays of the run that deadlocked, PipelineName
	// its preset's name ("ideal", "booksim"; "" for one given in ReplayOptions
	// that is neither).
	Pipeline     sim.Pipeline
	PipelineName string
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
	if _, ok := r.(sim.Sensing); ok {
		// a routing that senses congestion runs, in the replay, with every choice
		// it may make offered (what the decision enumerated)
		r = unsensed{r}
	}
	if opt.Buf < 1 {
		return nil, fmt.Errorf("buffer depth %d below 1", opt.Buf)
	}
	type attempt struct {
		name string
		p    sim.Pipeline
	}
	var plan []attempt
	if opt.Pipeline == (sim.Pipeline{}) {
		plan = []attempt{{"ideal", sim.Ideal()}, {"booksim", sim.BookSim(c.g.Net)}}
	} else {
		name := ""
		for _, n := range sim.PipelineNames() {
			if p, err := sim.LookupPipeline(n, c.g.Net); err == nil && p == opt.Pipeline {
				name = n
			}
		}
		plan = []attempt{{name, opt.Pipeline}}
	}
	modes := []helperMode{allHelpers}
	if c.commits() {
		modes = append(modes, someHelpers, noHelpers, throughRequests)
	}
	runs := 0
	unscheduled, unhelped := true, 0
	for _, relax := range []bool{false, true} {
		for _, a := range plan {
			for _, mode := range modes {
				rr, err := c.replay(ctx, r, opt.Buf, a.p, opt.Tries, mode, relax)
				if err == nil {
					rr.Tries += runs
					rr.Pipeline, rr.PipelineName = a.p, a.name
					return rr, nil
				}
				var nr attemptFailed
				if !errors.As(err, &nr) {
					return nil, err
				}
				runs += nr.runs
				if !relax {
					unscheduled = unscheduled && nr.unschedule
					unhelped = max(unhelped, nr.unhelped)
				}
			}
		}
	}
	var names []string
	for _, a := range plan {
		if !slices.Contains(names, a.name) {
			names = append(names, a.name)
		}
	}
	why := ""
	if unscheduled {
		why += "; no release times met the constraints (replay.go, schedule)"
	}
	if unhelped > 0 {
		why += fmt.Sprintf("; %d VC(s) the granted heads request besides the chains' are the last hop of no packet from a router where no worm starts (off the chains)", unhelped)
	}
	return nil, fmt.Errorf("deadlock: %w in %d runs (pipelines: %s)%s", ErrNotReplayed, runs, strings.Join(names, ", "), why)
}

// commits says whether some head is granted a VC (non-atomic): only then does a
// replay use helpers.
func (c *Config) commits() bool {
	for _, w := range c.Worms {
		if w.Commit >= 0 {
			return true
		}
	}
	return false
}

// helperMode says which granted heads (non-atomic) a replay gives helpers: every
// one, with helpers from any source (the former replay); those whose helpers can
// start where no worm or other helper does, the others going by timing; none,
// every granted head going by timing (schedule).
type helperMode int

const (
	allHelpers helperMode = iota
	someHelpers
	noHelpers
	// throughRequests: helpers for every granted head, whose paths may also
	// take VCs other heads request (never a chain's, never another helper's),
	// which they then hold as well: a VC a mesh's corner router alone feeds is
	// reached from a router no worm starts at only through the VCs the worm
	// whose head waits there requests (tried last, after the three above);
	// as allHelpers, from any router when no router no worm starts at will do
	throughRequests
)

// attemptFailed is an attempt's failure: the runs it made; whether the
// release times' constraints had a solution; and (non-atomic, helpers through
// requests) how many VCs the granted heads request besides the chains' no
// helper reaches from a router no worm starts at, even through other requests.
type attemptFailed struct {
	runs       int
	unschedule bool
	unhelped   int
}

func (n attemptFailed) Error() string { return fmt.Sprintf("not replayed in %d runs", n.runs) }

// replay is one attempt: pipeline p, helpers or none.
func (c *Config) replay(ctx context.Context, r sim.Routing, B int, pipe sim.Pipeline, tries int, mode helperMode, relax bool) (*ReplayResult, error) {
	g := c.g
	if tries == 0 {
		tries = 40
	}
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
	cfg := sim.Config{Net: g.Net, Routing: r, VCs: g.VCs, Buf: B, Pipeline: pipe, AtomicVC: c.Atomic, DeadlockCycles: 0}
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
	// timed[i]: worm i's head is to arrive after the tail VC it is granted has
	// been left by its tail (and is granted it at once), with no helper
	timed := make([]bool, len(packets))
	unhelped := 0 // (throughRequests) requests no helper reaches from a free router
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
		seen := map[int32]bool{} // VCs a helper holds (any hop of its path)
		order := make([]int, len(c.Worms))
		for i := range order {
			order[i] = i
		}
		if mode == throughRequests {
			// the heads with the most requests no helper from a router no worm
			// starts at reaches off the other requests first: their helpers,
			// through those requests, hold them as well
			hard := make([]int, len(c.Worms))
			counted := map[int32]bool{}
			for i, w := range c.Worms {
				if w.Commit < 0 {
					continue
				}
				for _, v := range g.Choices(w.head()) {
					if onChain[v] {
						continue
					}
					avoid := func(x int32) bool { return x != v && (onChain[x] || requested[x]) }
					if _, err := c.helper(ctx, v, 1, busySrc, avoid); err != nil {
						hard[i]++
					}
					through := func(x int32) bool { return x != v && onChain[x] }
					if _, err := c.helper(ctx, v, 1, busySrc, through); err != nil && !counted[v] {
						counted[v] = true
						unhelped++
					}
				}
			}
			sort.SliceStable(order, func(a, b int) bool { return hard[order[a]] > hard[order[b]] })
		}
		for _, i := range order {
			w := c.Worms[i]
			if w.Commit < 0 {
				continue
			}
			if mode == noHelpers {
				timed[i] = true
				continue
			}
			var mine []sim.Packet
			var mineHops [][]int64
			var mineVC []int32
			mineHeld := map[int32]bool{}
			taken := maps.Clone(busySrc)
			ok := true
			for _, v := range g.Choices(w.head()) {
				if onChain[v] || seen[v] || mineHeld[v] {
					continue
				}
				avoid := func(x int32) bool { return x != v && (onChain[x] || requested[x]) }
				if mode == throughRequests {
					avoid = func(x int32) bool { return x != v && (onChain[x] || seen[x] || mineHeld[x]) }
				}
				hp, err := c.helper(ctx, v, int(hold), taken, avoid)
				if err != nil && (mode == allHelpers || mode == throughRequests) {
					hp, err = c.helper(ctx, v, int(hold), map[int]bool{}, avoid)
				}
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					ok = false
					if mode == someHelpers {
						break // this head goes by timing instead
					}
					continue // no helper for v: the runs may still deadlock
				}
				res, err := sim.RunBatch(ctx, cfg, []sim.Packet{hp}, sim.BatchOptions{RecordHops: true})
				if err != nil {
					return nil, fmt.Errorf("deadlock: helper on %s alone: %v", g.ChannelName(v), err)
				}
				taken[hp.Src] = true
				mine = append(mine, hp)
				mineHops = append(mineHops, res.HeadArrivals[0])
				mineVC = append(mineVC, v)
				for _, x := range c.helperVCs(hp) {
					mineHeld[x] = true
				}
			}
			if !ok && mode == someHelpers {
				timed[i] = true
				continue
			}
			for k, hp := range mine {
				for _, x := range c.helperVCs(hp) {
					seen[x] = true
				}
				busySrc[hp.Src] = true
				at := mineHops[k][len(hp.Steer)-1]
				helpers = append(helpers, hp)
				helperArrive = append(helperArrive, at)
				helperHops = append(helperHops, mineHops[k])
				T = max(T, at+16)
			}
		}
	}
	all := append(slices.Clone(packets), helpers...)
	allHops := append(slices.Clone(hops), helperHops...)
	var release []int64
	slack := int64(0)
	if relax {
		// only where the constraints have no solution: the least slack (a
		// power of two, up to 256 cycles) on every head's constraints that
		// gives them one
		if c.schedule(all, allHops, arrive, finalHop, pipe, timed, 0) != nil {
			return nil, attemptFailed{}
		}
		for slack = 1; c.schedule(all, allHops, arrive, finalHop, pipe, timed, slack) == nil; slack *= 2 {
			if slack == 256 {
				return nil, attemptFailed{}
			}
		}
	}
	for round := 0; round < 3; round++ {
		release = c.schedule(all, allHops, arrive, finalHop, pipe, timed, slack)
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
			// (through requests: from its first hop, so that the tail leaves
			// the VCs before the last one no earlier than end either)
			at := helperHops[i][len(helperHops[i])-1]
			if mode == throughRequests {
				at = helperHops[i][0]
			}
			helpers[i].Flits = int(max(hold, end-(release[j]+at)))
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
	return nil, attemptFailed{runs: tries, unschedule: release == nil, unhelped: unhelped}
}

// schedule chooses release times under which every head, arriving, finds each VC
// it may request already taken by the worm whose chain holds it (or the helper
// that holds it for a while): for head i and a request held at hop k of packet j,
// R_j + (packet j alone: its head past hop k) <= R_i + (worm i alone: its head at
// its last router); and packets of one source one after the other. ps lists the
// worms, then the helpers. These are difference constraints, solved by Bellman-Ford; nil
// when they have no solution (the releases then make every head arrive together).
// slack loosens every head's constraint by that many cycles (relax in replay).
//
// A head that goes by timing (timed[i], non-atomic, no helper) instead arrives
// after the tail of the worm whose tail VC it is granted has left that VC's
// router: it is then granted that VC at once, whatever else is free.
//
// The pipeline's slack: a VC is allocated at least VCAlloc + SwAlloc + Traverse +
// Link cycles before its holder's head enters the next buffer, and a head
// requests Route cycles after it arrives (none of either on the ideal pipeline);
// a tail leaves a router SwAlloc + Traverse + Link cycles before it enters the
// next buffer.
func (c *Config) schedule(ps []sim.Packet, hops [][]int64, arrive []int64, final []int, pipe sim.Pipeline, timed []bool, slack int64) []int64 {
	g := c.g
	n := len(ps)
	type at struct{ worm, hop int }
	where := map[int32]at{}
	for j, w := range c.Worms {
		for k := range w.Nodes {
			where[g.held[w.Nodes[k]]] = at{j, final[j] - (len(w.Nodes) - 1 - k)}
		}
	}
	for j := len(c.Worms); j < n; j++ { // helpers: every hop (a helper's
		// earlier hops are VCs a head requests only through requests)
		for k, v := range c.helperVCs(ps[j]) {
			where[v] = at{j, k}
		}
	}
	type edge struct {
		from, to int
		w        int64
	}
	var base []edge // R_to <= R_from + w
	held := int64(pipe.Route + pipe.VCAlloc + pipe.SwAlloc + pipe.Traverse + pipe.Link - 1)
	left := int64(pipe.Route + pipe.SwAlloc + pipe.Traverse + pipe.Link - 2)
	for i, w := range c.Worms {
		if timed[i] {
			// worm j's tail enters the buffer after its tail VC Flits-1 cycles after
			// its head did, when nothing stops it
			x := where[w.Commit]
			j := x.worm
			tail := hops[j][x.hop] + int64(ps[j].Flits) - 1
			base = append(base, edge{i, j, arrive[i] + left - tail + slack})
			continue
		}
		for _, r := range g.Choices(w.head()) {
			if x, ok := where[r]; ok && x.worm != i && x.hop >= 0 {
				base = append(base, edge{i, x.worm, arrive[i] + held - hops[x.worm][x.hop] + slack})
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

// helperVCs lists the VCs a steered packet takes, hop by hop.
func (c *Config) helperVCs(p sim.Packet) []int32 {
	g := c.g
	vcs := make([]int32, len(p.Steer))
	at := p.Src
	for k, h := range p.Steer {
		vcs[k] = g.ChannelID(Channel{Router: at, Port: h.Port, VC: h.VC})
		at, _ = g.Net.Link(at, h.Port)
	}
	return vcs
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
