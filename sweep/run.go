package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"
)

// Runner runs one point: its command with its parameters and seed, giving the
// measured values (JSON-able) or an error (recorded as the point's failure).
type Runner interface {
	Run(ctx context.Context, p Point) (map[string]any, error)
}

// Options says how to run a sweep.
type Options struct {
	Workers  int   // points run at once (<= 0: GOMAXPROCS)
	Shard    Shard // the part of the points to run (zero value: all)
	Version  string
	Progress io.Writer // a terminal for the progress line, or nil
	// Note receives one-line remarks (a torn last line dropped); nil: none.
	Note func(string)
	// RetryFailed drops failed records of the file and runs their points again.
	RetryFailed bool
}

// Summary is what a sweep did.
type Summary struct {
	Points  int // in the shard
	Skipped int // already in the results file
	Done    int // run now (ok or failed)
	Failed  int // of Done
	// Interrupted is set when the context was cancelled before every point ran; the
	// records of the points finished are in the file, whole.
	Interrupted bool
}

// Run runs the spec's points of the shard that the results file at path does not
// hold yet, on opt.Workers goroutines, appending one record per point as it
// finishes. It returns when every point has run or ctx is cancelled; a cancelled
// sweep returns at once, leaving points still running unrecorded (a rerun does them).
func Run(ctx context.Context, s *Spec, r Runner, path string, opt Options) (*Summary, error) {
	shard := opt.Shard
	if shard.N == 0 {
		shard = All
	}
	hash := s.Hash()
	res, have, torn, err := OpenResults(path, hash)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	if torn && opt.Note != nil {
		opt.Note(fmt.Sprintf("%s: dropped a torn last line (a record cut short by a crash); its point runs again", path))
	}
	if opt.RetryFailed {
		var kept []*Record
		for _, rec := range have {
			if rec.Status != StatusFailed {
				kept = append(kept, rec)
			}
		}
		if len(kept) < len(have) {
			res.Close()
			if err := Rewrite(path, kept); err != nil {
				return nil, err
			}
			if res, _, _, err = OpenResults(path, hash); err != nil {
				return nil, err
			}
			have = kept
		}
	}
	done := make(map[string]bool, len(have))
	for _, rec := range have {
		done[rec.Key] = true
	}
	pts := shard.Select(s.Points())
	sum := &Summary{Points: len(pts)}
	var todo []Point
	for _, p := range pts {
		if done[p.Key] {
			sum.Skipped++
		} else {
			todo = append(todo, p)
		}
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(len(todo), 1))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan Point)
	out := make(chan *Record, workers)
	for range workers {
		go func() {
			for p := range jobs {
				rec, ok := runPoint(ctx, s, r, p, hash, opt.Version)
				if !ok {
					return
				}
				select {
				case out <- rec:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, p := range todo {
			select {
			case jobs <- p:
			case <-ctx.Done():
				return
			}
		}
	}()

	prog := newProgress(opt.Progress, len(todo), sum.Skipped)
	defer prog.finish()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for sum.Done < len(todo) {
		select {
		case rec := <-out:
			if err := res.Append(rec); err != nil {
				return sum, err
			}
			sum.Done++
			if rec.Status == StatusFailed {
				sum.Failed++
			}
			prog.update(sum.Done, sum.Failed, false)
		case <-tick.C:
			prog.update(sum.Done, sum.Failed, true)
		case <-ctx.Done():
			// Take the records already finished, then stop.
			for {
				select {
				case rec := <-out:
					if err := res.Append(rec); err != nil {
						return sum, err
					}
					sum.Done++
					if rec.Status == StatusFailed {
						sum.Failed++
					}
					continue
				default:
				}
				break
			}
			sum.Interrupted = sum.Done < len(todo)
			return sum, res.Close()
		}
	}
	return sum, res.Close()
}

// runPoint runs p on a goroutine of its own, locked to its OS thread so that the
// thread's CPU time is the point's (the command's own helper goroutines are not
// counted). ok is false when ctx was cancelled first.
func runPoint(ctx context.Context, s *Spec, r Runner, p Point, hash, version string) (*Record, bool) {
	type result struct {
		values map[string]any
		err    error
		cpu    float64
	}
	pctx := ctx
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	ch := make(chan result, 1)
	start := time.Now()
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0, _ := threadCPU()
		var res result
		defer func() {
			if v := recover(); v != nil {
				res = result{err: fmt.Errorf("panic: %v", v)}
			}
			c1, _ := threadCPU()
			res.cpu = c1 - c0
			ch <- res
		}()
		res.values, res.err = r.Run(pctx, p)
	}()
	rec := &Record{Key: p.Key, Spec: hash, Command: p.Command, Params: p.Params, Replication: p.Replication, Seed: p.Seed, Version: version}
	select {
	case res := <-ch:
		rec.WallMS = ms(time.Since(start))
		rec.CPUMS = res.cpu
		rec.Values = res.values
		rec.Status = StatusOK
		if res.err != nil {
			if ctx.Err() != nil {
				return nil, false // interrupted, not failed
			}
			rec.Status, rec.Message = StatusFailed, oneLine(res.err.Error())
			if errors.Is(res.err, context.DeadlineExceeded) && s.Timeout > 0 {
				rec.Message = fmt.Sprintf("timeout after %v: %s", s.Timeout, rec.Message)
			}
		}
	case <-pctx.Done():
		if ctx.Err() != nil {
			return nil, false
		}
		rec.WallMS = ms(time.Since(start))
		rec.Status, rec.Message = StatusFailed, fmt.Sprintf("timeout after %v", s.Timeout)
	}
	return rec, true
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

func oneLine(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '\n' || c == '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

// progress draws "done/total, rate, ETA, failures" on one terminal line.
type progress struct {
	w       io.Writer
	total   int
	skipped int
	start   time.Time
	last    time.Time
	drawn   bool
}

func newProgress(w io.Writer, total, skipped int) *progress {
	return &progress{w: w, total: total, skipped: skipped, start: time.Now()}
}

func (p *progress) update(done, failed int, tick bool) {
	if p.w == nil {
		return
	}
	now := time.Now()
	if !tick && now.Sub(p.last) < 100*time.Millisecond && done < p.total {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	rate := float64(done) / max(el, 1e-9)
	eta := "?"
	if done > 0 {
		eta = time.Duration(float64(p.total-done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r\x1b[Ksweep: %d/%d points (%d skipped), %.1f/s, ETA %s, %d failed", done, p.total, p.skipped, rate, eta, failed)
	p.drawn = true
}

func (p *progress) finish() {
	if p.w != nil && p.drawn {
		fmt.Fprintln(p.w)
	}
}
