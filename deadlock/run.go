package deadlock

// Exact runs the whole decision for one routing: the state graph, the fixpoint,
// the girth and the formula (exact.go), the replay of a configuration, and the
// report as a value (what `wormlab deadlock` prints and writes as JSON).

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// ExactOptions tune Exact.
type ExactOptions struct {
	// Atomic is the VC reallocation rule; Buf the buffer depth in flits (B) the
	// replay uses and the packets' lengths are counted in.
	Atomic bool
	Buf    int
	// Budget bounds the estimated memory in bytes (0: none).
	Budget int64
	// NoReplay skips the replay in the simulator.
	NoReplay bool
	// MinimalTime bounds the SAT search for the fewest packets (0: none).
	MinimalTime time.Duration
	// AlternativeTime bounds the search for another configuration when the
	// first is not replayed (0: 10 s); at most 8 are tried either way.
	AlternativeTime time.Duration
	// Progress, when set, is told what the decision is doing.
	Progress func(string)
}

// Result is the report of Exact.
type Result struct {
	Topology string `json:"topology"`
	Routing  string `json:"routing"`
	VCs      int    `json:"vcs"`
	Buf      int    `json:"buf"`
	Atomic   bool   `json:"atomic_vc"`
	// Verdict is "deadlock-free" or "deadlock".
	Verdict string `json:"verdict"`
	// Method: fixpoint, girth, cycle, fill or sat (Verdict.Method).
	Method string `json:"method"`
	// Sizes: states enumerated (canonical when the routing declares Canon),
	// classes (nodes of the graph), source-destination pairs, VCs of the network,
	// VCs some state holds, VCs and states left by the fixpoint.
	States     int64 `json:"states"`
	Classes    int   `json:"classes"`
	Pairs      int   `json:"pairs"`
	Channels   int   `json:"channels"`
	Used       int   `json:"used"`
	Alive      int   `json:"fixpoint_vcs"`
	LiveStates int   `json:"fixpoint_states"`
	// Order counts the VCs in the fixpoint's order of deaths (the certificate of
	// a fixpoint verdict).
	Order int `json:"order,omitempty"`
	// SAT: the formula, when one was solved.
	SAT *SATStats `json:"sat,omitempty"`
	// LowerBound, Minimal: every configuration has at least LowerBound worms;
	// Minimal says the configuration's worms are proved the fewest.
	LowerBound int  `json:"lower_bound,omitempty"`
	Minimal    bool `json:"minimal,omitempty"`
	// Worms is the configuration.
	Worms []WormReport `json:"worms,omitempty"`
	// Replay is its run in the simulator.
	Replay *ReplayReport `json:"replay,omitempty"`
	// Seconds is the wall time (not in the JSON, which stays the same run to run).
	Seconds float64 `json:"-"`
	// Certificate is the directory written (set by the caller).
	Certificate string `json:"certificate,omitempty"`

	graph   *Graph
	verdict *Verdict
}

// SATStats describes the formula solved.
type SATStats struct {
	Vars    int     `json:"vars"`
	Clauses int     `json:"clauses"`
	Solves  int     `json:"solves"`
	Seconds float64 `json:"-"`
	// Refuted is the bound found unsatisfiable (0: none, or the formula without a
	// bound when the verdict is deadlock-free).
	Refuted int `json:"refuted,omitempty"`
}

// WormReport is one worm: a packet that builds it from its source.
type WormReport struct {
	Src   string `json:"src"`
	Dst   string `json:"dst"`
	Flits int    `json:"flits"`
	// Class and Aux are its routing state at the source.
	Class int32    `json:"class"`
	Aux   [3]int32 `json:"aux"`
	// Hops are the VCs it takes from its source, the last Holds of them being its
	// chain (tail to head).
	Hops  []string `json:"hops"`
	Holds int      `json:"holds"`
	// Head is the router its head is at; Requests the VCs it may request there;
	// Commit the one it has been granted (non-atomic), if any.
	Head     string   `json:"head"`
	Requests []string `json:"requests"`
	Commit   string   `json:"commit,omitempty"`
}

