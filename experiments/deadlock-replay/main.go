// Command deadlock-replay sweeps wormlab deadlock's exact decision (package
// deadlock) over the registry of routings on small networks and lists the
// deadlock verdicts whose configuration the replay does not reach in the
// simulator (docs/deadlock.md, the replay): every registered routing that
// accepts the network, at its VC count, one fewer and one more, under both VC
// reallocation rules, and for each deadlock verdict every buffer depth given (the
// decision does not depend on the depth, the replay does). The search for
// another configuration is bounded by its count (8), not by the clock, so that a
// loaded machine gives the same list; the proof that a configuration has the
// fewest packets, though, by 10 s of the clock ("not proved fewest" beyond: a
// heavily loaded machine may list more so, or a configuration of more packets);
// each case is bounded by -timeout.
//
//	go run ./experiments/deadlock-replay [-topologies LIST] [-bufs 2,8,32] OUTDIR
//
// It writes OUTDIR/results.jsonl (one line per case) and OUTDIR/summary.md (the
// counts, and every verdict not replayed); experiments/deadlock-replay holds the
// committed run, which docs/deadlock.md quotes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// Row is one case.
type Row struct {
	Topology string `json:"topology"`
	Routing  string `json:"routing"`
	VCs      int    `json:"vcs"`
	Atomic   bool   `json:"atomic_vc"`
	Buf      int    `json:"buf"`
	// Verdict: deadlock-free, deadlock, or error (the case's bound reached, or
	// the routing refused).
	Verdict  string `json:"verdict"`
	Packets  int    `json:"packets,omitempty"`
	Minimal  bool   `json:"minimal,omitempty"`
	Replayed bool   `json:"replayed,omitempty"`
	Pipeline string `json:"pipeline,omitempty"`
	// Alternatives counts the other configurations tried.
	Alternatives int    `json:"alternatives,omitempty"`
	Helpers      int    `json:"helpers,omitempty"`
	Error        string `json:"error,omitempty"`
}

const defaultTopologies = "mesh:3x3;mesh:4x4;mesh:5x5;mesh:6x6;mesh:2x5;torus:3x3;torus:4x4;torus:5x5;torus:6x6;torus:5;torus:6;torus:2x4;hyperx:3x3,k=2;hyperx:3x3,t=1;cmesh:3x3,c=2;fattree:16;dragonfly:a=3,p=1,h=1;fly:k=2,n=3"

func main() {
	err := sweep(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return // -h: the flags were listed
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "deadlock-replay:", err)
		os.Exit(2)
	}
}

