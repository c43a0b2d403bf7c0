package adversary

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"
)

// Config configures Search.
type Config struct {
	Space     *Space
	Objective Objective
	Strategy  Strategy
	// Ranking orders candidates of equal ratio (nil: fewest).
	Ranking Ranking
	// Mix is the moves and their weights (zero value: DefaultMix).
	Mix Mix
	// Start is the set every chain starts from (nil: random sets of Messages worms).
	Start    *Set
	Messages int
	// Name names the candidates' instances.
	Name string
	Seed uint64
	// Workers is the number of chains, each on its own goroutine (0: GOMAXPROCS).
	Workers int
	// Iterations stops each chain after that many moves; Timeout after that much
	// wall time; CPU after the process has used that much CPU time (all chains
	// together). At least one must be set. Only Iterations is deterministic.
	Iterations int
	Timeout    time.Duration
	CPU        time.Duration
	// Stop ends the search once a chain's best ratio reaches it (0: never); the
	// other chains see it at the next synchronisation and stop too.
	Stop float64
	// SyncEvery is the number of moves between synchronisations (0: 32).
	SyncEvery int
	// Trace, when set, receives a row at each chain's start, improvement and end,
	// and at its synchronisations, at most one per TraceEvery of wall time and
	// chain (0: every one); calls are serialised.
	Trace      func(TraceRow)
	TraceEvery time.Duration
}

// TraceRow is one line of the progress trace (JSON Lines; wormlab plot draws it,
// e.g. --x t --y best --series chain).
type TraceRow struct {
	// T and CPU are the wall and process CPU seconds since the search started.
	T   float64 `json:"t"`
	CPU float64 `json:"cpu"`
	// Chain numbers the chain; Event is "start", "improved", "sync" or "end".
	Chain int    `json:"chain"`
	Event string `json:"event"`
	// Moves and Evaluations are the chain's counts.
	Moves       int `json:"moves"`
	Evaluations int `json:"evaluations"`
	// Best is the chain's best ratio, with its numerator, denominator and worm
	// count; Global the best of all chains as of the last synchronisation.
	Best   float64 `json:"best"`
	Num    int     `json:"num"`
	Den    int     `json:"den"`
	Worms  int     `json:"worms"`
	Global float64 `json:"global"`
}

// ChainStats are one chain's counts.
type ChainStats struct {
	Moves       int     `json:"moves"`
	Evaluations int     `json:"evaluations"`
	Failed      int     `json:"not_measurable"`
	Best        float64 `json:"best"`
}

// Result is what Search found.
type Result struct {
	// Best is the best candidate of all chains (ties: the lower chain).
	Best   Candidate
	Chains []ChainStats
	// Moves, Evaluations and Failed are summed over the chains; FirstFailure is the
	// first failure of the lowest chain that had one.
	Moves, Evaluations, Failed int
	FirstFailure               string
	// Interrupted is set when the context was cancelled (Ctrl-C): Best is the best
	// candidate measured before.
	Interrupted bool
	Elapsed     time.Duration
	CPU         time.Duration
}

type engine struct {
	cfg       Config
	ctx       context.Context
	t0        time.Time
	cpu0      time.Duration
	syncEvery int
	hub       *hub
	traceMu   sync.Mutex
}

