package objective

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

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
// experiment (9 worms of 7 flits on levelled:3x8x3): the solver's objective (the
// optimum, proven by bounds, phase schedules or SAT), greedy's and the colorer's.
func BenchmarkScore(b *testing.B) {
	ins := candidates(b, 3, 9, 64)
	for _, name := range []string{"opt/cd", "opt/lower", "greedy/opt", "greedy/bound", "colorer/bound", "colorer/opt"} {
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
