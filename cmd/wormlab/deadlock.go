package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/internal/satarith"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

func init() {
	register(&command{
		name:    "deadlock",
		summary: "decide exactly whether a routing can deadlock: a proof, or the fewest packets that do, replayed in the simulator",
		run:     runDeadlock,
	})
}

func runDeadlock(e *env) error {
	fs := newFlags(e, "deadlock", "",
		"Decides exactly whether a routing can deadlock on a topology with V VCs, under a VC\n"+
			"reallocation rule (docs/deadlock.md). Every packet state is enumerated; a fixpoint\n"+
			"over the VCs proves most routings deadlock-free at once (it subsumes Dally and Seitz's\n"+
			"and Duato's conditions); what it leaves is decided by the girth of the request graph\n"+
			"and a SAT formula. Exit 0: deadlock-free, with the proof's kind; exit 1: a deadlock\n"+
			"configuration with the fewest packets the checker can prove, channel by channel,\n"+
			"replayed in the simulator from an empty network until its detector reports it.\n"+
			"--sufficient checks only Dally and Seitz's or Duato's condition (exit 1: a cycle).")
	topo := fs.String("topology", "", "network: "+topology.Kinds()+" (default torus:8x8, or a routing table's)")
	rname := fs.String("routing", "dor", "routing algorithm: "+strings.Join(routing.Names(), ", ")+", or table:FILE")
	vcs := fs.Int("vcs", 0, "virtual channels per physical channel (0: the algorithm's minimum)")
	buf := fs.Int("buf", 8, "flits per VC buffer: the replay's, and the packets' lengths")
	atomic := fs.String("atomic-vc", "auto", "VC reallocation: on (once the buffer is empty), off (once the tail has left), or auto (on for routings that rest on Duato's theorem, as sim does)")
	sufficient := fs.Bool("sufficient", false, "check only Dally and Seitz's or Duato's sufficient condition (the former behaviour)")
	noReplay := fs.Bool("no-replay", false, "do not replay a deadlock configuration in the simulator")
	svg := fs.String("svg", "", "draw the deadlock configuration as SVG to FILE (grids)")
	certDir := fs.String("certify", "", "write a certificate of the verdict to DIR (wormlab check-certificate DIR checks it)")
	timeout := fs.Duration("timeout", 0, "stop after this long (0: no limit)")
	minTime := fs.Duration("minimal-timeout", 30*time.Second, "time for the SAT search to prove a configuration the fewest packets, when the girth does not (0: no limit)")
	mem := byteSize(lower.DefaultMaxMemory) // the default of every command's --max-memory
	fs.Var(&mem, "max-memory", "memory budget for the state graph and the SAT formula (e.g. 500M, 2G); a network whose states cannot fit is refused before the enumeration")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	writeTable := fs.String("write-table", "", "write the routing as a routing table to FILE (docs/routing-table.md) and stop")
	if _, err := parseFlags(fs, e.args, 0, 0); err != nil {
		return err
	}
	// a table is written from every destination's states too, but keeps less of
	// them than the exact decision's graph: its own floor
	what, perPair := "enumerating", int64(deadlockPairBytes)
	if *writeTable != "" {
		what, perPair = "writing the routing table of", tablePairBytes
	}
	// refused before the network is built when its size, counted from the spec,
	// already says the enumeration cannot fit (a torus:2048x2048 took 0.8 GB and
	// seconds to build before the check below)
	if sz, ok := topology.SizeOf(*topo); ok {
		if err := pairsFit(what, *rname, *topo, "at least", satarith.Mul(sz.Sources, sz.Sinks)-min(sz.Sources, sz.Sinks), perPair, int64(mem)); err != nil {
			return err
		}
	}
	net, alg, need, err := networkRouting(*topo, *rname)
	if err != nil {
		return err
	}
	if *vcs == 0 {
		*vcs = need
	}
	if *vcs < 1 || *vcs > 64 {
		return usageError("--vcs: %d outside 1..64", *vcs)
	}
	if *buf < 1 {
		return usageError("--buf: %d, want at least 1", *buf)
	}
	if *buf > sim.MaxBuf {
		return usageError("--buf: %d above %d", *buf, sim.MaxBuf)
	}
	if *timeout < 0 {
		return usageError("--timeout: %v is negative", *timeout)
	}
	if *minTime < 0 {
		return usageError("--minimal-timeout: %v is negative", *minTime)
	}
	atomicVC := false
	switch *atomic {
	case "auto":
		atomicVC = alg.Atomic
	case "on":
		atomicVC = true
	case "off":
	default:
		return usageError("--atomic-vc: %q, want on, off or auto", *atomic)
	}
	for _, o := range []string{*svg, *writeTable} {
		if err := checkOutput(o); err != nil {
			return err
		}
	}
	if err := checkCertDir(*certDir); err != nil { // before the decision, not after it
		return err
	}
	// refused before the enumeration when even a lower bound on its states
	// cannot fit (issue 26: a 1024x1024 torus ran out of memory)
	if err := pairsFit(what, alg.Name, net.String(), "", deadlockPairs(net), perPair, int64(mem)); err != nil {
		return err
	}
	r, err := alg.New(net, *vcs)
	if err != nil {
		return usageError("--routing: %v", err)
	}
	if *writeTable != "" {
		if err := unused(e, fs, "with --write-table", "json", "timeout", "buf", "atomic-vc", "sufficient", "no-replay", "svg", "certify", "minimal-timeout"); err != nil {
			return err
		}
		return writeOut(e, *writeTable, func(w io.Writer) error {
			if err := routing.WriteTable(w, net, "", r, *vcs); err != nil {
				return usageError("--write-table: %s on %s: %v", alg.Name, net, err)
			}
			return nil
		})
	}
	if *sufficient { // nothing of the exact decision is run: its flags would be ignored
		if err := unused(e, fs, "with --sufficient (a sufficient condition: no configuration, replay or certificate)", "buf", "atomic-vc", "no-replay", "svg", "certify", "minimal-timeout"); err != nil {
			return err
		}
	}
	if *svg != "" {
		// a network --svg cannot draw is refused before the decision (it ran, wrote
		// its certificate and then exited 2 without its verdict)
		if err := deadlock.CheckSVG(net); err != nil {
			return usageError("%v", err)
		}
	}
	f, ok := r.(deadlock.Function)
	if !ok {
		return usageError("--routing: %s does not list its start states, so it cannot be enumerated", alg.Name)
	}
	ctx, stop := withTimeout(e, *timeout)
	defer stop()
	if *sufficient {
		return deadlockSufficient(ctx, e, net, f, *vcs, alg.Name, *asJSON)
	}
	rule := "off, once the previous tail has left"
	if atomicVC {
		rule = "on, once the buffer is empty"
	}
	if *atomic == "auto" {
		rule += " (auto)"
	}
	res, err := deadlock.Exact(ctx, net, f, *vcs, alg.Name, deadlock.ExactOptions{Atomic: atomicVC, Buf: *buf, Budget: int64(mem), NoReplay: *noReplay, MinimalTime: *minTime})
	if err != nil {
		var me *deadlock.MemoryError
		switch {
		case errors.As(err, &me):
			return negative("%v (--max-memory %s): nothing decided", me, mem.String())
		case errors.Is(err, deadlock.ErrInterrupted):
			// the convention of stopped: the output says it too
			msg := stoppedSoFar(stopReason(ctx), res, err)
			writeDeadlockStopped(e, *asJSON, net, alg.Name, *vcs, msg, msg)
			return negative("%s", msg)
		}
		return fmt.Errorf("%v", err)
	}
	if *certDir != "" {
		if err := writeDeadlockCertificate(ctx, e, *asJSON, net, alg.Name, *vcs, *certDir, *rname, res); err != nil {
			return err
		}
		res.Certificate = *certDir
	}
	switch {
	case *svg == "":
	case res.Verdict == "deadlock":
		if err := writeOut(e, *svg, func(w io.Writer) error { return deadlock.DrawSVG(w, res) }); err != nil {
			return err
		}
	default:
		// a file asked for and not written is said, not left to be noticed (a file
		// of the same name from an earlier run is left as it was)
		fmt.Fprintf(e.stderr, "wormlab deadlock: --svg: %s not written: %s on %s with %d VC(s) is deadlock-free, so there is no deadlock configuration to draw\n", *svg, alg.Name, net, *vcs)
	}
	if *asJSON {
		if err := writeJSON(e.stdout, res); err != nil {
			return err
		}
	} else {
		printExact(e.stdout, res, rule)
	}
	if res.Verdict == "deadlock" {
		return negative("%s on %s with %d VC(s): a deadlock configuration of %d packets", alg.Name, net, *vcs, len(res.Worms))
	}
	return nil
}

