package lower

// Adversarial path sets: a local search over the messages of an instance on a fixed
// network for one that maximises a ratio num/den, such as optimum / lower bound or
// greedy / optimum. Moves: reroute a worm, move one of its endpoints, add a worm,
// drop a worm. A move is kept when the ratio does not drop (plateaus are walked),
// and the best instance seen is returned. Everything random comes from the seed;
// with an iteration limit and deterministic measures the search is deterministic.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// Value is a measured quantity of an instance and how it was obtained ("solver
// optimum", "lower bound edge", "greedy", ...).
type Value struct {
	V   int    `json:"value"`
	How string `json:"how"`
}

// Measure evaluates one side of an adversary's ratio.
type Measure interface {
	Measure(ctx context.Context, in *model.Instance) (Value, error)
}

// MeasureFunc adapts a function to Measure.
type MeasureFunc func(ctx context.Context, in *model.Instance) (Value, error)

// Measure calls f.
func (f MeasureFunc) Measure(ctx context.Context, in *model.Instance) (Value, error) {
	return f(ctx, in)
}

// LowerMeasure measures the best lower bound of Best.
var LowerMeasure = MeasureFunc(func(_ context.Context, in *model.Instance) (Value, error) {
	b := Best(in)
	return Value{b.Value, "lower bound " + b.Name}, nil
})

// CDMeasure measures the classical lower bound max(c_L, max_i (d_i + L_i - 1)),
// the flit congestion and the dilation of MODEL.md (at least (c_L + d) / 2).
var CDMeasure = MeasureFunc(func(_ context.Context, in *model.Instance) (Value, error) {
	ms := in.Measure()
	v := ms.CL
	for i := range in.Messages {
		v = max(v, len(in.Messages[i].Path)+in.Messages[i].L-1)
	}
	return Value{v, "max(c_L, d + L - 1)"}, nil
})

// AdversaryConfig configures Adversary.
type AdversaryConfig struct {
	// Objective names the ratio (recorded in the result).
	Objective string
	// Num and Den measure the ratio's numerator and denominator (Den >= 1).
	Num, Den Measure
	// Messages is the number of worms to start with; MaxMessages caps add moves
	// (default 2 Messages). Flits is the length L of every worm.
	Messages, MaxMessages, Flits int
	// Seed seeds the start and every move.
	Seed uint64
	// Budget stops the search after this much time, Iterations after this many
	// moves; at least one must be set. Only Iterations is deterministic.
	Budget     time.Duration
	Iterations int
	// Progress, when set, is called after every move.
	Progress func(AdversaryProgress)
}

// AdversaryProgress reports the search after a move.
type AdversaryProgress struct {
	Iteration   int
	Ratio, Best float64
	Messages    int
	Elapsed     time.Duration
}

// AdversaryResult is the hardest instance found.
type AdversaryResult struct {
	// Instance carries the extra field "adversary" with the objective, the ratio,
	// both measured values and how they were obtained, the seed and the search
	// counts.
	Instance *model.Instance
	Num, Den Value
	Ratio    float64
	// Iterations moves were tried; Accepted kept; Improved raised the best ratio;
	// Failed could not be measured (skipped), the first of them for FirstFailure
	// (for example a greedy run that deadlocks).
	Iterations, Accepted, Improved, Failed int
	FirstFailure                           string
	// Interrupted is set when the context was cancelled (Ctrl-C): the result is the
	// best instance up to then.
	Interrupted bool
}

type worm struct {
	src, dst int
	path     []int
}

type adversary struct {
	t   *instances.Topology
	cfg AdversaryConfig
	r   *rand.Rand
}

