package simrun

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/internal/gctune"
)

// rates20 is the issue's --rates over 20 points: an 8x8 mesh, XY routing, 2 VCs,
// 16-flit packets, offered 0.02 to 0.40 flits/node/cycle (the last few past
// saturation), each point 20,000 cycles at most.
func rates20(b *testing.B) []Point {
	g := &Grid{Base: Default()}
	for k, v := range map[string]string{"topology": "mesh:8x8", "routing": "xy", "vcs": "2", "min-cycles": "10000", "max-cycles": "20000"} {
		if err := g.Base.Set(k, v); err != nil {
			b.Fatal(err)
		}
	}
	rates, err := Range("0.02:0.4:0.02", true)
	if err != nil {
		b.Fatal(err)
	}
	if err := g.SetAxis("rate", rates); err != nil {
		b.Fatal(err)
	}
	pts, err := g.Points()
	if err != nil || len(pts) != 20 {
		b.Fatal(err, len(pts))
	}
	return pts
}

// BenchmarkRates20 runs the 20 points on one worker and on two: compare
// workers=1 with workers=2 of go test -bench Rates20 ./simrun (ns/op is wall time;
// the run takes both cores either way for the garbage collector). Beside wall time
// it reports, immune to other processes' load, the CPU time of the whole process
// (cpu-ms/op), the points' CPU time in all (points-ms/op) and the critical path
// (crit-ms/op: the CPU time of the busiest worker's points): points-ms with one
// worker over crit-ms with two is the speed-up two cores give when nothing else
// runs. quiet-ms/op is the wall time less the time the workers' threads waited
// for a core: for each worker the sum over its points of their elapsed time less
// their thread's run-queue wait (/proc/thread-self/schedstat), the largest
// worker's. It counts the time a worker's thread was blocked, which load itself
// lengthens (a preempted goroutine locked to its thread waits for a P that
// another thread must hand back; a collector pause waits for every thread), so
// under load it overstates the wall time the grid would take alone, the more so
// with two workers (issue 23's session, load 22-28: 2110 and 1618 ms, medians of
// 6, where crit-ms gives 2000 and 1128; with GOGC=off the same, the heap stays
// under 45 MB). wait-ms/op is the run-queue wait in all, a measure of the load. The
// collector's target is gctune's, as in wormlab sim.
func BenchmarkRates20(b *testing.B) {
	pts := rates20(b)
	defer gctune.Tune()() // as wormlab sim does for a grid
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var crit, sum, cpu, quiet, wait time.Duration
			for b.Loop() {
				c0 := cputime.Used()
				outs := Execute(context.Background(), pts, Options{Workers: workers})
				cpu += cputime.Used() - c0
				per, busy := map[int]time.Duration{}, map[int]time.Duration{}
				for _, o := range outs {
					if o.Err != nil || !o.Done {
						b.Fatal(o.Err)
					}
					per[o.Worker] += o.CPU
					busy[o.Worker] += o.Wall - o.Waited
					sum += o.CPU
					wait += o.Waited
				}
				var most, longest time.Duration
				for w, d := range per {
					most = max(most, d)
					longest = max(longest, busy[w])
				}
				crit += most
				quiet += longest
			}
			n := float64(b.N)
			b.ReportMetric(float64(cpu.Milliseconds())/n, "cpu-ms/op")
			b.ReportMetric(float64(crit.Milliseconds())/n, "crit-ms/op")
			b.ReportMetric(float64(sum.Milliseconds())/n, "points-ms/op")
			b.ReportMetric(float64(quiet.Milliseconds())/n, "quiet-ms/op")
			b.ReportMetric(float64(wait.Milliseconds())/n, "wait-ms/op")
		})
	}
}