// sweep runs the command on args, logging each case to log. Every flag and
// name is checked before OUTDIR is touched, and the results are written
// beside their final names and renamed there only at the end, so that bad
// input or an interrupted run leaves a committed run whole.
func sweep(args []string, log io.Writer) error {
	fs := flag.NewFlagSet("deadlock-replay", flag.ContinueOnError)
	fs.SetOutput(log)
	topos := fs.String("topologies", defaultTopologies, "networks, separated by ;")
	bufs := fs.String("bufs", "2,8,32", "buffer depths of each deadlock verdict")
	routings := fs.String("routings", "", "routings, separated by , (default: the registry)")
	timeout := fs.Duration("timeout", 5*time.Minute, "bound on one case")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: go run ./experiments/deadlock-replay [-topologies LIST] [-bufs 2,8,32] [-routings LIST] OUTDIR")
	}
	out := fs.Arg(0)
	var depths []int
	for _, s := range strings.Split(*bufs, ",") {
		b, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || b < 1 {
			return fmt.Errorf("-bufs: %q is not a buffer depth", s)
		}
		depths = append(depths, b)
	}
	names := routing.Names()
	if *routings != "" {
		names = strings.Split(*routings, ",")
	}
	var algs []routing.Algorithm
	for _, name := range names {
		alg, err := routing.Lookup(name)
		if err != nil {
			return fmt.Errorf("-routings: %v", err)
		}
		algs = append(algs, alg)
	}
	var nets []topology.Network
	for _, spec := range strings.Split(*topos, ";") {
		net, err := topology.Parse(spec)
		if err != nil {
			return fmt.Errorf("-topologies: %v", err)
		}
		nets = append(nets, net)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	results, summary := filepath.Join(out, "results.jsonl"), filepath.Join(out, "summary.md")
	f, err := os.Create(results + ".tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // once renamed, there is nothing to remove
	defer f.Close()
	enc := json.NewEncoder(f)
	var rows []Row
	for _, net := range nets {
		for _, alg := range algs {
			need, err := alg.MinVCs(net)
			if err != nil {
				continue // the routing does not run on this network
			}
			for _, vcs := range []int{need - 1, need, need + 1} {
				if vcs < 1 {
					continue
				}
				for _, atomic := range []bool{true, false} {
					for k, buf := range depths {
						r := run(net, alg, vcs, atomic, buf, *timeout)
						rows = append(rows, r)
						if err := enc.Encode(r); err != nil {
							return err
						}
						fmt.Fprintf(log, "%s %s vcs=%d atomic=%v buf=%d: %s replayed=%v %s\n", r.Topology, alg.Name, vcs, atomic, buf, r.Verdict, r.Replayed, r.Error)
						if k == 0 && r.Verdict != "deadlock" {
							break // the depth matters to the replay only
						}
					}
				}
			}
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(summary+".tmp", []byte(Summary(rows)), 0o644); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), results); err != nil {
		return err
	}
	return os.Rename(summary+".tmp", summary)
}

// run is one case.
func run(net topology.Network, alg routing.Algorithm, vcs int, atomic bool, buf int, timeout time.Duration) Row {
	r := Row{Topology: net.String(), Routing: alg.Name, VCs: vcs, Atomic: atomic, Buf: buf, Verdict: "error"}
	sr, err := alg.New(net, vcs)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	fn, ok := sr.(deadlock.Function)
	if !ok {
		r.Error = "the routing does not enumerate its choices"
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := deadlock.Exact(ctx, net, fn, vcs, alg.Name, deadlock.ExactOptions{Atomic: atomic, Buf: buf, Budget: 2 << 30, MinimalTime: 10 * time.Second, AlternativeTime: timeout})
	if err != nil {
		if errors.Is(err, deadlock.ErrInterrupted) {
			err = fmt.Errorf("bound of %v reached", timeout)
		}
		r.Error = err.Error()
		return r
	}
	r.Verdict, r.Minimal, r.Packets = res.Verdict, res.Minimal, len(res.Worms)
	if p := res.Replay; p != nil {
		r.Replayed, r.Pipeline, r.Alternatives, r.Helpers, r.Error = p.Replayed, p.Pipeline, p.Alternatives, p.Helpers, p.Error
	}
	return r
}

// Summary is summary.md: the counts, then the verdicts not replayed, one line
// per network, routing, VC count and rule, with the buffer depths at which the
// replay failed.
func Summary(rows []Row) string {
	var b strings.Builder
	n := map[string]int{}
	type key struct {
		topo, routing string
		vcs           int
		atomic        bool
	}
	var order []key
	failed := map[key][]string{}
	packets := map[key]int{}
	minimal := map[key]bool{}
	for _, r := range rows {
		n[r.Verdict]++
		if r.Verdict != "deadlock" {
			continue
		}
		if r.Replayed {
			n["replayed"]++
			continue
		}
		k := key{r.Topology, r.Routing, r.VCs, r.Atomic}
		if failed[k] == nil {
			order = append(order, k)
		}
		failed[k] = append(failed[k], strconv.Itoa(r.Buf))
		packets[k], minimal[k] = r.Packets, r.Minimal
	}
	fmt.Fprintf(&b, "# Deadlock verdicts not replayed\n\n")
	fmt.Fprintf(&b, "%d cases: %d deadlock-free, %d deadlock verdicts (%d replayed, %d not), %d errors.\n\n",
		len(rows), n["deadlock-free"], n["deadlock"], n["replayed"], n["deadlock"]-n["replayed"], n["error"])
	b.WriteString("| network | routing | VCs | reallocation | packets | buffers not replayed |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, k := range order {
		rule := "non-atomic"
		if k.atomic {
			rule = "atomic"
		}
		p := strconv.Itoa(packets[k])
		if !minimal[k] {
			p += " (not proved fewest)"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s |\n", k.topo, k.routing, k.vcs, rule, p, strings.Join(failed[k], ", "))
	}
	return b.String()
}
