package analytic

// The deterministic counterpart seed 004 compares its adaptive model with in its
// Figures 3 and 4 (section 5). The paper takes it from Ciciani, Colajanni and
// Paolucci (IPPS 1997, its reference [7]), which is not among the seeds; this is
// wormlab's derivation of dimension-order routing in the same framework, so that
// the two models differ only in the routing: the average message makes K = k/4
// hops along X and then K along Y (alpha), or K along one dimension (beta), every
// link is an M/G/1 queue whose classes are the flows entering it from the other
// inputs (eq. 18 as eq. 23 writes it, per quadrant, W = sum(F E[S^2]) / (1 - rho),
// rho = 2 sum(F T-bar)), utilisation times are residual times less the channels
// still to cross (eqs. 28-31), the service time's second moment is the chosen
// reading of section 4.2.2 (Readings.Var), and residual times run backwards from
// the destination (eqs. 32-42 without the choice):
//
//	T^Y_1 = L + 1,                T^Y_i = W_YY + T^Y_{i-1} + 1       (alpha and beta^Y)
//	A_1   = W_XY + T^Y_K + 1,     A_m   = W_XX + A_{m-1} + 1        (alpha on X)
//	T^X_1 = L + 1,                T^X_m = W_XX + T^X_{m-1} + 1       (beta^X)
//	latency = alpha (W_X0 + A_K) + beta (W_X0 + T^X_K) + beta (W_Y0 + T^Y_K)
//
// with m (i) the X (Y) channels left, this one included. Dimension order has no
// turn from Y into X, so an X link's classes are the messages going on along X
// and those injected there; a Y link's are those going on along Y, those turning
// from X (from the west and, by the symmetric quadrant, from the east) and those
// injected there. The waits, by the input the waiting message comes from:
//
//	W_X0 (injected into X):    going on along X, m = 1 .. K-1
//	W_XX (going on along X):   injected, m = K
//	W_XY (turning into Y):     going on along Y, i = 1 .. K-1; the other turn (half
//	                           of the turning class); injected beta^Y, i = K
//	W_YY (going on along Y):   turning, i = K; injected beta^Y, i = K
//	W_Y0 (injected into Y):    going on along Y, i = 1 .. K-1; turning, i = K
//
// At zero load the latency is the adaptive model's, L + 2K k/(k+1).

import (
	"fmt"
	"math"
)

// DetResult is the deterministic model at one point.
type DetResult struct {
	Params
	Saturated  bool
	Reason     string
	Iterations int
	Latency    float64
	// Waits of the five kinds and the X and Y links' utilisations.
	WX0, WXX, WXY, WYY, WY0 float64
	RhoX, RhoY              float64
}

// SolveDeterministic solves the deterministic model by the same iteration as
// Solve: waits from 0, sweeps until no wait and not the latency moves by more than
// Tol; a utilisation reaching 1 is saturation.
func SolveDeterministic(p Params, r Readings) (*DetResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	K := p.K / 4
	k := float64(p.K)
	alpha, beta := (k-1)/(k+1), 1/(k+1)
	inv := p.Rate / 4
	a, b := alpha*inv, beta*inv
	L := float64(p.L)
	sq := func(u float64) float64 { return u*u + r.Var.variance(u, L) }
	res := &DetResult{Params: p}
	var w [5]float64 // WX0, WXX, WXY, WYY, WY0
	ty := make([]float64, K+1)
	ax := make([]float64, K+1)
	tx := make([]float64, K+1)
	for it := 1; it <= MaxIter; it++ {
		res.Iterations = it
		wx0, wxx, wxy, wyy, wy0 := w[0], w[1], w[2], w[3], w[4]
		ty[1], tx[1] = L+1, L+1
		for i := 2; i <= K; i++ {
			ty[i] = wyy + ty[i-1] + 1
			tx[i] = wxx + tx[i-1] + 1
		}
		ax[1] = wxy + ty[K] + 1
		for m := 2; m <= K; m++ {
			ax[m] = wxx + ax[m-1] + 1
		}
		// utilisation times: residual time less the channels still to cross
		ua := func(m int) float64 { return ax[m] - float64(m+K) }
		ub := func(m int) float64 { return tx[m] - float64(m) }
		uy := func(i int) float64 { return ty[i] - float64(i) }
		var rhoX, rhoY float64
		for m := 1; m <= K; m++ {
			rhoX += 2 * (a*ua(m) + b*ub(m))
			rhoY += 2 * (a + b) * uy(m)
		}
		res.RhoX, res.RhoY = rhoX, rhoY
		if !(rhoX < 1) {
			res.Saturated, res.Reason = true, fmt.Sprintf("utilisation rho_X = %.4g reached 1", rhoX)
			return res, nil
		}
		if !(rhoY < 1) {
			res.Saturated, res.Reason = true, fmt.Sprintf("utilisation rho_Y = %.4g reached 1", rhoY)
			return res, nil
		}
		var goX, goY float64 // the classes going on along X (m < K) and Y (i < K)
		for m := 1; m < K; m++ {
			goX += a*sq(ua(m)) + b*sq(ub(m))
			goY += (a + b) * sq(uy(m))
		}
		next := [5]float64{
			goX / (1 - rhoX),
			(a*sq(ua(K)) + b*sq(ub(K))) / (1 - rhoX),
			(goY + a/2*sq(uy(K)) + b*sq(uy(K))) / (1 - rhoY),
			(a + b) * sq(uy(K)) / (1 - rhoY),
			(goY + a*sq(uy(K))) / (1 - rhoY),
		}
		lat := alpha*(wx0+ax[K]) + beta*(wx0+tx[K]) + beta*(wy0+ty[K])
		if math.IsNaN(lat) || math.IsInf(lat, 0) {
			res.Saturated, res.Reason = true, "latency is not finite"
			return res, nil
		}
		d := rel(lat, res.Latency)
		for j := range w {
			d = math.Max(d, rel(next[j], w[j]))
		}
		if it > Undamped {
			for j := range next {
				next[j] = mix(next[j], w[j])
			}
		}
		w = next
		res.Latency = lat
		if d <= Tol {
			res.WX0, res.WXX, res.WXY, res.WYY, res.WY0 = w[0], w[1], w[2], w[3], w[4]
			return res, nil
		}
	}
	res.Saturated, res.Reason = true, fmt.Sprintf("no convergence within %d iterations", MaxIter)
	return res, nil
}

// Hops is the mean number of links of a message in both models: alpha messages
// make K hops in each dimension, beta messages K in one, so 2K alpha + 2K beta =
// 2K k / (k + 1).
func Hops(k int) float64 {
	kk := float64(k)
	return 2 * float64(k/4) * kk / (kk + 1)
}

// Blocking is the mean blocking time per hop of a latency on the k x k torus for
// L-flit messages: the latency less the zero-load latency, over the mean hops
// (seed 004's Figure 3: "the waiting time to get a link").
func Blocking(latency float64, k, L int) float64 {
	return (latency - ZeroLoad(k, L)) / Hops(k)
}
