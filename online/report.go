package online

// Report is the "online" field of a schedule written by wormlab run: the run's
// settings and figures. Fields are in the order their JSON names sort.
type Report struct {
	Algo               string         `json:"algo"`
	Arb                string         `json:"arb"`
	Delayed            *DelayedReport `json:"delayed,omitempty"`
	FlitMoves          int64          `json:"flit_moves"`
	InstanceLowerBound int            `json:"instance_lower_bound"`
	LostArbitrations   int64          `json:"lost_arbitrations"`
	Meet               Meet           `json:"meet"`
	Phased             *PhasedReport  `json:"phased,omitempty"`
	Rotate             bool           `json:"rotate,omitempty"`
	Seed               uint64         `json:"seed"`
}

// DelayedReport describes a delayed-greedy (Algorithm A) or delayed-random run.
type DelayedReport struct {
	R            *int    `json:"R,omitempty"`
	T            *int    `json:"T,omitempty"`
	FinalT       *int    `json:"final_T,omitempty"`
	K            float64 `json:"k,omitempty"`
	Late         *int    `json:"late,omitempty"`
	LatePerRound []int   `json:"late_per_round,omitempty"`
	PhaseBound   *int    `json:"phase_bound,omitempty"`
	Phases       *int    `json:"phases,omitempty"`
	PhasesPerL   bool    `json:"phases_per_L,omitempty"`
	Rounds       *int    `json:"rounds,omitempty"`
	Unit         *int    `json:"unit,omitempty"`
	Variant      string  `json:"variant"`
}

// PhasedReport describes a phased run.
type PhasedReport struct {
	Alpha            float64 `json:"alpha"`
	Colours          int     `json:"colours"`
	Delta            int     `json:"delta"`
	Lambda           int     `json:"lambda"`
	PhaseOneEnd      int     `json:"phase_one_end"`
	RemovedFlitMoves int64   `json:"removed_flit_moves"`
	SubPhase         int     `json:"subphase"`
	Undelivered      int     `json:"undelivered_after_phase_one"`
}

// Report returns the run's report.
func (r *Result) Report() *Report {
	n := &Report{
		Algo: r.Algo, Arb: r.Arb, Seed: r.Seed, Rotate: r.Rotate,
		InstanceLowerBound: r.LowerBound, Meet: r.Meet,
		FlitMoves: r.Counters.FlitMoves, LostArbitrations: r.Counters.Lost,
	}
	ptr := func(x int) *int { return &x }
	if d := r.Delayed; d != nil {
		x := &DelayedReport{Variant: d.Variant}
		if d.Variant == DelayRandom {
			x.R, x.Unit = ptr(d.R), ptr(d.Unit)
		} else {
			x.K, x.Phases, x.T, x.PhaseBound, x.PhasesPerL = d.K, ptr(d.Phases), ptr(d.T), ptr(d.PhaseBound), d.PerL
			if d.Rounds > 1 || len(d.LatePerRound) > 0 {
				x.Rounds, x.FinalT, x.LatePerRound = ptr(d.Rounds), ptr(d.FinalT), d.LatePerRound
			} else {
				x.Late = ptr(d.Late)
			}
		}
		n.Delayed = x
	}
	if p := r.Phased; p != nil {
		n.Phased = &PhasedReport{Alpha: p.Alpha, Delta: p.Delta, Colours: p.Colours,
			Lambda: p.Lambda, SubPhase: p.SubPhase, PhaseOneEnd: p.PhaseOneEnd,
			Undelivered: p.Undelivered, RemovedFlitMoves: r.Counters.WastedFlits}
	}
	return n
}
