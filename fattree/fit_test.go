package fattree

import (
	"math"
	"testing"
)

// TestFitPowerExact: data made exactly of k log4(N)^p give back k and p with zero
// residual; a perturbed point gives a positive residual.
func TestFitPowerExact(t *testing.T) {
	ns := []int{16, 64, 256, 1024, 4096}
	ys := make([]float64, len(ns))
	for i, n := range ns {
		ys[i] = 17.5 * math.Pow(math.Log(float64(n))/math.Log(4), 0.22)
	}
	f, ok := FitPower(ns, ys)
	if !ok || math.Abs(f.K-17.5) > 1e-9 || math.Abs(f.P-0.22) > 1e-9 || f.Residual > 1e-9 {
		t.Fatalf("fit %+v ok %v", f, ok)
	}
	ys[2] *= 1.1
	if f, _ := FitPower(ns, ys); f.Residual <= 0 {
		t.Fatalf("perturbed fit has residual %v", f.Residual)
	}
	if _, ok := FitPower([]int{64, 64}, []float64{1, 2}); ok {
		t.Fatal("one size fitted")
	}
}
