package objective

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/wormlab/wormlab/internal/gctune"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
)

// candidates draws n random sets of worms on the levelled network of the repaired
// prime construction's shape for p (width p, 2p + 2 levels, complete layers),
// L = 2p + 1: the candidates the adversary measures in issue 20's experiment.
func candidates(b *testing.B, p, worms, n int) []*model.Instance {
	top, err := lower.ParseNetwork("levelled:"+itoa(p)+"x"+itoa(2*p+2)+"x"+itoa(p), 1)
	if err != nil {
		b.Fatal(err)
	}
	sp := adversary.TopologySpace(top, "levelled")
	sp.MinL, sp.MaxL, sp.MinWorms, sp.MaxWorms = 2*p+1, 2*p+1, 1, worms
	sp.Prepare()
	r := rand.New(rand.NewPCG(1, 2))
	var ins []*model.Instance
	for range n {
		s, err := sp.RandomSet(worms, r)
		if err != nil {
			b.Fatal(err)
		}
		ins = append(ins, sp.Instance("bench", s))
	}
	return ins
}

func itoa(v int) string { return strconv.Itoa(v) }

// Evaluations per second of each objective on random candidates of the p = 3
// experiment (9 worms of 7 flits on levelled:3x8x3), measured exactly (floor 0):
// the solver's objectives (the optimum, proven by bounds, phase schedules or SAT),
// greedy's, the colorer's and the theorems'.
func BenchmarkScore(b *testing.B) {
	ins := candidates(b, 3, 9, 64)
	for _, name := range Names() {
		r, err := Lookup(name, DefaultModel(name), 2*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := r.Score(context.Background(), ins[i%len(ins)], 0); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// The search's evaluations per second with one and with two workers (chains), on
// issue 20's p = 3 experiment (opt/cd on levelled:3x8x3, L = 7, hill climbing from
// two random worms, 3000 moves per chain): evals/s (per wall second) and
// evals/cpu-s (per CPU second of the process, both chains) are the metrics; the
// speed-up of the second core is the ratio of the two evals/s (each chain does the
// same work, so the ideal is 2 on two idle cores), and evals/cpu-s says what the
// second chain costs (the ideal is no change). The load of the machine bounds the
// first; read the second on a shared machine.
func BenchmarkSearchWorkers(b *testing.B) {
	top, err := lower.ParseNetwork("levelled:3x8x3", 1)
	if err != nil {
		b.Fatal(err)
	}
	r, err := Lookup("opt/cd", model.Wormhole, 2*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	st, err := adversary.LookupStrategy("hill")
	if err != nil {
		b.Fatal(err)
	}
	defer gctune.Tune()() // as wormlab adversary sets it for the search
	for _, w := range []int{1, 2} {
		b.Run("workers="+strconv.Itoa(w), func(b *testing.B) {
			evals, secs, cpu := 0, 0.0, 0.0
			for b.Loop() {
				sp := adversary.TopologySpace(top, "levelled:3x8x3")
				sp.MinL, sp.MaxL, sp.MinWorms, sp.MaxWorms = 7, 7, 1, 30
				res, err := adversary.Search(context.Background(), adversary.Config{Space: sp, Objective: r, Strategy: st,
					Messages: 2, Seed: 1, Workers: w, Iterations: 3000})
				if err != nil {
					b.Fatal(err)
				}
				evals += res.Evaluations
				secs += res.Elapsed.Seconds()
				cpu += res.CPU.Seconds()
			}
			b.ReportMetric(float64(evals)/secs, "evals/s")
			b.ReportMetric(float64(evals)/cpu, "evals/cpu-s")
		})
	}
}
