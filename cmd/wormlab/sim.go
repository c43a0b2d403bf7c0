package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/simrun"
	"github.com/wormlab/wormlab/topology"
)

func init() {
	register(&command{
		name:    "sim",
		summary: "cycle-level network simulation: VC routers, credits, open-loop traffic or a batch",
		run:     runSim,
	})
}

func runSim(e *env) error {
	fs := newFlags(e, "sim", "",
		"Simulates input-queued wormhole routers with virtual channels and credit-based flow\n"+
			"control (package sim; docs/simulator.md). Open loop (the default): every node injects\n"+
			"packets at --rate flits/node/cycle (or --msg-rate packets/node/cycle) and the run\n"+
			"reports accepted load, mean latency (generation to tail delivery) with its 95%\n"+
			"interval after an MSER-5 warm-up, percentiles, and whether the point is saturated\n"+
			"(a saturated point prints no latency). A parameter flag may take a list A,B or a\n"+
			"range FROM:TO:STEP (--rates FROM:TO:STEP is --rate's): the cross product runs on\n"+
			"--workers cores, one row per point (--csv, or JSON Lines with --json).\n"+
			"--batch INSTANCE routes a MODEL.md instance's\n"+
			"messages on their fixed paths as a closed batch; with --theory (V=1, B=1, the ideal\n"+
			"pipeline, MODEL.md's pipelining rule) it writes the MODEL.md schedule, which equals\n"+
			"wormlab run's greedy schedule under --arb fixed (run --arb input) or round-robin,\n"+
			"with --rotate as run's default (run --rotate=false without it).")
	jf := simrun.BindJob(fs)
	memory := memoryFlagUsage(fs, "memory budget (e.g. 4G, 512M): a run whose estimate exceeds it is refused before it allocates; points run at once share it")
	args, err := parseFlags(fs, e.args, 0, -1)
	if err != nil {
		return err
	}
	budget, restore := memory()
	defer restore()
	job, err := jf.Job(args, simrun.Env{Open: func(path string) (io.Reader, func(), error) { return open(e, path) },
		CheckOutput: checkOutput, Implied: e.implied, MaxMemory: budget})
	for _, n := range job.Notes {
		fmt.Fprintf(e.stderr, "wormlab sim: config: %s\n", n)
	}
	if err != nil {
		return asUsage(err)
	}
	if job.Emit != "" {
		return writeOut(e, job.Emit, func(w io.Writer) error { _, err := io.WriteString(w, job.EmitText); return err })
	}
	ctx, stop := withTimeout(e, job.Timeout)
	defer stop()
	if job.Batch != "" {
		return runSimBatch(ctx, e, job, budget)
	}
	var progress io.Writer
	if e.stderrTTY {
		progress = e.stderr
	}
	rep, err := job.Execute(ctx, simrun.ExecOptions{MaxMemory: budget, Progress: progress})
	if err != nil {
		return asUsage(err)
	}
	if rep.Heatmap != nil {
		if err := writeOut(e, job.Heatmap, func(w io.Writer) error { return rep.Heatmap.Draw(w) }); err != nil {
			return err
		}
	}
	if err := writeOut(e, job.Out, func(w io.Writer) error { return job.Write(w, rep) }); err != nil {
		return err
	}
	if rep.Tracer != nil && len(rep.Done) > 0 {
		b, err := rep.Tracer.Bytes()
		if err != nil {
			return err
		}
		if err := writeOut(e, job.Trace, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
			return err
		}
		if rep.Tracer.Truncated() {
			fmt.Fprintf(e.stderr, "wormlab sim: --trace: %d packets selected; the trace stops at --trace-max %d events\n", rep.Tracer.Packets(), job.TraceSel.Max)
		}
	}
	if job.Plot != "" && len(rep.Done) > 0 {
		figs, err := job.Figures(rep)
		if err != nil {
			return fmt.Errorf("--plot: %v", err)
		}
		err = writeOut(e, job.Plot, func(w io.Writer) error {
			return figure.DrawColumn(w, figs, job.PlotFormat, figure.DefaultWidth, figure.DefaultHeight)
		})
		if err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return stopped(ctx, "%s", job.StopNote(rep))
	}
	return simRunError(rep.Err)
}

// asUsage is err as bad input (exit 2), as it is.
func asUsage(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return usageError("%v", err)
}

// simRunError maps the error of a point or a search to an exit status: a
// deadlock is a negative answer, a bad value or a memory budget too small bad
// input.
func simRunError(err error) error {
	if err == nil {
		return nil
	}
	var dl *sim.DeadlockError
	if errors.As(err, &dl) {
		return negative("%v", strings.TrimPrefix(err.Error(), "sim: "))
	}
	var se *simrun.Error
	if errors.As(err, &se) {
		return usageError("%v", se)
	}
	var me *sim.MemoryError
	if errors.As(err, &me) {
		return usageError("--max-memory: %s", strings.TrimPrefix(me.Error(), "sim: "))
	}
	return err
}

