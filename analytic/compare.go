package analytic

import "math"

// Row sets a table entry beside wormlab's model under some readings.
type Row struct {
	Entry
	Ours     *Result
	ErrModel float64 // (ours - paper's model) / paper's model, percent; NaN if saturated
	ErrSim   float64 // (ours - paper's simulation) / paper's simulation, percent
}

// Compare solves the model at every entry of Tables 1 and 2.
func Compare(r Readings) []Row {
	var rows []Row
	for _, e := range Tables() {
		res, err := Solve(Params{K: e.K, L: TableL, Rate: e.Rate}, r)
		if err != nil { // the tables hold only valid points
			panic(err)
		}
		row := Row{Entry: e, Ours: res, ErrModel: math.NaN(), ErrSim: math.NaN()}
		if !res.Saturated {
			row.ErrModel = 100 * (res.Latency - e.Model) / e.Model
			row.ErrSim = 100 * (res.Latency - e.Sim) / e.Sim
		}
		rows = append(rows, row)
	}
	return rows
}

// Score summarises Compare against the goals: the largest absolute
// error (percent) against the Model column for 4x4 and 8x8, the mean absolute
// error for 12x12 and 16x16 (a saturated point counts 100%), and the first rate
// of the tables' grid (0.001 steps) at which the 16x16 model saturates.
type Score struct {
	Max4, Max8, Mean12, Mean16 float64
	Sat16                      float64
}

// ScoreOf computes the Score of a set of readings.
func ScoreOf(r Readings) Score {
	var s Score
	n := map[int]int{}
	for _, row := range Compare(r) {
		e := math.Abs(row.ErrModel)
		if math.IsNaN(e) {
			e = 100
		}
		n[row.K]++
		switch row.K {
		case 4:
			s.Max4 = math.Max(s.Max4, e)
		case 8:
			s.Max8 = math.Max(s.Max8, e)
		case 12:
			s.Mean12 += e
		case 16:
			s.Mean16 += e
		}
	}
	s.Mean12 /= float64(n[12])
	s.Mean16 /= float64(n[16])
	for i := 1; i <= 100; i++ {
		rate := float64(i) / 1000
		res, _ := Solve(Params{K: 16, L: TableL, Rate: rate}, r)
		if res.Saturated {
			s.Sat16 = rate
			break
		}
	}
	return s
}

// Saturation scans rates step, 2 step, ... below 1 and returns the first at which
// the model reports saturation for k and L, with the reason (0 and "" if none).
// A scan, not a bisection: the binary choices of eqs. 35, 39 and 46 make the
// iteration fail to converge at isolated rates below the rate where a
// utilisation reaches 1 (doc.go), so saturation is not monotone in the rate.
func Saturation(k, L int, r Readings, step float64) (float64, string) {
	for i := 1; float64(i)*step < 1; i++ {
		rate := float64(i) * step
		res, err := Solve(Params{K: k, L: L, Rate: rate}, r)
		if err == nil && res.Saturated {
			return rate, res.Reason
		}
	}
	return 0, ""
}

// FactorScore is Solve at the tables' rates times a factor against the paper's Model
// column for one torus: the largest and mean absolute error, percent (a saturated
// point counts 100%).
func FactorScore(k int, r Readings, factor float64) (maxErr, meanErr float64) {
	n := 0
	for _, e := range Tables() {
		if e.K != k {
			continue
		}
		res, _ := Solve(Params{K: k, L: TableL, Rate: e.Rate * factor}, r)
		d := 100.0
		if !res.Saturated {
			d = math.Abs(100 * (res.Latency - e.Model) / e.Model)
		}
		maxErr = math.Max(maxErr, d)
		meanErr += d
		n++
	}
	return maxErr, meanErr / float64(n)
}

// BestFactor is the rate factor in [lo, hi] (steps of step) that minimises the
// mean squared relative error of Solve against the Model column for k, and the
// root mean square error there, percent. A factor that fits every torus alike
// would be a unit (the rate counted per some other cycle); one that depends on k
// is not.
func BestFactor(k int, r Readings, lo, hi, step float64) (factor, rms float64) {
	best := math.Inf(1)
	for i := 0; lo+float64(i)*step <= hi+1e-12; i++ {
		f := lo + float64(i)*step
		s, n := 0.0, 0
		for _, e := range Tables() {
			if e.K != k {
				continue
			}
			res, _ := Solve(Params{K: k, L: TableL, Rate: e.Rate * f}, r)
			d := 1.0
			if !res.Saturated {
				d = (res.Latency - e.Model) / e.Model
			}
			s += d * d
			n++
		}
		if s /= float64(n); s < best {
			best, factor = s, f
		}
	}
	return factor, 100 * math.Sqrt(best)
}