// alternatives and alternativeTime bound the search for another configuration
// of as many packets when the first is not replayed (alternativeTime unless
// ExactOptions.AlternativeTime says otherwise).
const (
	alternatives    = 8
	alternativeTime = 10 * time.Second
)

// ReplayReport is a replay's outcome.
type ReplayReport struct {
	Replayed bool `json:"replayed"`
	// Tries counts the runs; Cycle is when the detector stopped the run; Wait its
	// wait cycle (router, input port, VC, packet); Helpers the helper packets.
	Tries   int      `json:"tries,omitempty"`
	Cycle   int64    `json:"cycle,omitempty"`
	Wait    []string `json:"wait_cycle,omitempty"`
	Helpers int      `json:"helpers,omitempty"`
	// Alternatives counts the other configurations of as many packets tried
	// after the first was not replayed (the one reported is the one replayed).
	Alternatives int `json:"alternatives,omitempty"`
	// Pipeline is the preset of the run that deadlocked ("ideal", else
	// "booksim", wormlab sim's default: replay.go says why a run may need it).
	Pipeline string `json:"pipeline,omitempty"`
	// Unsteered: the same packets at the same times, without steering (the
	// simulator's own selection), deadlock too.
	Unsteered bool   `json:"unsteered"`
	Error     string `json:"error,omitempty"`
	// Packets is the batch (worms first), for re-running it.
	Packets []sim.Packet `json:"-"`
}

// Graph is the state graph the result was decided on.
func (r *Result) Graph() *Graph { return r.graph }

// Verdict is the decision's own result.
func (r *Result) Decision() *Verdict { return r.verdict }

