// Command trace runs the rule-by-rule traces of docs/dragonfly.md's differences
// with BookSim2 on wormlab's simulator and writes their runs to OUTDIR:
//
//   - ugal.csv (variant,seed,accepted,cpu_s): the worst-case throughput of
//     BookSim2's UGAL (booksim2 src/networks/dragonfly.cpp, ugal_dragonflynew;
//     routing.DFUGALBookSim) against the paper's UGAL-L (Kim, Dally, Scott and
//     Abts, ISCA 2008, section 4.2; df-ugal-l), rule by rule: the study's network
//     (BookSim2's dragonflynew with k = 4: dragonfly:p=4, 3 VCs of 256 flits,
//     4-flit packets, BookSim2's pipeline), worst-case traffic, every source
//     offered 1 flit a cycle, with BookSim2's rules and with some of them set to
//     the paper's;
//   - eject.csv (rule,rate,seed,latency,accepted,cpu_s): df-min on BookSim2's
//     72-terminal dragonfly (agree-df of scripts/dragonfly-compare.sh) with
//     BookSim2's ejection VC (the phase's, sim.Ejecting: "booksim") and with any
//     ejection VC ("any", the rule before b2033d4), at offered 0.5 and 1.0.
//
// Usage: go run ./experiments/dragonfly/trace [-seeds 1,2,3] [-only ugal|eject] OUTDIR
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/simrun"
)

// variant is BookSim2's UGAL with some of its rules set to the paper's (nil set:
// the registered df-ugal-l itself).
type variant struct {
	name string
	set  func(r *routing.DFUGALBookSim)
}

var variants = []variant{
	{"booksim", func(*routing.DFUGALBookSim) {}},
	{"threshold-0", func(r *routing.DFUGALBookSim) { r.Threshold = 0 }},
	{"hop-weights", func(r *routing.DFUGALBookSim) { r.HopWeights = true }},
	{"threshold-0+hop-weights", func(r *routing.DFUGALBookSim) { r.Threshold, r.HopWeights = 0, true }},
	{"paper-vcs", func(r *routing.DFUGALBookSim) { r.PaperVCs = true }},
	{"group-mid", func(r *routing.DFUGALBookSim) { r.GroupMid = true }},
	{"group-mid+paper-vcs", func(r *routing.DFUGALBookSim) { r.GroupMid, r.PaperVCs = true, true }},
	{"group-mid+threshold-0+hop-weights", func(r *routing.DFUGALBookSim) { r.GroupMid, r.Threshold, r.HopWeights = true, 0, true }},
	{"df-ugal-l", nil},
}

// anyEject hides a routing's ejection rule (sim.Ejecting): a packet ejects on any VC.
type anyEject struct{ sim.Routing }

func main() {
	seeds := flag.String("seeds", "1,2,3", "seeds, comma-separated")
	only := flag.String("only", "", "one part: ugal or eject (default both)")
	flag.Parse()
	if flag.NArg() != 1 {
		fail(2, "usage: trace [-seeds 1,2,3] [-only ugal|eject] OUTDIR")
	}
	if *only != "" && *only != "ugal" && *only != "eject" {
		fail(2, "trace: -only: want ugal or eject, got %q", *only)
	}
	var ss []uint64
	for _, f := range strings.Split(*seeds, ",") {
		s, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			fail(2, "trace: -seeds: %q is not a seed", f)
		}
		ss = append(ss, s)
	}
	out := flag.Arg(0)
	if err := os.MkdirAll(out, 0o755); err != nil {
		fail(2, "trace: %v", err)
	}
	if *only != "eject" {
		var lines []string
		for _, v := range variants {
			for _, s := range ss {
				res, cpu := run(ugalRun(s), func(b *simrun.Built) {
					if v.set == nil {
						return
					}
					u, err := routing.NewDFUGALBookSim(b.Net, b.Config.VCs)
					if err != nil {
						fail(1, "trace: %v", err)
					}
					v.set(u)
					b.Config.Routing = u
				})
				lines = append(lines, fmt.Sprintf("%s,%d,%.6f,%.1f", v.name, s, res.Accepted, cpu))
				fmt.Println("ugal", lines[len(lines)-1])
			}
		}
		write(out+"/ugal.csv", "variant,seed,accepted,cpu_s", lines)
	}
	if *only != "ugal" {
		var lines []string
		for _, rule := range []string{"booksim", "any"} {
			for _, rate := range []float64{0.5, 1.0} {
				for _, s := range ss {
					res, cpu := run(ejectRun(rate, s), func(b *simrun.Built) {
						if rule == "any" {
							b.Config.Routing = anyEject{b.Config.Routing}
						}
					})
					lat := ""
					if res.Latency != nil && !res.Saturated {
						lat = fmt.Sprintf("%.4f", *res.Latency)
					}
					lines = append(lines, fmt.Sprintf("%s,%.1f,%d,%s,%.6f,%.1f", rule, rate, s, lat, res.Accepted, cpu))
					fmt.Println("eject", lines[len(lines)-1])
				}
			}
		}
		write(out+"/eject.csv", "rule,rate,seed,latency,accepted,cpu_s", lines)
	}
}

// ugalRun is the study's worst-case run at offered 1.0 with df-ugal-l (docs/
// dragonfly.md; scripts/dragonfly-compare.sh's study).
func ugalRun(s uint64) simrun.Run {
	r := simrun.Default()
	r.Topology, r.Routing, r.VCs, r.Buf, r.Flits = "dragonfly:p=4", "df-ugal-l", 3, 256, "4"
	r.Traffic, r.Process, r.Pipeline, r.Rate, r.Seed, r.MaxCycles = "worstcase", "bernoulli", "booksim", 1.0, s, 60000
	return r
}

// ejectRun is agree-df's wormlab run (scripts/dragonfly-compare.sh).
func ejectRun(rate float64, s uint64) simrun.Run {
	r := simrun.Default()
	r.Topology, r.Routing, r.VCs, r.Buf, r.Flits = "dragonfly:p=2", "df-min", 2, 256, "4"
	r.Traffic, r.Process, r.Pipeline, r.Rate, r.Seed = "uniform", "bernoulli", "booksim", rate, s
	r.Rel, r.MinCycles = 0.01, 50000
	return r
}

// run is one run and the CPU it took; an error ends the program.
func run(r simrun.Run, prepare func(*simrun.Built)) (*sim.Result, float64) {
	t0, _ := cputime.Process()
	res, err := simrun.RunOne(context.Background(), r, prepare)
	if err != nil {
		fail(1, "trace: %s %s seed %d: %v", r.Topology, r.Routing, r.Seed, err)
	}
	t1, _ := cputime.Process()
	return res, (t1 - t0).Seconds()
}

func write(path, header string, lines []string) {
	err := atomicfile.WriteFunc(path, func(w io.Writer) error {
		_, err := io.WriteString(w, header+"\n"+strings.Join(lines, "\n")+"\n")
		return err
	})
	if err != nil {
		fail(1, "trace: %v", err)
	}
}

func fail(code int, format string, a ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", a...)
	os.Exit(code)
}
