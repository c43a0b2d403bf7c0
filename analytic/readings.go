package analytic

import "math"

// Readings chooses, for each equation the copy of seed 004 prints garbled, which
// reading Solve implements. The zero value is Paper, the readings that match the
// paper's own Model columns best (doc.go gives the error of every alternative).
type Readings struct {
	Eq35       Blocked   // the both-busy term of eqs. 35 and 46
	Eq39       Pairing   // which wait goes with which direction in eq. 39
	Eq24       BetaIndex // the beta stream's utilisation time in eq. 24
	Eq25       Straight  // the flow of eq. 25's second term
	Eq27       Moment    // the moment of eq. 27's second term
	BetaRange  Range     // the beta sum of eq. 25
	BetaRangeY Range     // the beta sum of eq. 27
	Var        Variance  // section 4.2.2's variance of the link utilisation time
}

// Paper is the chosen reading of every garbled equation.
var Paper = Readings{}

// Blocked reads eq. 35's r(W_WE T^X_{i,j+1}) + (1-r)(W_WS T^Y_{i,j+1}).
type Blocked int

const (
	// SumMin: wait then go on, the shorter wait chosen:
	// min(W_WE + T^X, W_WS + T^Y) by the binary r of the text.
	SumMin Blocked = iota
	// Product: the literal juxtaposition read as a product W * T.
	Product
	// WaitOnly: the bracket holds only the residual time, no wait (the wait
	// dropped by the extraction).
	WaitOnly
)

func (b Blocked) eval(w1, t1, w2, t2 float64) float64 {
	switch b {
	case Product:
		if w1 < w2 {
			return w1 * t1
		}
		return w2 * t2
	case WaitOnly:
		if w1 < w2 {
			return t1
		}
		return t2
	}
	if w1 <= w2 { // r = 1 unless W_WS < W_WE
		return w1 + t1
	}
	return w2 + t2
}

// blocked is eq. 35's both-busy term: going on along X waits W_WE, turning to Y
// waits W_WS.
func (b Blocked) blocked(wx, tx, wy, ty float64) float64 { return b.eval(wx, tx, wy, ty) }

// Pairing reads eq. 39's s(W_NS T^X_{i+1,j}) + (1-s)(W_NE T^Y_{i+1,j}).
type Pairing int

const (
	// Turn: a message that came down a Y channel turns east waiting W_NE and goes
	// on south waiting W_NS (as in eqs. 37-38), the shorter wait chosen.
	Turn Pairing = iota
	// Printed: W_NS with T^X and W_NE with T^Y as printed, s as printed.
	Printed
)

func (p Pairing) blocked(b Blocked, s state, tx, ty float64) float64 {
	if p == Printed {
		// s = 0 when W_NE < W_NS: then (1-s)(W_NE, T^Y).
		return b.eval(s.wns, tx, s.wne, ty)
	}
	return b.eval(s.wne, tx, s.wns, ty)
}

// BetaIndex reads eq. 24's T-bar^X_{K-1} in the beta term.
type BetaIndex int

const (
	// IndexK: T-bar_K, the local beta message's first channel, as in eq. 23.
	IndexK BetaIndex = iota
	// IndexKMinus1: T-bar_{K-1} as printed (0 when K = 1).
	IndexKMinus1
)

func (bi BetaIndex) beta(u []float64, K int) float64 {
	if bi == IndexKMinus1 {
		return u[K-1]
	}
	return u[K]
}

// Straight reads the flow in eq. 25's second term.
type Straight int

const (
	// FlowFX: f^X F^X_{i,j}, the flow that came from the west along X_{i,j} and
	// goes on east to X_{i,j+1}, the contenders of a north-east message.
	FlowFX Straight = iota
	// PrintedFY: f^X F^Y_{i,j} as printed.
	PrintedFY
)

// Moment reads the moment in eq. 27's second term.
type Moment int

const (
	// MomentSY: (S^Y_{i+1,j})^2, the vertical channel the straight flow uses.
	MomentSY Moment = iota
	// PrintedSX: (S^X_{i+1,j})^2 as printed.
	PrintedSX
)

// Range reads the upper limit of the beta sums of eqs. 25 and 27.
type Range int

const (
	// UpToK: n = 1..K as eq. 27 prints, the local beta message included.
	UpToK Range = iota
	// UpToKMinus1: beta messages passing through (n = 1..K-1 channels left),
	// as eq. 25 prints.
	UpToKMinus1
)

func (r Range) top(K int) int {
	if r == UpToKMinus1 {
		return K - 1
	}
	return K
}

// Variance reads section 4.2.2's assumption on the link utilisation time u with
// message length L.
type Variance int

const (
	// AllExp: the whole utilisation time exponential: sigma^2 = u^2.
	AllExp Variance = iota
	// WaitExp: the transmission part is deterministic (fixed length), the
	// waiting part exponential with mean u - L, independent: sigma^2 = (u-L)^2.
	WaitExp
	// Deterministic: sigma^2 = 0.
	Deterministic
	// LenExp: exponential message length and exponential wait: L^2 + (u-L)^2.
	LenExp
)

func (v Variance) variance(u, L float64) float64 {
	w := math.Max(u-L, 0)
	switch v {
	case WaitExp:
		return w * w
	case Deterministic:
		return 0
	case LenExp:
		return L*L + w*w
	}
	return u * u
}
