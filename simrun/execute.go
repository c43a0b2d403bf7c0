package simrun

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/sim"
)

// Options say how Execute runs a grid's points.
type Options struct {
	// Workers is the number of points run at once (<= 0: GOMAXPROCS).
	Workers int
	// Progress, when set, is called (from one goroutine at a time) after each point
	// with the number done and the total.
	Progress func(done, total int)
	// Prepare, when set, may adjust a point's simulation before it runs (a trace,
	// per-node statistics); it is called on the point's own goroutine.
	Prepare func(pt *Point, b *Built)
	// MaxMemory, when positive, is the memory budget of all the points running
	// at once: a point whose estimate (sim.OpenBytes) is above it fails with a
	// *sim.MemoryError before it allocates, and a point starts only when its
	// estimate fits beside those running. A point's outcome so does not depend on
	// the number of workers.
	MaxMemory int64
}

// pool is a budget of bytes shared by the points running: take waits until n
// bytes are free (or ctx ends), give returns them.
type pool struct {
	mu    sync.Mutex
	free  int64
	freed chan struct{} // closed, and replaced, at every give
}

func newPool(n int64) *pool { return &pool{free: n, freed: make(chan struct{})} }

func (p *pool) take(ctx context.Context, n int64) error {
	for {
		p.mu.Lock()
		if p.free >= n {
			p.free -= n
			p.mu.Unlock()
			return nil
		}
		ch := p.freed
		p.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (p *pool) give(n int64) {
	p.mu.Lock()
	p.free += n
	close(p.freed)
	p.freed = make(chan struct{})
	p.mu.Unlock()
}

// Outcome is what running one point gave.
type Outcome struct {
	Point  Point
	Result *sim.Result
	Err    error
	// Done says the point ran to its end; a point cut short by the context has
	// Done false (and may have a partial Result).
	Done bool
	// Worker is the worker that ran it, CPU its CPU time (the worker's goroutine
	// is locked to its OS thread; 0 where the system cannot tell).
	Worker int
	CPU    time.Duration
	// Wall is the point's elapsed time, Waited the part of it its thread spent
	// runnable but waiting for a core (other processes' load; 0 where the system
	// cannot tell). Wall - Waited is the time the thread ran or was blocked: an
	// upper bound on the point's time with the cores to itself, since load
	// lengthens blocking too (BenchmarkRates20's quiet-ms).
	Wall, Waited time.Duration
}

// RunOne simulates one run: Build, then sim.RunOpen. prepare may adjust the
// simulation first (nil: none).
func RunOne(ctx context.Context, r Run, prepare func(*Built)) (*sim.Result, error) {
	return runBudget(ctx, r, prepare, 0, nil)
}

// runBudget is RunOne within a memory budget (0: none) shared through p.
func runBudget(ctx context.Context, r Run, prepare func(*Built), budget int64, p *pool) (*sim.Result, error) {
	if err := r.CheckFloor(budget); err != nil {
		return nil, err
	}
	b, err := r.Build()
	if err != nil {
		return nil, err
	}
	if prepare != nil {
		prepare(b)
	}
	if budget > 0 {
		b.Config.MaxMemory = budget
		if need := sim.OpenBytes(&b.Config, b.Workload, b.Measure); need <= budget && p != nil {
			if err := p.take(ctx, need); err != nil {
				return nil, err
			}
			defer p.give(need)
		}
	}
	res, err := sim.RunOpen(ctx, b.Config, b.Workload, b.Measure)
	if err != nil {
		return res, simError(err)
	}
	return res, nil
}

// Execute runs the points on opt.Workers goroutines and returns their outcomes in
// the points' order. Each point is a function of its Run alone (its seed
// included), so the outcomes do not depend on the number of workers or on which
// worker ran what. Points start in decreasing order of offered load, the longest
// first (a stable point near saturation runs to its cycle budget), so that the
// last to finish is a short one. When ctx ends, the points running are cut short
// (Done false) and those not started are left out (Result nil, Done false).
func Execute(ctx context.Context, pts []Point, opt Options) []Outcome {
	out := make([]Outcome, len(pts))
	for i := range pts {
		out[i].Point = pts[i]
	}
	order := make([]int, len(pts))
	for i := range order {
		order[i] = i
	}
	load := make([]float64, len(pts))
	for i := range pts {
		load[i] = pts[i].Run.Offered()
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(load[b], load[a]) })
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(pts)))
	// the cores shared among the points run at once (a run's threads do not
	// change its result)
	threads := max(1, runtime.GOMAXPROCS(0)/workers)
	jobs := make(chan int)
	var budget *pool
	if opt.MaxMemory > 0 {
		budget = newPool(opt.MaxMemory)
	}
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // so that the thread's CPU time is the points'
			defer runtime.UnlockOSThread()
			for i := range jobs {
				c0, _ := cputime.Thread()
				w0, _ := cputime.Waited()
				t0 := time.Now()
				pt := &out[i].Point
				prep := func(b *Built) {
					if workers > 1 && b.Config.Threads == 0 {
						b.Config.Threads = threads
					}
					if opt.Prepare != nil {
						opt.Prepare(pt, b)
					}
				}
				res, err := runBudget(ctx, pt.Run, prep, opt.MaxMemory, budget)
				o := &out[i]
				o.Result, o.Err = res, err
				c1, _ := cputime.Thread()
				w1, _ := cputime.Waited()
				o.Worker, o.CPU, o.Wall, o.Waited = wk, c1-c0, time.Since(t0), w1-w0
				o.Done = err == nil || ctx.Err() == nil
				mu.Lock()
				if o.Done {
					done++
				}
				if opt.Progress != nil && o.Done {
					opt.Progress(done, len(pts))
				}
				mu.Unlock()
			}
		}()
	}
	for _, i := range order {
		if ctx.Err() != nil {
			break
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	return out
}