// Exact decides deadlock freedom of f on net with vcs VCs exactly, and when it
// finds a deadlock configuration, the one with the fewest worms it can prove, and
// replays it. An interrupted decision returns the partial result and an error
// wrapping ErrInterrupted.
func Exact(ctx context.Context, net topology.Network, f Function, vcs int, name string, opt ExactOptions) (*Result, error) {
	start := time.Now()
	res := &Result{Topology: net.String(), Routing: name, VCs: vcs, Buf: opt.Buf, Atomic: opt.Atomic}
	if opt.Buf < 1 {
		return nil, fmt.Errorf("buffer depth %d below 1", opt.Buf)
	}
	g, err := Build(ctx, net, f, vcs, name, opt.Budget)
	if err != nil {
		if ctx.Err() != nil {
			return res, fmt.Errorf("deadlock: enumerating the states: %w", ErrInterrupted)
		}
		return nil, err
	}
	res.graph = g
	res.States, res.Classes, res.Pairs, res.Channels = g.States, g.Nodes(), g.Pairs, topology.Channels(net)*vcs
	for c := range g.Channels {
		if len(g.Holders(int32(c))) > 0 {
			res.Used++
		}
	}
	v, err := Decide(ctx, g, Options{Atomic: opt.Atomic, Minimal: true, Budget: opt.Budget, MinimalTime: opt.MinimalTime, Progress: opt.Progress})
	if v != nil {
		res.verdict = v
		res.Alive, res.LiveStates = v.Fix.AliveVCs, v.Fix.LiveNodes
		res.LowerBound = v.LowerBound
		if f := v.Formula; f != nil {
			res.SAT = &SATStats{Vars: f.Vars, Clauses: f.Clauses, Solves: v.Solves, Seconds: v.SolveTime.Seconds(), Refuted: v.Refuted}
		}
	}
	res.Seconds = time.Since(start).Seconds()
	if err != nil {
		return res, err
	}
	res.Method = v.Method
	if v.Free {
		res.Verdict = "deadlock-free"
		if v.Method == "fixpoint" {
			res.Order = len(v.Fix.Order)
		}
		return res, nil
	}
	res.Verdict = "deadlock"
	res.Minimal = v.MinimalProved
	rep := &ReplayReport{}
	if !opt.NoReplay {
		rr, err := v.Config.Replay(ctx, f, ReplayOptions{Buf: opt.Buf})
		if errors.Is(err, ErrNotReplayed) {
			// other configurations of as many packets, for a while
			first := err
			within := alternativeTime
			if opt.AlternativeTime > 0 {
				within = opt.AlternativeTime
			}
			alt, aerr := v.Alternatives(ctx, v.Config, alternatives, time.Now().Add(within), opt.Budget, func(c *Config) (bool, error) {
				rep.Alternatives++
				r, err := c.Replay(ctx, f, ReplayOptions{Buf: opt.Buf})
				if errors.Is(err, ErrNotReplayed) {
					return false, nil
				}
				rr = r
				return err == nil, err
			})
			var me *MemoryError
			switch {
			case alt != nil:
				v.Config, err = alt, nil
			case aerr == nil || errors.As(aerr, &me):
				err = first
			default:
				err = aerr
			}
		}
		switch {
		case err == nil:
			rep.Replayed, rep.Tries, rep.Cycle = true, rr.Tries, rr.Deadlock.At
			for _, w := range rr.Deadlock.Cycle {
				rep.Wait = append(rep.Wait, fmt.Sprintf("%s port %d vc %d packet %d", w.Name, w.Port, w.VC, w.Packet))
			}
			rep.Helpers = len(rr.Packets) - rr.Worms
			rep.Pipeline = rr.PipelineName
			rep.Packets = rr.Packets
			rep.Unsteered = v.Config.unsteered(ctx, f, rr, opt.Buf)
		case errors.Is(err, ErrNotReplayed):
			rep.Error = err.Error()
		case ctx.Err() != nil:
			res.Worms = v.Config.report(ctx, opt.Buf)
			res.Seconds = time.Since(start).Seconds()
			return res, fmt.Errorf("deadlock: replaying: %w", ErrInterrupted)
		default:
			return nil, err
		}
		res.Replay = rep
	}
	res.Worms = v.Config.report(ctx, opt.Buf)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// report describes the worms (their packets found again, for buffers of B flits).
func (c *Config) report(ctx context.Context, B int) []WormReport {
	g := c.g
	var out []WormReport
	for i, w := range c.Worms {
		var wr WormReport
		at, h := g.Rep(w.head())
		wr.Dst, wr.Head = topology.NodeName(g.Net, int(h.Dst)), topology.NodeName(g.Net, at)
		src, start, pre, err := g.Path(ctx, w.Nodes[0])
		if err == nil {
			wr.Src = topology.NodeName(g.Net, src)
			wr.Class, wr.Aux = start.Class, start.Aux
			for _, v := range pre {
				wr.Hops = append(wr.Hops, g.ChannelName(v))
			}
		}
		for _, n := range w.Nodes[1:] {
			wr.Hops = append(wr.Hops, g.ChannelName(g.held[n]))
		}
		wr.Holds = len(w.Nodes)
		for _, v := range g.Choices(w.head()) {
			wr.Requests = append(wr.Requests, g.ChannelName(v))
		}
		if w.Commit >= 0 {
			wr.Commit = g.ChannelName(w.Commit)
		}
		wr.Flits = c.flits(i, B)
		out = append(out, wr)
	}
	return out
}

// unsteered reruns a replay's batch without steering: the simulator's own
// selection from the same injections.
func (c *Config) unsteered(ctx context.Context, r sim.Routing, rr *ReplayResult, buf int) bool {
	if _, ok := r.(sim.Sensing); ok {
		r = unsensed{r}
	}
	batch := make([]sim.Packet, len(rr.Packets))
	for i, p := range rr.Packets {
		p.Steer = nil
		batch[i] = p
	}
	cfg := sim.Config{Net: c.g.Net, Routing: r, VCs: c.g.VCs, Buf: buf, Pipeline: rr.Pipeline, AtomicVC: c.Atomic, DeadlockCycles: int(rr.Deadlock.Idle) + 1}
	res, err := sim.RunBatch(ctx, cfg, batch, sim.BatchOptions{})
	var de *sim.DeadlockError
	return errors.As(err, &de) && c.confirms(res, de, batch, rr.Worms)
}
