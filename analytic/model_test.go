package analytic

import (
	"context"
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestZeroLoadByHand checks ZeroLoad against the values worked out by hand in
// doc.go (L + k^2/(2(k+1))) and the solved model's limit at a vanishing rate.
func TestZeroLoadByHand(t *testing.T) {
	hand := map[[2]int]float64{
		{4, 12}: 12 + 16.0/10, {8, 12}: 12 + 64.0/18, {12, 12}: 12 + 144.0/26,
		{16, 12}: 12 + 256.0/34, {4, 1}: 1 + 1.6, {32, 64}: 64 + 1024.0/66,
	}
	for kl, want := range hand {
		if got := ZeroLoad(kl[0], kl[1]); got != want {
			t.Errorf("ZeroLoad(%d, %d) = %v, want %v", kl[0], kl[1], got, want)
		}
		res, err := Solve(Params{K: kl[0], L: kl[1], Rate: 1e-15}, Paper)
		if err != nil || res.Saturated {
			t.Fatalf("k=%d L=%d: %v %+v", kl[0], kl[1], err, res)
		}
		if math.Abs(res.Latency-want) > 1e-10 {
			t.Errorf("k=%d L=%d: latency at rate 1e-15 = %.12f, want %.12f", kl[0], kl[1], res.Latency, want)
		}
	}
	if ZeroLoad(4, 12) != 13.6 {
		t.Errorf("4x4, 12 flits: %v, want 13.6", ZeroLoad(4, 12))
	}
}

// TestTablesGoals checks the goals against the paper's Model column:
// every 4x4 and 8x8 entry within 3%, mean error under 5% for 12x12 and 16x16.
// (The 16x16 saturation point misses the paper's by one grid step; doc.go.)
func TestTablesGoals(t *testing.T) {
	s := ScoreOf(Paper)
	if s.Max4 >= 3 || s.Max8 >= 3 {
		t.Errorf("largest error 4x4 %.2f%%, 8x8 %.2f%%, want < 3%%", s.Max4, s.Max8)
	}
	if s.Mean12 >= 5 || s.Mean16 >= 5 {
		t.Errorf("mean error 12x12 %.2f%%, 16x16 %.2f%%, want < 5%%", s.Mean12, s.Mean16)
	}
	for _, row := range Compare(Paper) {
		if row.Ours.Saturated {
			t.Errorf("k=%d rate %v saturated (%s) where the paper prints %v", row.K, row.Rate, row.Ours.Reason, row.Model)
		}
	}
}

// TestTranscription checks the transcribed tables against the paper's own
// error column: (Model - Sim)/Sim is the printed error within 0.15 points,
// except two entries where the paper's error column disagrees with its own
// latencies (a finding, doc.go): 8x8 at 0.005 prints -4.6% for 16.51 against
// 17.10 (-3.45%), and 16x16 at 0.001 prints +0.1% for 20.05 against 20.07
// (-0.10%).
func TestTranscription(t *testing.T) {
	if len(Table1) != 24 || len(Table2) != 16 {
		t.Fatalf("tables have %d and %d rows, want 24 and 16", len(Table1), len(Table2))
	}
	for _, e := range Tables() {
		got := 100 * (e.Model - e.Sim) / e.Sim
		bad := e.K == 8 && e.Rate == 0.005 || e.K == 16 && e.Rate == 0.001
		if (math.Abs(got-e.ErrPct) > 0.15) != bad {
			t.Errorf("k=%d rate %v: (model-sim)/sim = %.2f%%, printed %.1f%%", e.K, e.Rate, got, e.ErrPct)
		}
	}
}

// TestSaturationReported: past saturation no latency is given, and the reason
// names what reached 1.
func TestSaturationReported(t *testing.T) {
	res, err := Solve(Params{K: 16, L: 12, Rate: 0.02}, Paper)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Saturated || res.Reason == "" || res.Latency != 0 && !res.Saturated {
		t.Fatalf("16x16 at 0.02: %+v", res)
	}
	rate, why := Saturation(16, 12, Paper, 0.001)
	if rate <= 0.007 || rate > 0.0095 {
		t.Errorf("16x16 saturates at %v (%s), want in (0.007, 0.009]", rate, why)
	}
}

func TestBadParams(t *testing.T) {
	for _, c := range []struct {
		p     Params
		field string
	}{
		{Params{K: 6, L: 12, Rate: 0.01}, "k"}, {Params{K: 0, L: 12, Rate: 0.01}, "k"},
		{Params{K: -4, L: 12, Rate: 0.01}, "k"}, {Params{K: 8, L: 0, Rate: 0.01}, "flits"},
		{Params{K: 8, L: 12, Rate: 0}, "rate"}, {Params{K: 8, L: 12, Rate: 1}, "rate"},
		{Params{K: 8, L: 12, Rate: math.NaN()}, "rate"},
	} {
		_, err := Solve(c.p, Paper)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Field != c.field {
			t.Errorf("%+v: error %v, want one naming %s", c.p, err, c.field)
		}
	}
}

// TestFlowProperties checks, for random k, L, rate and readings, the
// bifurcation rule's conservation (Theorem 1): at every inner node of Fig. 1
// the flow in equals the flow out, and the flows into the destination sum to
// alpha/tau; utilisation times are at least L (a message holds a link at least
// while its L flits cross it; not under the Product reading of eq. 35, which
// TestProductReadingBelowL shows breaks it); p_X equals the doubled sum of
// flow times utilisation time recomputed here from the returned flows (eq. 43).
func TestFlowProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := 4 * rapid.IntRange(1, 6).Draw(t, "k/4")
		L := rapid.IntRange(1, 64).Draw(t, "L")
		rate := rapid.Float64Range(1e-5, 0.002).Draw(t, "rate")
		r := Readings{
			Eq35: Blocked(rapid.IntRange(0, 2).Draw(t, "eq35")),
			Eq39: Pairing(rapid.IntRange(0, 1).Draw(t, "eq39")),
			Var:  Variance(rapid.IntRange(0, 3).Draw(t, "var")),
		}
		res, err := Solve(Params{K: k, L: L, Rate: rate}, r)
		if err != nil {
			t.Fatal(err)
		}
		if res.Saturated {
			t.Skip("saturated")
		}
		K := k / 4
		a := res.Alpha * res.InvTau
		if d := math.Abs(res.FracX + res.FracY - 1); d > 1e-12 {
			t.Fatalf("f^X + f^Y = 1 + %g", d)
		}
		for i := 0; i < K; i++ {
			for j := 0; j < K; j++ {
				in := 0.0
				if i == 0 && j == 0 {
					in = a
				}
				if j > 0 {
					in += res.FX[i][j-1]
				}
				if i > 0 {
					in += res.FY[i-1][j]
				}
				if d := math.Abs(in - res.FX[i][j] - res.FY[i][j]); d > 1e-12*a {
					t.Fatalf("node %d,%d: in %g, out %g", i+1, j+1, in, res.FX[i][j]+res.FY[i][j])
				}
			}
		}
		if d := math.Abs(res.FX[K][K-1] + res.FY[K-1][K] - a); d > 1e-12*a {
			t.Fatalf("destination receives %g, want %g", res.FX[K][K-1]+res.FY[K-1][K], a)
		}
		var px float64
		for i := range res.FX {
			for j := range res.FX[i] {
				if r.Eq35 != Product && res.UX[i][j] < float64(L)-1e-9 {
					t.Fatalf("utilisation time %g below L", res.UX[i][j])
				}
				px += res.FX[i][j] * res.UX[i][j]
			}
		}
		for n, tb := range res.TbX {
			px += res.Beta * res.InvTau * (tb - float64(n+1))
		}
		if d := math.Abs(2*px - res.PX); d > 1e-6*res.PX+1e-12 {
			t.Fatalf("p_X %g, recomputed %g", res.PX, 2*px)
		}
		if res.Latency < ZeroLoad(k, L)-1e-9 {
			t.Fatalf("latency %g below the zero-load %g", res.Latency, ZeroLoad(k, L))
		}
	})
}