// Search runs Config.Workers chains of the strategy at once, each from the start
// (or random sets), sharing the best candidate every SyncEvery moves: at each
// synchronisation every chain publishes its best and waits for the others, so
// what a chain sees of the others depends only on the seed and the number of
// workers, and a search bounded by Iterations is deterministic (with objectives
// that are: the solver within a time limit is not, where it times out). The
// context's cancellation (Ctrl-C) stops every chain at its next step; Result then
// holds the best candidate measured so far. Errors: a space or configuration the
// search cannot use, or no candidate measurable at all.
func Search(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Space.Check(); err != nil {
		return nil, err
	}
	switch {
	case cfg.Objective == nil:
		return nil, fmt.Errorf("adversary: no objective")
	case cfg.Strategy == nil:
		return nil, fmt.Errorf("adversary: no strategy")
	case cfg.Iterations <= 0 && cfg.Timeout <= 0 && cfg.CPU <= 0:
		return nil, fmt.Errorf("adversary: set a move limit, a time or a CPU budget")
	case cfg.Workers < 0:
		return nil, fmt.Errorf("workers: %d is below 1", cfg.Workers)
	case cfg.Start == nil && cfg.Messages < 1:
		return nil, fmt.Errorf("messages: %d is below 1", cfg.Messages)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Ranking == nil {
		cfg.Ranking = fewest{}
	}
	if cfg.Mix.total == 0 {
		cfg.Mix = DefaultMix()
	}
	cfg.Space.Prepare()
	if cfg.Start == nil {
		if _, err := cfg.Space.RandomSet(1, rand.New(rand.NewPCG(cfg.Seed, 0))); err != nil {
			return nil, err
		}
	}
	parent := ctx
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	e := &engine{cfg: cfg, ctx: ctx, t0: time.Now(), cpu0: processCPU(), syncEvery: cfg.SyncEvery}
	if e.syncEvery <= 0 {
		e.syncEvery = 32
	}
	e.hub = newHub(cfg.Workers)
	chains := make([]*Chain, cfg.Workers)
	var wg sync.WaitGroup
	for i := range chains {
		c := &Chain{ID: i, R: rand.New(rand.NewPCG(cfg.Seed, 0x616476657273+uint64(i))), e: e}
		chains[i] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.traceRow(c, "start")
			cfg.Strategy.Run(c)
			e.hub.leave(c.ID, c.best)
			e.traceRow(c, "end")
		}()
	}
	wg.Wait()
	res := &Result{Interrupted: parent.Err() != nil, Elapsed: time.Since(e.t0), CPU: processCPU() - e.cpu0}
	for _, c := range chains {
		res.Chains = append(res.Chains, ChainStats{Moves: c.moves, Evaluations: c.evals, Failed: c.failed, Best: c.best.Ratio()})
		res.Moves += c.moves
		res.Evaluations += c.evals
		res.Failed += c.failed
		if res.FirstFailure == "" {
			res.FirstFailure = c.first
		}
		if Better(c.best, res.Best) {
			res.Best = c.best
		}
	}
	if !res.Best.Valid() {
		if res.Failed > 0 {
			return res, fmt.Errorf("adversary: no candidate could be measured (%d failures; the first: %s)", res.Failed, res.FirstFailure)
		}
		return res, fmt.Errorf("adversary: no candidate was measured")
	}
	return res, nil
}

func (e *engine) traceRow(c *Chain, event string) {
	if e.cfg.Trace == nil {
		return
	}
	if event == "sync" && e.cfg.TraceEvery > 0 {
		if now := time.Now(); now.Sub(c.traced) < e.cfg.TraceEvery {
			return
		} else {
			c.traced = now
		}
	}
	e.traceMu.Lock()
	defer e.traceMu.Unlock()
	row := TraceRow{T: time.Since(e.t0).Seconds(), CPU: (processCPU() - e.cpu0).Seconds(), Chain: c.ID, Event: event,
		Moves: c.moves, Evaluations: c.evals, Best: c.best.Ratio(), Global: c.shared.Ratio()}
	if c.best.Valid() {
		row.Num, row.Den, row.Worms = c.best.Score.Num.V, c.best.Score.Den.V, len(c.best.Set.Worms)
	}
	row.Global = max(row.Global, row.Best)
	e.cfg.Trace(row)
}

// hub synchronises the chains: at each round every running chain publishes its
// best and waits until all have; the round's shared best is the best published
// (ties: the lower chain), so it does not depend on the order of arrival. A chain
// that stops leaves, publishing its final best.
type hub struct {
	mu      sync.Mutex
	cond    *sync.Cond
	active  int
	arrived int
	round   int
	slots   []Candidate
	shared  Candidate
}

func newHub(n int) *hub {
	h := &hub{active: n, slots: make([]Candidate, n)}
	h.cond = sync.NewCond(&h.mu)
	return h
}

func (h *hub) sync(id int, best Candidate) Candidate {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.slots[id] = best
	h.arrived++
	if r := h.round; h.arrived < h.active {
		for h.round == r {
			h.cond.Wait()
		}
	} else {
		h.finish()
	}
	return h.shared
}

func (h *hub) leave(id int, best Candidate) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.slots[id] = best
	h.active--
	if h.arrived > 0 && h.arrived >= h.active {
		h.finish()
	}
}

// finish closes a round (h.mu held).
func (h *hub) finish() {
	var best Candidate
	for _, c := range h.slots {
		if Better(c, best) {
			best = c
		}
	}
	h.shared = best
	h.arrived = 0
	h.round++
	h.cond.Broadcast()
}