// Adversary searches the path sets on the topology t for one maximising
// cfg.Num / cfg.Den. Cost per move: one evaluation of each measure plus O(sum d_i).
func Adversary(ctx context.Context, t *instances.Topology, cfg AdversaryConfig) (*AdversaryResult, error) {
	if cfg.Num == nil || cfg.Den == nil {
		return nil, fmt.Errorf("adversary: no measure for the ratio")
	}
	if cfg.Messages < 1 {
		return nil, fmt.Errorf("messages: %d is below 1", cfg.Messages)
	}
	if cfg.Flits < 1 {
		return nil, fmt.Errorf("flits: %d is below 1", cfg.Flits)
	}
	if cfg.Budget <= 0 && cfg.Iterations <= 0 {
		return nil, fmt.Errorf("set a time budget or an iteration limit")
	}
	if cfg.MaxMessages == 0 {
		cfg.MaxMessages = 2 * cfg.Messages
	}
	cfg.MaxMessages = max(cfg.MaxMessages, cfg.Messages)
	a := &adversary{t: t, cfg: cfg, r: rand.New(rand.NewPCG(cfg.Seed, 0x61647665727361))}
	start := time.Now()
	cur := make([]worm, 0, cfg.Messages)
	for len(cur) < cfg.Messages {
		w, ok := a.randomWorm()
		if !ok {
			return nil, fmt.Errorf("network %s: no two terminals are joined by a path", t.Kind())
		}
		cur = append(cur, w)
	}
	curIn := a.instance(cur)
	num, den, err := a.evaluate(ctx, curIn)
	if err != nil {
		return nil, err
	}
	res := &AdversaryResult{Instance: curIn, Num: num, Den: den, Ratio: ratio(num, den)}
	curNum, curDen := num, den
	for it := 1; ; it++ {
		if cfg.Iterations > 0 && it > cfg.Iterations {
			break
		}
		if cfg.Budget > 0 && time.Since(start) >= cfg.Budget {
			break
		}
		if ctx.Err() != nil {
			res.Interrupted = true
			break
		}
		res.Iterations++
		cand, ok := a.move(cur)
		if !ok {
			continue
		}
		in := a.instance(cand)
		n, d, err := a.evaluate(ctx, in)
		if err != nil {
			if ctx.Err() != nil {
				res.Interrupted = true
				break
			}
			if res.Failed == 0 {
				res.FirstFailure = err.Error()
			}
			res.Failed++
			continue
		}
		if ctx.Err() != nil {
			// Measured under a cancelled context (a solver cut short): not a value
			// to keep.
			res.Interrupted = true
			break
		}
		if n.V*curDen.V >= curNum.V*d.V {
			cur, curNum, curDen = cand, n, d
			res.Accepted++
			if n.V*res.Den.V > res.Num.V*d.V {
				res.Instance, res.Num, res.Den, res.Ratio = in, n, d, ratio(n, d)
				res.Improved++
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(AdversaryProgress{Iteration: it, Ratio: ratio(curNum, curDen), Best: res.Ratio, Messages: len(cur), Elapsed: time.Since(start)})
		}
	}
	res.Instance.SetExtra("adversary", map[string]any{
		"objective":   cfg.Objective,
		"ratio":       res.Ratio,
		"numerator":   res.Num,
		"denominator": res.Den,
		"evaluated":   res.Den.How,
		"seed":        cfg.Seed,
		"iterations":  res.Iterations,
		"accepted":    res.Accepted,
		"improved":    res.Improved,
	})
	return res, nil
}

func ratio(n, d Value) float64 {
	if d.V == 0 {
		return 0
	}
	return float64(n.V) / float64(d.V)
}

func (a *adversary) evaluate(ctx context.Context, in *model.Instance) (Value, Value, error) {
	n, err := a.cfg.Num.Measure(ctx, in)
	if err != nil {
		return n, Value{}, err
	}
	d, err := a.cfg.Den.Measure(ctx, in)
	if err != nil {
		return n, d, err
	}
	if d.V < 1 {
		return n, d, fmt.Errorf("adversary: denominator %d (%s) is below 1", d.V, d.How)
	}
	return n, d, nil
}

func (a *adversary) instance(ws []worm) *model.Instance {
	in := &model.Instance{Name: "adversary-" + a.t.Kind(), Net: a.t.Net, Flits: a.cfg.Flits}
	in.SetExtra("topology", a.t.Params)
	for i, w := range ws {
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: w.path, L: a.cfg.Flits})
	}
	return in
}

// route finds a path from src to dst: the topology's router under a random one of
// its routings, or, half of the time, a random simple path at most two hops longer
// than the router's.
func (a *adversary) route(src, dst int) ([]int, bool) {
	if src == dst {
		return nil, false
	}
	routing := a.t.Routings[a.r.IntN(len(a.t.Routings))]
	p, err := a.t.Path(src, dst, routing, a.r)
	if err != nil {
		return nil, false
	}
	if a.r.IntN(2) == 0 {
		if q, ok := randomSimplePath(a.t.Net, src, dst, len(p)+2, a.r); ok {
			return q, true
		}
	}
	return p, true
}

