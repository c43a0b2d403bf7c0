package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The runs with both of BookSim2's allocator rules: --select rotate and the
// switch allocator's input stage --switch-input output (sim.ByOutput).
const bothRules = " --select rotate --switch-input output"

// checkSwitchInputClaims checks what docs/dragonfly.md (flat: its words joined
// by single spaces) says of the switch allocator's input stage on the small
// networks: with both rules every latency difference up to the last steady load
// but the concentrated mesh's at 0.20 is at most the quoted bound (under 5%),
// saturation differs by at most the quoted share, and the concentrated mesh
// saturates above BookSim2 with them, which puts 0.20 further from wormlab's
// saturation than from BookSim2's (the account of its latency there).
func checkSwitchInputClaims(t *testing.T, rows []dfRow, diffs map[string]map[string]map[float64]float64, flat string) {
	nets := map[string]string{"agree-ff": "hx-dor", "agree-cmesh": "dor", "agree-anynet": "any-updown"}
	maxOther, satMax := 0.0, 0.0
	for kase, wl := range nets {
		for r, d := range diffs[kase][wl+bothRules] {
			switch {
			case r == 1.0:
				satMax = max(satMax, math.Abs(d))
			case kase != "agree-cmesh" || r != 0.2:
				maxOther = max(maxOther, math.Abs(d))
			}
		}
	}
	require.Less(t, maxOther, 5.0, "the doc says both rules bring every other latency within the issue's 5%%")
	any, anyR := diffs["agree-anynet"]["any-updown"+bothRules], diffs["agree-anynet"]["any-updown --select rotate"]
	cm, cmR := diffs["agree-cmesh"]["dor"+bothRules], diffs["agree-cmesh"]["dor --select rotate"]
	cells := dfCells(rows, "agree-cmesh", "uniform")
	satW, satB := cells["wormlab:dor"+bothRules][1.0].acc, cells["booksim:dor_no_express"][1.0].acc
	require.Greater(t, satW, satB, "the doc says wormlab saturates the concentrated mesh above BookSim2 with both rules")
	bsLo, bsHi := math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		if r.sim == "booksim" && r.kase == "agree-cmesh" && r.rate == 0.2 && r.hasLat {
			bsLo, bsHi = min(bsLo, r.latency), max(bsHi, r.latency)
		}
	}
	want := fmt.Sprintf("every latency up to the last steady load lies within %.1f%% of BookSim2's but the concentrated mesh's at 99%% of saturation: "+
		"the tree at 98%% %+.1f%% (was %+.1f%% with `rotate` alone), at 81%% %+.1f%%, the flattened butterfly at 92%% %+.1f%%, and saturation within %.1f%% on all three. "+
		"The concentrated mesh at 99%% goes from %+.1f%% to %+.1f%%: with both rules wormlab saturates %.1f%% above BookSim2 (%.4f against %.4f flits/terminal/cycle), "+
		"so 0.20 is %.1f%% of wormlab's saturation and %.1f%% of BookSim2's, and a source queue's wait grows as 1/(1 - load/saturation) (1/%.3f against 1/%.3f): "+
		"a gap in saturation well within the issue's 5%% moves the latency at 99%% by tens of percent, in either direction (BookSim2's own three seeds there give %.1f-%.1f cycles)",
		maxOther, any[0.12], anyR[0.12], any[0.1], diffs["agree-ff"]["hx-dor"+bothRules][0.6], satMax,
		cmR[0.2], cm[0.2], 100*(satW-satB)/satB, satW, satB,
		100*0.2/satW, 100*0.2/satB, 1-0.2/satW, 1-0.2/satB, bsLo, bsHi)
	require.True(t, strings.Contains(flat, want), "docs/dragonfly.md should say:\n%s", want)
}
