package steady_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/steady"
)

// A latency series whose first 300 packets see an emptier network than the rest:
// MSER-5 drops them, batch means give the interval, and the stop rule asks whether
// the interval is within 5% of the mean.
func ExampleAnalyze() {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 5000)
	for i := range xs {
		xs[i] = 40 + 4*rng.NormFloat64()
		if i < 300 {
			xs[i] -= 20
		}
	}
	e := steady.Analyze(xs, 0.95)
	fmt.Println("warm-up past the transient:", e.Warmup >= 300)
	fmt.Printf("mean %.1f +- %.1f over %d batches, enough %v\n", e.Mean, e.HalfWidth, e.Batches, e.Enough)
	fmt.Println("within 5%:", e.Precise(0.05))
	fmt.Println("growing:", steady.Trend(xs[e.Warmup:], steady.DefaultBatches, 0.95).Growing())
	// Output:
	// warm-up past the transient: true
	// mean 40.1 +- 0.1 over 20 batches, enough true
	// within 5%: true
	// growing: false
}