// TestMonotone: the latency grows with the rate on the tables' grid, up to
// the paper's last rate, for every torus of the tables.
func TestMonotone(t *testing.T) {
	for _, k := range []int{4, 8, 12, 16} {
		prev := ZeroLoad(k, 12)
		for i := 1; i <= 7; i++ {
			res, _ := Solve(Params{K: k, L: 12, Rate: float64(i) / 1000}, Paper)
			if res.Saturated || !(res.Latency > prev) {
				t.Fatalf("k=%d rate %v: %+v after %v", k, float64(i)/1000, res.Latency, prev)
			}
			prev = res.Latency
		}
	}
}

// The Product reading of eq. 35 (the printed juxtaposition W T read as a product)
// can make a link's utilisation time shorter than the L cycles the message's flits
// need to cross it, which no router allows: one more reason, beside its errors on
// the tables, that the package rejects it. The case is the one rapid found.
func TestProductReadingBelowL(t *testing.T) {
	r := Readings{Eq35: Product, Eq39: Pairing(0), Var: Variance(1)}
	res, err := Solve(Params{K: 24, L: 15, Rate: 0.002}, r)
	if err != nil || res.Saturated {
		t.Fatalf("want a solution: %v", err)
	}
	below := false
	for i := range res.UX {
		for j := range res.UX[i] {
			below = below || res.UX[i][j] < 15
		}
	}
	if !below {
		t.Fatal("the product reading kept every utilisation time at least L")
	}
	res, err = Solve(Params{K: 24, L: 15, Rate: 0.002}, Readings{Eq39: Pairing(0), Var: Variance(1)})
	if err != nil || res.Saturated {
		t.Fatalf("want a solution: %v", err)
	}
	for i := range res.UX {
		for j := range res.UX[i] {
			if res.UX[i][j] < 15-1e-9 {
				t.Fatalf("the chosen reading gives %g below L", res.UX[i][j])
			}
		}
	}
}

// SolveContext stops when its context ends (wormlab model's Ctrl-C): a context
// already cancelled yields its error and no result; one that never ends yields
// Solve's result.
func TestSolveContextStops(t *testing.T) {
	p := Params{K: 16, L: 12, Rate: 0.005}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := SolveContext(ctx, p, Paper); !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("cancelled: got %v, %v; want no result and context.Canceled", res, err)
	}
	want, err := Solve(p, Paper)
	if err != nil {
		t.Fatal(err)
	}
	got, err := SolveContext(context.Background(), p, Paper)
	if err != nil {
		t.Fatal(err)
	}
	if got.Latency != want.Latency || got.Iterations != want.Iterations {
		t.Fatalf("SolveContext %v in %d iterations, Solve %v in %d", got.Latency, got.Iterations, want.Latency, want.Iterations)
	}
}