func (a *adversary) randomWorm() (worm, bool) {
	for try := 0; try < 100; try++ {
		s := a.t.Sources[a.r.IntN(len(a.t.Sources))]
		d := a.t.Dests[a.r.IntN(len(a.t.Dests))]
		if p, ok := a.route(s, d); ok {
			return worm{s, d, p}, true
		}
	}
	return worm{}, false
}

// move returns a copy of ws changed by one random move.
func (a *adversary) move(ws []worm) ([]worm, bool) {
	out := append([]worm(nil), ws...)
	i := a.r.IntN(len(out))
	switch k := a.r.IntN(6); {
	case k < 2: // reroute
		p, ok := a.route(out[i].src, out[i].dst)
		if !ok {
			return nil, false
		}
		out[i].path = p
	case k < 4: // move an endpoint
		w := out[i]
		if a.r.IntN(2) == 0 {
			w.src = a.t.Sources[a.r.IntN(len(a.t.Sources))]
		} else {
			w.dst = a.t.Dests[a.r.IntN(len(a.t.Dests))]
		}
		p, ok := a.route(w.src, w.dst)
		if !ok {
			return nil, false
		}
		w.path = p
		out[i] = w
	case k == 4: // add a worm
		if len(out) >= a.cfg.MaxMessages {
			return nil, false
		}
		w, ok := a.randomWorm()
		if !ok {
			return nil, false
		}
		out = append(out, w)
	default: // drop a worm
		if len(out) <= 1 {
			return nil, false
		}
		out = append(out[:i], out[i+1:]...)
	}
	return out, true
}

// randomSimplePath draws a path from src to dst of at most maxLen edges that
// repeats no node, by depth-first search in random order, expanding at most 4096
// nodes.
func randomSimplePath(net *model.Network, src, dst, maxLen int, r *rand.Rand) ([]int, bool) {
	onPath := map[int]bool{src: true}
	var path []int
	budget := 4096
	var dfs func(u int) bool
	dfs = func(u int) bool {
		if u == dst {
			return true
		}
		if len(path) >= maxLen || budget <= 0 {
			return false
		}
		budget--
		out := append([]int(nil), net.Out(u)...)
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		for _, e := range out {
			v := net.Edges[e].To
			if onPath[v] {
				continue
			}
			onPath[v] = true
			path = append(path, e)
			if dfs(v) {
				return true
			}
			path = path[:len(path)-1]
			delete(onPath, v)
		}
		return false
	}
	if !dfs(src) || len(path) == 0 {
		return nil, false
	}
	return path, true
}

// AdversaryReport is the shape of wormlab adversary --json: the ratio found, both
// sides with how they were measured, and the search's counts.
type AdversaryReport struct {
	Objective    string  `json:"objective"`
	Topology     string  `json:"topology"`
	Seed         uint64  `json:"seed"`
	Ratio        float64 `json:"ratio"`
	Numerator    Value   `json:"numerator"`
	Denominator  Value   `json:"denominator"`
	Worms        int     `json:"worms"`
	Flits        int     `json:"flits"`
	Iterations   int     `json:"iterations"`
	Accepted     int     `json:"accepted"`
	Improved     int     `json:"improved"`
	Failed       int     `json:"not_measurable"`
	FirstFailure string  `json:"first_failure,omitempty"`
	Interrupted  bool    `json:"interrupted,omitempty"`
}

// Report returns the result as an AdversaryReport for the named topology.
func (r *AdversaryResult) Report(cfg AdversaryConfig, topology string) AdversaryReport {
	return AdversaryReport{Objective: cfg.Objective, Topology: topology, Seed: cfg.Seed, Ratio: r.Ratio,
		Numerator: r.Num, Denominator: r.Den, Worms: len(r.Instance.Messages), Flits: cfg.Flits,
		Iterations: r.Iterations, Accepted: r.Accepted, Improved: r.Improved, Failed: r.Failed,
		FirstFailure: r.FirstFailure, Interrupted: r.Interrupted}
}
