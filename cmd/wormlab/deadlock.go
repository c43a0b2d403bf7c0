package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

func init() {
	register(&command{
		name:    "deadlock",
		summary: "prove a routing algorithm deadlock-free (Dally-Seitz, Duato) or name its dependency cycle",
		run:     runDeadlock,
	})
}

func runDeadlock(e *env) error {
	fs := newFlags(e, "deadlock", "",
		"Enumerates every packet a routing algorithm can carry on a topology (all sources,\n"+
			"destinations and routing states) and checks that its channel dependency graph\n"+
			"over virtual channels is acyclic (Dally and Seitz), or, for an adaptive\n"+
			"algorithm with escape channels, Duato's condition: a connected escape\n"+
			"subfunction whose extended dependency graph is acyclic. Exit 0: proved; exit 1:\n"+
			"a shortest dependency cycle, channel by channel.")
	topo := fs.String("topology", "", "network: "+topology.Kinds()+" (default torus:8x8, or a routing table's)")
	rname := fs.String("routing", "dor", "routing algorithm: "+strings.Join(routing.Names(), ", ")+", or table:FILE")
	vcs := fs.Int("vcs", 0, "virtual channels per physical channel (0: the algorithm's minimum)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	writeTable := fs.String("write-table", "", "write the routing as a routing table to FILE (docs/routing-table.md) and stop")
	if _, err := parseFlags(fs, e.args, 0, 0); err != nil {
		return err
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
	r, err := alg.New(net, *vcs)
	if err != nil {
		return usageError("--routing: %v", err)
	}
	if *writeTable != "" {
		if err := checkOutput(*writeTable); err != nil {
			return err
		}
		return writeOut(e, *writeTable, func(w io.Writer) error {
			if err := routing.WriteTable(w, net, "", r, *vcs); err != nil {
				return usageError("--write-table: %s on %s: %v", alg.Name, net, err)
			}
			return nil
		})
	}
	f, ok := r.(deadlock.Function)
	if !ok {
		return usageError("--routing: %s does not list its start states, so it cannot be enumerated", alg.Name)
	}
	ctx, stop := interruptContext()
	defer stop()
	rep, err := deadlock.Check(ctx, net, f, *vcs, alg.Name)
	if err != nil {
		if ctx.Err() != nil {
			return negative("interrupted before the enumeration ended: nothing proved")
		}
		return fmt.Errorf("%v", err)
	}
	if *asJSON {
		if err := writeJSON(e.stdout, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "%s on %s with %d VC(s), %s's theorem\n", alg.Name, net, *vcs, map[string]string{"dally-seitz": "Dally and Seitz", "duato": "Duato"}[rep.Theorem])
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
			return negative("%s on %s with %d VC(s): escape subfunction not connected", alg.Name, net, *vcs)
		}
		return negative("%s on %s with %d VC(s): dependency cycle of %d channels", alg.Name, net, *vcs, len(rep.Cycle))
	}
	return nil
}
