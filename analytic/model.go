// The latency model of Quaglia, Ciciani and Colajanni, "Performance analysis of
// adaptive wormhole routing in a two-dimensional torus", Parallel Computing 28
// (2002) 485-501 (seed 004), sections 3 and 4: flows by the bifurcation rule
// (Theorem 1, eqs. 1-17), every link an M/G/1 queue with several classes (eq. 18,
// 23-27), link utilisation times (28-31), residual transmission times solved
// backwards (32-42), contention probabilities (43-44) and the mean latency (45-46).

package analytic

import (
	"context"
	"fmt"
	"math"
)

// Params is one point of the model: a k x k torus, messages of L flits, Rate
// messages generated per node per cycle.
type Params struct {
	K    int     // torus side k, a positive multiple of 4
	L    int     // message length in flits, at least 1
	Rate float64 // messages per node per cycle, in (0, 1)
}

// Validate names the first bad field.
func (p Params) Validate() error {
	switch {
	case p.K <= 0 || p.K%4 != 0:
		return &ParamError{"k", fmt.Sprintf("%d is not a positive multiple of 4", p.K)}
	case p.L < 1:
		return &ParamError{"flits", fmt.Sprintf("%d is below 1", p.L)}
	case !(p.Rate > 0 && p.Rate < 1):
		return &ParamError{"rate", fmt.Sprintf("%g is not in (0, 1)", p.Rate)}
	}
	return nil
}

// ParamError is bad input to the model, naming the field at fault.
type ParamError struct {
	Field, Problem string
}

func (e *ParamError) Error() string { return e.Field + ": " + e.Problem }

// Solver settings: the iteration stops when no waiting time, contention
// probability or the latency moves by more than Tol (relative, or absolute below
// 1), and declares no convergence after MaxIter sweeps.
const (
	Tol     = 1e-10
	MaxIter = 20000
	// After Undamped plain sweeps the step is damped: the new unknowns are
	// Damping times the sweep's plus (1 - Damping) times the old.
	Undamped = 1000
	Damping  = 0.25
)

// Result is the solved model at one point. When Saturated is true only Reason,
// Iterations and the Params are meaningful: no number past saturation is given.
type Result struct {
	Params
	Saturated  bool
	Reason     string
	Iterations int

	Latency float64 // eq. 45, cycles from generation to the tail's arrival

	// Streams (eqs. 1-2) and the per-quadrant generation rate 1/tau = Rate/4.
	Alpha, Beta, InvTau float64
	// Contention probabilities (eqs. 43-44) and their bifurcation fractions (4-5).
	PX, PY, FracX, FracY float64
	// Waiting times (eqs. 23, 25, 26, 27) and the utilisations of their queues.
	WWE, WNE, WNS, WWS         float64
	RhoWE, RhoNE, RhoNS, RhoWS float64
	// Fig. 1 quantities. FX[i][j] is F^X_{i+1,j+1} (i < K+1, j < K); FY[i][j] is
	// F^Y_{i+1,j+1} (i < K, j < K+1); TX, TY the residual transmission times
	// (32-39) on the same indices, TBX, TBY the link utilisation times (30-31);
	// TbX[j], TbY[j] the beta streams' residual times T_{j+1} (40-42).
	FX, FY, TX, TY, UX, UY [][]float64
	TbX, TbY               []float64
	TAlpha                 float64 // eq. 46
}

// ZeroLoad is the model's latency as the rate tends to 0, worked out by hand:
// every wait and contention probability vanishes, an adaptive message's residual
// time from X_{1,1} is T_DT + 2K (eq. 30 with T-bar = T_DT), a beta message's
// from its first channel is T_DT + K (40-41), so eq. 45 gives
// alpha (L + 2K) + 2 beta (L + K) = L + 2K (alpha + beta) = L + 2K k/(k+1)
// with K = k/4: L + k^2 / (2(k+1)).
func ZeroLoad(k, L int) float64 {
	return float64(L) + float64(k*k)/float64(2*(k+1))
}

// state is the iterated unknowns.
type state struct{ px, py, wwe, wne, wns, wws float64 }

// Solve solves the model under the chosen readings of the garbled equations.
func Solve(p Params, r Readings) (*Result, error) {
	return SolveContext(context.Background(), p, r)
}

