package adversary

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// Report is the shape of wormlab adversary --json: what was searched, the ratio
// found with both sides named, how the optimum behind it is proven, the best
// instance's measures, and the search's counts.
type Report struct {
	Objective string `json:"objective"`
	Network   string `json:"network"`
	Strategy  string `json:"strategy"`
	Seed      uint64 `json:"seed"`
	Workers   int    `json:"workers"`
	// Ratio is Numerator / Denominator; Exact when both sides are what they name.
	Ratio       float64 `json:"ratio"`
	Numerator   Value   `json:"numerator"`
	Denominator Value   `json:"denominator"`
	Exact       bool    `json:"exact"`
	// Proof names the lower bound that proves the optimum behind the ratio ("" when
	// no side is an optimum); Certificate the certificate written (--certify).
	Proof       string `json:"proof,omitempty"`
	Certificate string `json:"certificate,omitempty"`
	// Verified says the schedule behind the numerator passed verify (its model).
	Verified string `json:"verified,omitempty"`
	Worms    int    `json:"worms"`
	C        int    `json:"c"`
	CL       int    `json:"c_L"`
	D        int    `json:"d"`
	LMin     int    `json:"l_min"`
	LMax     int    `json:"l_max"`
	Keep     string `json:"keep,omitempty"`

	Moves        int          `json:"moves"`
	Evaluations  int          `json:"evaluations"`
	Failed       int          `json:"not_measurable"`
	FirstFailure string       `json:"first_failure,omitempty"`
	Chains       []ChainStats `json:"chains"`
	Interrupted  bool         `json:"interrupted,omitempty"`
}

// Report describes the result for the named objective and strategy; in is the
// best candidate as an instance.
func (r *Result) Report(cfg *Config, objective string, in *model.Instance) Report {
	sc := r.Best.Score
	ms := in.Measure()
	lmin := ms.LMax
	for i := range in.Messages {
		lmin = min(lmin, in.Messages[i].L)
	}
	rep := Report{Objective: objective, Network: cfg.Space.Name, Strategy: cfg.Strategy.Name(), Seed: cfg.Seed,
		Workers: len(r.Chains), Ratio: sc.Ratio(), Numerator: sc.Num, Denominator: sc.Den, Exact: sc.Exact(),
		Worms: len(in.Messages), C: ms.C, CL: ms.CL, D: ms.D, LMin: lmin, LMax: ms.LMax, Keep: cfg.Space.Keep.String(),
		Moves: r.Moves, Evaluations: r.Evaluations, Failed: r.Failed, FirstFailure: r.FirstFailure, Chains: r.Chains,
		Interrupted: r.Interrupted}
	if sc.Opt != nil {
		rep.Proof = fmt.Sprintf("%s bound (%s model)", sc.Opt.Source, sc.Opt.Model)
	}
	return rep
}

// Extra is what the best instance carries in its "adversary" field: the
// objective, the ratio with both sides, the proof, the search's seed and counts.
func (rep Report) Extra() map[string]any {
	x := map[string]any{
		"objective": rep.Objective, "network": rep.Network, "strategy": rep.Strategy, "seed": rep.Seed,
		"workers": rep.Workers, "ratio": rep.Ratio, "numerator": rep.Numerator, "denominator": rep.Denominator,
		"exact": rep.Exact, "moves": rep.Moves, "evaluations": rep.Evaluations,
	}
	if rep.Proof != "" {
		x["proof"] = rep.Proof
	}
	if rep.Keep != "" {
		x["keep"] = rep.Keep
	}
	return x
}