// runSimBatch routes a MODEL.md instance's messages as a closed batch (job.Batch),
// in the theory model with job.Theory.
func runSimBatch(ctx context.Context, e *env, job *simrun.Job, budget int64) error {
	in, err := readInstance(e, job.Batch)
	if err != nil {
		return err
	}
	cfg, err := job.Grid.Base.Router(topology.FromModel(in.Net))
	if err != nil {
		return usageError("%v", err)
	}
	cfg.MaxMemory = budget
	if job.Theory {
		return simTheory(ctx, e, in, cfg, job.Rotate, job.Out)
	}
	return simBatch(ctx, e, in, cfg, job.Out, job.JSON)
}

// batchPackets turns an instance's messages into packets on their fixed paths.
func batchPackets(in *model.Instance, net *topology.General) []sim.Packet {
	ps := make([]sim.Packet, len(in.Messages))
	for i, m := range in.Messages {
		path := make([]int, len(m.Path))
		for k, ed := range m.Path {
			path[k] = net.PortOf(ed)
		}
		ps[i] = sim.Packet{Src: in.Net.Edges[m.Path[0]].From, Dst: in.Net.Edges[m.Path[len(m.Path)-1]].To, Flits: m.L, Path: path}
	}
	return ps
}

type simBatchReport struct {
	// Interrupted: Ctrl-C or --timeout ended the batch; messages not delivered
	// have delivery and latency 0.
	Interrupted bool    `json:"interrupted,omitempty"`
	Makespan    int64   `json:"makespan"`
	Latency     float64 `json:"latency"`
	Cycles      int64   `json:"cycles"`
	Messages    []struct {
		ID        string `json:"id"`
		Delivered int64  `json:"delivered"`
		Latency   int64  `json:"latency"`
	} `json:"messages"`
}

func simBatch(ctx context.Context, e *env, in *model.Instance, cfg sim.Config, out string, jsonOut bool) error {
	net := cfg.Net.(*topology.General)
	res, err := sim.RunBatch(ctx, cfg, batchPackets(in, net), sim.BatchOptions{})
	cut := err != nil && ctx.Err() != nil && res != nil
	if err := batchErr(in, err); err != nil && !cut {
		return err
	}
	rep := simBatchReport{Makespan: res.Makespan, Cycles: res.Cycles, Interrupted: cut}
	delivered := 0
	rep.Messages = make([]struct {
		ID        string `json:"id"`
		Delivered int64  `json:"delivered"`
		Latency   int64  `json:"latency"`
	}, len(in.Messages))
	for i, m := range in.Messages {
		rep.Messages[i].ID = m.ID
		rep.Messages[i].Delivered = res.Delivered[i]
		rep.Messages[i].Latency = res.Latency[i]
		rep.Latency += float64(res.Latency[i]) / float64(len(in.Messages))
		if res.Delivered[i] > 0 || res.Latency[i] > 0 {
			delivered++
		}
	}
	werr := writeOut(e, out, func(w io.Writer) error {
		if jsonOut {
			return writeJSON(w, rep)
		}
		if cut {
			_, err := fmt.Fprintf(w, "%s after %d cycles: %d of %d messages delivered\n", stopReason(ctx), rep.Cycles, delivered, len(in.Messages))
			return err
		}
		fmt.Fprintf(w, "makespan %d, mean latency %.2f cycles, %d messages\n", rep.Makespan, rep.Latency, len(in.Messages))
		return nil
	})
	if werr != nil || !cut {
		return werr
	}
	return stopped(ctx, "%d of %d messages delivered", delivered, len(in.Messages))
}

// batchErr maps a batch's error to an exit status; a deadlock names the messages
// of the wait cycle (a batch released at 0 numbers its packets as its messages).
func batchErr(in *model.Instance, err error) error {
	if err == nil {
		return nil
	}
	var dl *sim.DeadlockError
	var ce *sim.ConfigError
	var me *sim.MemoryError
	switch {
	case errors.As(err, &me):
		return usageError("--max-memory: %s", strings.TrimPrefix(me.Error(), "sim: "))
	case errors.As(err, &dl):
		var b strings.Builder
		fmt.Fprintf(&b, "deadlock: no flit moved for %d cycles up to cycle %d with %d flits in the network", dl.Idle, dl.At, dl.Flits)
		if len(dl.Cycle) > 0 {
			b.WriteString("; wait cycle:")
			for _, w := range dl.Cycle {
				fmt.Fprintf(&b, " (node %s input %d vc %d message %q)", w.Name, w.Port, w.VC, in.Messages[w.Packet].ID)
			}
		}
		return negative("%s", b.String())
	case errors.As(err, &ce):
		return usageError("%v", strings.TrimPrefix(err.Error(), "sim: "))
	}
	return err
}

// simTheory runs the instance in the theory model and writes the MODEL.md schedule.
func simTheory(ctx context.Context, e *env, in *model.Instance, cfg sim.Config, rotate bool, out string) error {
	tc, ps := sim.TheoryConfig(in, cfg.Arbiter, cfg.Seed)
	tc.Rotate = rotate
	tc.DeadlockCycles = cfg.DeadlockCycles
	tc.MaxMemory = cfg.MaxMemory
	s, _, err := sim.TheoryRun(ctx, in, tc, ps)
	if err != nil && ctx.Err() != nil {
		return stopped(ctx, "no schedule (the batch did not end)")
	}
	if err := batchErr(in, err); err != nil {
		return err
	}
	return writeSchedule(e, out, s)
}