// writeDeadlockCertificate writes res's certificate into dir (certify.WriteDeadlock,
// which checks it). Stopped there (Ctrl-C, --timeout: the check's enumeration or
// the proof) it is a stop, not bad input: the output says so, as for a stopped
// decision, names the verdict decided and the certificate not written (dir left
// as it was), and the status is 1.
func writeDeadlockCertificate(ctx context.Context, e *env, asJSON bool, net topology.Network, name string, vcs int, dir, routingArg string, res *deadlock.Result) error {
	err := certify.WriteDeadlock(ctx, dir, routingArg, res)
	if err != nil && ctx.Err() != nil {
		msg := fmt.Sprintf("%s while writing the certificate to %s: %s decided, no certificate written", stopReason(ctx), dir, res.Verdict)
		writeDeadlockStopped(e, asJSON, net, name, vcs, msg, msg)
		return negative("%s", msg)
	}
	return err
}

// stoppedSoFar is what an exact check stopped early (why: stopReason's word) had
// decided.
func stoppedSoFar(why string, res *deadlock.Result, err error) string {
	switch {
	case res == nil || res.Classes == 0:
		return why + " while enumerating the states: nothing decided"
	case res.Alive > 0 && res.Verdict == "":
		return fmt.Sprintf("%s after the fixpoint (%d VCs and %d states may take part in a deadlock; every configuration has at least %d packets): not decided", why, res.Alive, res.LiveStates, res.LowerBound)
	case res.Verdict == "deadlock":
		return fmt.Sprintf("%s while replaying: a deadlock configuration of %d packets was found, not replayed", why, len(res.Worms))
	}
	return why + ": " + err.Error()
}