// SolveContext is Solve that stops when ctx ends, returning ctx's error: it looks
// at ctx before every sweep, O(k^2) work (a second at k = 36,000, the largest
// side whose tables fit 4 GiB).
func SolveContext(ctx context.Context, p Params, r Readings) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	K := p.K / 4
	k := float64(p.K)
	res := &Result{Params: p}
	res.Alpha = (k - 1) / (k + 1)
	res.Beta = 1 / (k + 1)
	res.InvTau = p.Rate / 4
	if err := ctx.Err(); err != nil {
		return nil, err // before the tables: O(k^2) to allocate
	}
	m := newMats(K)
	var s state
	for it := 1; it <= MaxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Iterations = it
		next, lat, why := m.sweep(s, p, K, res, r)
		if why != "" {
			res.Saturated, res.Reason = true, why
			return res, nil
		}
		d := math.Max(math.Max(math.Max(rel(next.px, s.px), rel(next.py, s.py)),
			math.Max(rel(next.wwe, s.wwe), rel(next.wne, s.wne))),
			math.Max(math.Max(rel(next.wns, s.wns), rel(next.wws, s.wws)), rel(lat, res.Latency)))
		if it > Undamped { // oscillating between the branches of r, s, v: damp
			next = state{mix(next.px, s.px), mix(next.py, s.py), mix(next.wwe, s.wwe),
				mix(next.wne, s.wne), mix(next.wns, s.wns), mix(next.wws, s.wws)}
		}
		s = next
		res.Latency = lat
		if d <= Tol {
			m.fill(res, s)
			return res, nil
		}
	}
	res.Saturated = true
	res.Reason = fmt.Sprintf("no convergence within %d iterations", MaxIter)
	return res, nil
}

func mix(a, b float64) float64 { return Damping*a + (1-Damping)*b }

func rel(a, b float64) float64 {
	d := math.Abs(a - b)
	if m := math.Max(math.Abs(a), math.Abs(b)); m > 1 {
		d /= m
	}
	if math.IsNaN(d) {
		return math.Inf(1)
	}
	return d
}

// Bytes estimates the memory of one solution on the k x k torus: six tables of
// (k/4+1) x k/4 numbers (flows, residual times and their sums), which the
// Result keeps.
func Bytes(k int) int64 {
	K := int64(max(k, 0) / 4)
	if K > 1<<24 { // (2^24)^2 x 48 bytes is already 2^54
		return 1 << 62
	}
	return 6*(K+1)*(K*8+24) + 4*(K+1)*8
}

type mats struct {
	fx, fy, tx, ty, ux, uy [][]float64
	tbx, tby, ubx, uby     []float64
	talpha                 float64
}

func grid(r, c int) [][]float64 {
	g := make([][]float64, r)
	for i := range g {
		g[i] = make([]float64, c)
	}
	return g
}

func newMats(K int) *mats {
	return &mats{
		fx: grid(K+1, K), fy: grid(K, K+1), tx: grid(K+1, K), ty: grid(K, K+1),
		ux: grid(K+1, K), uy: grid(K, K+1),
		tbx: make([]float64, K+1), tby: make([]float64, K+1),
		ubx: make([]float64, K+1), uby: make([]float64, K+1),
	}
}

func (m *mats) fill(res *Result, s state) {
	res.PX, res.PY = s.px, s.py
	res.WWE, res.WNE, res.WNS, res.WWS = s.wwe, s.wne, s.wns, s.wws
	res.FX, res.FY, res.TX, res.TY, res.UX, res.UY = m.fx, m.fy, m.tx, m.ty, m.ux, m.uy
	res.TbX, res.TbY = m.tbx[1:], m.tby[1:]
	res.TAlpha = m.talpha
}