func printExact(w io.Writer, res *deadlock.Result, rule string) {
	fmt.Fprintf(w, "%s on %s with %d VC(s), %d-flit buffers, VC reallocation %s\n", res.Routing, res.Topology, res.VCs, res.Buf, rule)
	fmt.Fprintf(w, "states: %d enumerated, %d classes, %d source-destination pairs; %d VCs, %d held by packets short of their destination\n", res.States, res.Classes, res.Pairs, res.Channels, res.Used)
	if res.Alive == 0 {
		fmt.Fprintf(w, "fixpoint: no VC can be held in a deadlock (%d VCs removed one by one)\n", res.Order)
	} else {
		fmt.Fprintf(w, "fixpoint: %d VCs and %d states may take part in a deadlock\n", res.Alive, res.LiveStates)
	}
	if res.SAT != nil {
		fmt.Fprintf(w, "SAT: %d variables, %d clauses, %d solve(s)\n", res.SAT.Vars, res.SAT.Clauses, res.SAT.Solves)
	}
	if res.Verdict == "deadlock-free" {
		how := "the fixpoint is empty"
		if res.Method == "sat" {
			how = "the SAT formula of every configuration is unsatisfiable"
		}
		fmt.Fprintf(w, "DEADLOCK-FREE (exact): no deadlock configuration exists; %s\n", how)
		if res.Certificate != "" {
			fmt.Fprintf(w, "certificate: %s\n", res.Certificate)
		}
		return
	}
	fewest := fmt.Sprintf("every configuration has at least %d", res.LowerBound)
	switch {
	case res.Minimal && len(res.Worms) == res.LowerBound:
		fewest = fmt.Sprintf("the fewest: every configuration has at least %d, the girth of the request graph", res.LowerBound)
	case res.Minimal:
		fewest = fmt.Sprintf("the fewest: the SAT formula of %d is unsatisfiable", len(res.Worms)-1)
	}
	fmt.Fprintf(w, "DEADLOCK: a configuration of %d packets (%s)\n", len(res.Worms), fewest)
	for i, wm := range res.Worms {
		fmt.Fprintf(w, "packet %d: %s -> %s, %d flits; holds %s; head at %s", i+1, wm.Src, wm.Dst, wm.Flits, strings.Join(wm.Hops[len(wm.Hops)-wm.Holds:], ", "), wm.Head)
		if wm.Commit != "" {
			fmt.Fprintf(w, ", granted %s (full)\n", wm.Commit)
		} else {
			fmt.Fprintf(w, ", requests %s (all held)\n", strings.Join(wm.Requests, ", "))
		}
	}
	if rp := res.Replay; rp != nil {
		if !rp.Replayed {
			fmt.Fprintf(w, "replay: NOT replayed: %s", rp.Error)
			if rp.Alternatives > 0 {
				fmt.Fprintf(w, "; nor %d other configuration(s) of as many packets", rp.Alternatives)
			}
			fmt.Fprintln(w)
		} else {
			how := "the simulator's own selection, without steering, deadlocks the same way"
			if !rp.Unsteered {
				how = "with steering only (without it the packets take other VCs)"
			}
			helpers := ""
			if rp.Helpers > 0 {
				helpers = fmt.Sprintf(", %d helper packet(s) holding VCs a head could otherwise take until it was granted its own", rp.Helpers)
			}
			pipe := ""
			if rp.Pipeline != "ideal" {
				pipe = fmt.Sprintf(" on the %s pipeline (none on the ideal one deadlocked)", rp.Pipeline)
			}
			fmt.Fprintf(w, "replay: from an empty network%s the simulator's detector stopped the run at cycle %d with a wait cycle through the packets%s; %s\n", pipe, rp.Cycle, helpers, how)
			if rp.Alternatives > 0 {
				fmt.Fprintf(w, "replay: the first configuration found was not replayed; this one, of as many packets elsewhere, is (%d other(s) tried)\n", rp.Alternatives)
			}
		}
	}
	if res.Certificate != "" {
		fmt.Fprintf(w, "certificate: %s\n", res.Certificate)
	}
}

// deadlockSufficient is the former check: Dally and Seitz's or Duato's condition.
func deadlockSufficient(ctx context.Context, e *env, net topology.Network, f deadlock.Function, vcs int, name string, asJSON bool) error {
	rep, err := deadlock.Check(ctx, net, f, vcs, name)
	if err != nil {
		if ctx.Err() != nil {
			// the convention of stopped: the output says it too
			writeDeadlockStopped(e, asJSON, net, name, vcs, stopReason(ctx)+": nothing proved",
				stopReason(ctx)+" before the enumeration ended: nothing proved")
			return stopped(ctx, "the enumeration did not end: nothing proved")
		}
		return fmt.Errorf("%v", err)
	}
	if asJSON {
		if err := writeJSON(e.stdout, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "%s on %s with %d VC(s), %s's theorem\n", name, net, vcs, map[string]string{"dally-seitz": "Dally and Seitz", "duato": "Duato"}[rep.Theorem])
		fmt.Fprintf(e.stdout, "enumerated %d packet states over %d source-destination pairs\n", rep.States, rep.Pairs)
		fmt.Fprintf(e.stdout, "channels: %d virtual channels, %d used", rep.Channels, rep.Used)
		if rep.Theorem == "duato" {
			fmt.Fprintf(e.stdout, ", %d escape", rep.Escape)
		}
		fmt.Fprintf(e.stdout, "\ndependencies: %d\n", rep.Dependencies)
		switch {
		case rep.Disconnected != "":
			fmt.Fprintf(e.stdout, "NOT PROVED: the escape subfunction is not connected: %s\n", rep.Disconnected)
		case rep.Acyclic:
			fmt.Fprintf(e.stdout, "PROVED deadlock-free: the graph is acyclic; a topological order has %d levels\n", rep.Levels)
		default:
			fmt.Fprintf(e.stdout, "CYCLE of %d channels: %s\n", len(rep.Cycle), rep.CycleString())
		}
	}
	if !rep.OK() {
		if rep.Disconnected != "" {
			return negative("%s on %s with %d VC(s): escape subfunction not connected", name, net, vcs)
		}
		return negative("%s on %s with %d VC(s): dependency cycle of %d channels (the condition fails; the exact check, without --sufficient, decides)", name, net, vcs, len(rep.Cycle))
	}
	return nil
}

// writeDeadlockStopped writes the output of a decision or check stopped early
// (the convention of stopped): as JSON, the routing, the network and the reason;
// as text, one line with why.
func writeDeadlockStopped(e *env, asJSON bool, net topology.Network, name string, vcs int, reason, why string) {
	if asJSON {
		writeJSON(e.stdout, struct {
			Topology    string `json:"topology"`
			Routing     string `json:"routing"`
			VCs         int    `json:"vcs"`
			Interrupted bool   `json:"interrupted"`
			Reason      string `json:"reason"`
		}{net.String(), name, vcs, true, reason})
		return
	}
	fmt.Fprintf(e.stdout, "%s on %s with %d VC(s): %s\n", name, net, vcs, why)
}