// sweep computes one step of the iteration from s: flows (6-17), residual
// times (32-42), utilisation times (28-31), queues (23-27), contention (43-44)
// and latency (45-46). It returns the saturation reason when a probability or a
// utilisation reaches 1.
func (m *mats) sweep(s state, p Params, K int, res *Result, r Readings) (state, float64, string) {
	px, py := s.px, s.py
	den := 1 - px*py
	fX := (1 - px) / den
	fY := px * (1 - py) / den
	res.FracX, res.FracY = fX, fY
	a := res.Alpha * res.InvTau
	b := res.Beta * res.InvTau
	// Flows, west-east and north-south from X_{1,1} (0-based indices below).
	for i := 0; i <= K; i++ {
		for j := 0; j <= K; j++ {
			if i < K && j < K { // node N_{i+1,j+1} inside: bifurcation
				in := 0.0
				if i == 0 && j == 0 {
					in = a
				}
				if j > 0 {
					in += m.fx[i][j-1]
				}
				if i > 0 {
					in += m.fy[i-1][j]
				}
				m.fx[i][j] = in * fX
				m.fy[i][j] = in * fY
			} else if i == K && j < K { // last row: X only (10-11)
				in := m.fy[K-1][j]
				if j > 0 {
					in += m.fx[K][j-1]
				}
				m.fx[K][j] = in
			} else if j == K && i < K { // last column: Y only (14, 17)
				in := m.fx[i][K-1]
				if i > 0 {
					in += m.fy[i-1][K]
				}
				m.fy[i][K] = in
			}
		}
	}
	// Residual transmission times, backwards.
	tdt := float64(p.L)
	both := px * py
	for i := K; i >= 0; i-- {
		for j := K; j >= 0; j-- {
			if i < K { // T^Y_{i+1,j+1}
				switch {
				case i == K-1 && j == K: // (36)
					m.ty[i][j] = tdt + 1
				case i == K-1: // (37)
					m.ty[i][j] = s.wne + m.tx[K][j] + 1
				case j == K: // (38)
					m.ty[i][j] = s.wns + m.ty[i+1][K] + 1
				default: // (39)
					m.ty[i][j] = (1-px)*m.tx[i+1][j] + px*(1-py)*m.ty[i+1][j] +
						both*r.Eq39.blocked(r.Eq35, s, m.tx[i+1][j], m.ty[i+1][j]) + 1
				}
			}
			if j < K { // T^X_{i+1,j+1}
				switch {
				case i == K && j == K-1: // (32)
					m.tx[i][j] = tdt + 1
				case j == K-1: // (33)
					m.tx[i][j] = s.wws + m.ty[i][K] + 1
				case i == K: // (34)
					m.tx[i][j] = s.wwe + m.tx[K][j+1] + 1
				default: // (35)
					m.tx[i][j] = (1-px)*m.tx[i][j+1] + px*(1-py)*m.ty[i][j+1] +
						both*r.Eq35.blocked(s.wwe, m.tx[i][j+1], s.wws, m.ty[i][j+1]) + 1
				}
			}
		}
	}
	// Beta streams (40-42), index n = channels still to cross.
	m.tbx[1], m.tby[1] = tdt+1, tdt+1
	for n := 2; n <= K; n++ {
		m.tbx[n] = s.wwe + m.tbx[n-1] + 1
		m.tby[n] = s.wns + m.tby[n-1] + 1
	}
	// Link utilisation times (28-31).
	for n := 1; n <= K; n++ {
		m.ubx[n] = m.tbx[n] - float64(n)
		m.uby[n] = m.tby[n] - float64(n)
	}
	for i := 0; i <= K; i++ {
		for j := 0; j < K; j++ {
			m.ux[i][j] = m.tx[i][j] - float64(2*K-(i+1)-(j+1)+2)
		}
	}
	for i := 0; i < K; i++ {
		for j := 0; j <= K; j++ {
			m.uy[i][j] = m.ty[i][j] - float64(2*K-(i+1)-(j+1)+2)
		}
	}
	sq := func(u float64) float64 { return u*u + r.Var.variance(u, tdt) }
	// The four queues: each a list of (rate, utilisation time) classes; the
	// doubled classes of the paper enter with their factor (see doc.go).
	var q [4]queue
	// W_WE (23-24): from north turning east (last row and inside), local.
	for j := 0; j < K; j++ {
		q[0].add(m.fy[K-1][j], m.ux[K][j], sq)
	}
	for i := 1; i < K; i++ {
		for j := 0; j < K; j++ {
			q[0].add(fX*m.fy[i-1][j], m.ux[i][j], sq)
		}
	}
	q[0].addRho(b, r.Eq24.beta(m.ubx, K), b, m.ubx[K], sq)
	q[0].add(a*fX, m.ux[0][0], sq)
	// W_NE (25): from west going straight east (last row and inside), beta
	// passing through, local.
	for j := 0; j < K-1; j++ {
		q[1].add(m.fx[K][j], m.ux[K][j+1], sq)
	}
	for i := 0; i < K; i++ {
		for j := 0; j < K-1; j++ {
			f := m.fx[i][j]
			if r.Eq25 == PrintedFY {
				f = m.fy[i][j]
			}
			q[1].add(fX*f, m.ux[i][j+1], sq)
		}
	}
	for n := 1; n <= r.BetaRange.top(K); n++ {
		q[1].add(b, m.ubx[n], sq)
	}
	q[1].add(a*fX, m.ux[0][0], sq)
	// W_NS (26): from west turning south (last column and inside), local.
	for i := 0; i < K; i++ {
		q[2].add(m.fx[i][K-1], m.uy[i][K], sq)
	}
	for i := 0; i < K; i++ {
		for j := 0; j < K-1; j++ {
			q[2].add(fY*m.fx[i][j], m.uy[i][j+1], sq)
		}
	}
	q[2].addRho(b, r.Eq24.beta(m.uby, K), b, m.uby[K], sq)
	q[2].add(a*fY, m.uy[0][0], sq)
	// W_WS (27): from north going straight south, beta passing, local.
	for i := 0; i < K-1; i++ {
		q[3].add(m.fy[i][K], m.uy[i+1][K], sq)
	}
	for i := 0; i < K-1; i++ {
		for j := 0; j < K; j++ {
			u := m.uy[i+1][j]
			if r.Eq27 == PrintedSX {
				u = m.ux[i+1][j]
			}
			q[3].add(fY*m.fy[i][j], u, sq)
		}
	}
	for n := 1; n <= r.BetaRangeY.top(K); n++ {
		q[3].add(b, m.uby[n], sq)
	}
	q[3].add(a*fY, m.uy[0][0], sq)
	res.RhoWE, res.RhoNE, res.RhoNS, res.RhoWS = q[0].rho, q[1].rho, q[2].rho, q[3].rho
	names := [4]string{"WE", "NE", "NS", "WS"}
	var w [4]float64
	for n := range q {
		if !(q[n].rho < 1) {
			return s, 0, fmt.Sprintf("utilisation rho_%s = %.4g reached 1", names[n], q[n].rho)
		}
		w[n] = q[n].m2 / (1 - q[n].rho)
	}
	// Contention probabilities (43-44).
	var nx, ny float64
	for i := 0; i <= K; i++ {
		for j := 0; j < K; j++ {
			nx += m.fx[i][j] * m.ux[i][j]
		}
	}
	for i := 0; i < K; i++ {
		for j := 0; j <= K; j++ {
			ny += m.fy[i][j] * m.uy[i][j]
		}
	}
	for n := 1; n <= K; n++ {
		nx += b * m.ubx[n]
		ny += b * m.uby[n]
	}
	nx, ny = 2*nx, 2*ny
	if !(nx < 1) {
		return s, 0, fmt.Sprintf("contention probability p_X = %.4g reached 1", nx)
	}
	if !(ny < 1) {
		return s, 0, fmt.Sprintf("contention probability p_Y = %.4g reached 1", ny)
	}
	next := state{px: nx, py: ny, wwe: w[0], wne: w[1], wns: w[2], wws: w[3]}
	// Latency (45-46), with the waits of this step.
	tx, ty := m.tx[0][0], m.ty[0][0]
	var blocked float64
	if s.wwe+s.wne < s.wns+s.wws { // v = 1
		blocked = s.wwe + s.wne + tx
	} else {
		blocked = s.wns + s.wws + ty
	}
	m.talpha = (1-px)*tx + px*(1-py)*ty + both*blocked
	lat := res.Alpha*m.talpha + res.Beta*(m.tbx[K]+s.wwe+s.wne) + res.Beta*(m.tby[K]+s.wns+s.wws)
	if math.IsNaN(lat) || math.IsInf(lat, 0) {
		return s, 0, "latency is not finite"
	}
	return next, lat, ""
}

// queue accumulates an M/G/1 queue's classes in the form of eq. 23: m2 is the
// sum of rate times second moment, rho twice the sum of rate times mean.
type queue struct{ rho, m2 float64 }

func (q *queue) add(rate, u float64, sq func(float64) float64) {
	q.rho += 2 * rate * u
	q.m2 += rate * sq(u)
}

// addRho adds a class whose mean in the utilisation (rhoU) may differ from the
// one in the waiting time (wU): eq. 24's beta term against eq. 23's.
func (q *queue) addRho(rateRho, rhoU, rateW, wU float64, sq func(float64) float64) {
	q.rho += 2 * rateRho * rhoU
	q.m2 += rateW * sq(wU)
}
