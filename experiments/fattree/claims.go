package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/wormlab/wormlab/experiments/internal/study"
)

// The claims of seed 000, section B.3, each against the committed run: the table
// docs/fattree-study.md quotes, with the verdict computed from the 99% intervals
// (reproduced, not reproduced, depends on a choice) and the figures it rests on.

// side is one comparison's outcome: A against B at one N.
type side struct {
	n    int
	name string // what A and B are, when a claim tallies several pairs
	x    cmp
}

// sides is A against B at every N both have.
func sides(data map[string]map[string]map[int]val, name string) []side {
	var out []side
	for _, n := range sizes {
		if x := compare(data, name, n); x.ok {
			out = append(out, side{n, name, x})
		}
	}
	return out
}

// of is A against B for two series given directly.
func of(a, b map[int]val, name string) []side {
	var out []side
	for _, n := range sizes {
		x, okx := a[n]
		y, oky := b[n]
		if okx && oky && y.lat.Mean > 0 {
			out = append(out, side{n, name, cmp{100 * (x.lat.Mean - y.lat.Mean) / y.lat.Mean, study.Compare(x.lat, y.lat), x, y, true}})
		}
	}
	return out
}

// tally counts the outcomes: how many A lower, overlapping, higher.
func tally(ss []side) (lower, overlap, higher int) {
	for _, s := range ss {
		switch s.x.side {
		case study.Lower:
			lower++
		case study.Higher:
			higher++
		default:
			overlap++
		}
	}
	return
}

// ordered is the verdict on "A below B" (want study.Lower) or "A above B" (want
// study.Higher) over the cases: reproduced when every case's intervals separate
// that way, reproduced where they separate when none separates the other way, not
// reproduced otherwise; with the counts.
func ordered(ss []side, want study.Side) string {
	if len(ss) == 0 {
		return "not run"
	}
	lower, overlap, higher := tally(ss)
	good, bad := lower, higher
	if want == study.Higher {
		good, bad = higher, lower
	}
	means := 0 // cases whose means stand as the paper says
	for _, s := range ss {
		if (want == study.Lower) == (s.x.pct < 0) && s.x.pct != 0 {
			means++
		}
	}
	switch {
	case good == len(ss):
		return fmt.Sprintf("**reproduced** (%d of %d, disjoint intervals)", good, len(ss))
	case good == 0 && bad == 0:
		return fmt.Sprintf("**not reproduced: level** (%d of %d overlap; the means as the paper says in %d of %d)", overlap, len(ss), means, len(ss))
	case bad == 0:
		return fmt.Sprintf("**reproduced where the intervals separate** (%d of %d; %d overlap; the means as the paper says in %d of %d)", good, len(ss), overlap, means, len(ss))
	case good == 0 && overlap == 0:
		return fmt.Sprintf("**not reproduced: reversed** (%d of %d, disjoint intervals)", bad, len(ss))
	}
	return fmt.Sprintf("**not reproduced** (as the paper in %d of %d, reversed in %d, %d overlap; the means as the paper says in %d of %d)", good, len(ss), bad, overlap, means, len(ss))
}

// saving says the largest saving of a set of cases, or that none saves.
func saving(most float64) string {
	if most <= 0 {
		return "; no case saves"
	}
	return fmt.Sprintf("; largest saving %.1f%%", most)
}

// orNone lists ns, or says none.
func orNone(ns []string) string {
	if len(ns) == 0 {
		return "none"
	}
	return strings.Join(ns, ", ")
}

// pcts lists (A - B) / B at each N ("N = 16: -1.2%, ...").
func pcts(ss []side) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, fmt.Sprintf("%+.1f%% (%d)", s.x.pct, s.n))
	}
	return strings.Join(parts, ", ")
}

// at is the pair at N = n, "A ± a against B ± b".
func at(ss []side, n int) string {
	for _, s := range ss {
		if s.n == n {
			return fmt.Sprintf("%s against %s", s.x.a.lat.Fmt(0), s.x.b.lat.Fmt(0))
		}
	}
	return "—"
}

// within counts the cases whose saving (B - A) / B, in percent of B, lies in [lo,
// hi]; and the least and greatest saving.
func within(ss []side, lo, hi float64) (n int, least, most float64) {
	least, most = math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		save := 100 * (s.x.b.lat.Mean - s.x.a.lat.Mean) / s.x.b.lat.Mean
		if save >= lo && save <= hi {
			n++
		}
		least, most = math.Min(least, save), math.Max(most, save)
	}
	return
}

type claimRow struct{ claim, figures, verdict string }

// claims is the table of the paper's findings against the run.
func claims(data map[string]map[string]map[int]val) study.Table {
	var rows []claimRow
	add := func(claim, figures, verdict string) { rows = append(rows, claimRow{claim, figures, verdict}) }
	t1 := data["table1"]

	// Table I
	var all []side
	var ratios []string
	for _, p := range patterns {
		ss := of(t1["WORM-RP-RR "+p], t1["STORE-RP-RR "+p], p)
		all = append(all, ss...)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range ss {
			r := s.x.a.lat.Mean / s.x.b.lat.Mean
			lo, hi = math.Min(lo, r), math.Max(hi, r)
		}
		ratios = append(ratios, fmt.Sprintf("%s %.2f-%.2f", p, lo, hi))
	}
	add("WORM outperforms STORE in every case (Table I: 3 patterns, 5 sizes)",
		"WORM / STORE: "+strings.Join(ratios, "; ")+"; N = 4096 random "+at(of(t1["WORM-RP-RR random"], t1["STORE-RP-RR random"], ""), 4096),
		ordered(all, study.Lower))

	// Figure 2
	ghost := append(sides(data, "UNIV with ghosts vs STORE"), sides(data, "UNIV with ghosts vs STORE, complement")...)
	ghost = append(ghost, sides(data, "UNIV with ghosts vs STORE, many-to-1")...)
	rank := sides(data, "UNIV, rank rule alone vs STORE")
	add("STORE is faster than UNIV on every pattern (Figure 2): UNIV as Leighton, Maggs and Rao define it, ghost packets and end-of-stream tokens, priorities from [1, N]",
		"random, complement, many-to-1 at N = 4096: "+at(sides(data, "UNIV with ghosts vs STORE"), 4096)+"; "+
			at(sides(data, "UNIV with ghosts vs STORE, complement"), 4096)+"; "+at(sides(data, "UNIV with ghosts vs STORE, many-to-1"), 4096),
		ordered(ghost, study.Higher))
	add("... UNIV with ghosts, priorities from [1, 8], against STORE with delays from [0, 7] (the paper: both use the same R)",
		"(UNIV - STORE) / STORE: "+pcts(sides(data, "UNIV with ghosts, R = 8 vs STORE, R = 8")),
		ordered(sides(data, "UNIV with ghosts, R = 8 vs STORE, R = 8"), study.Higher))
	add("... UNIV with one-flit ghosts (a ghost crosses L links a packet-step)",
		"(UNIV - STORE) / STORE: "+pcts(sides(data, "UNIV, one-flit ghosts vs STORE")),
		ordered(sides(data, "UNIV, one-flit ghosts vs STORE"), study.Higher))
	add("... UNIV read as its rank rule alone (random priorities order a switch's packets, no ghosts)",
		"(UNIV - STORE) / STORE: "+pcts(rank),
		ordered(rank, study.Higher)+readingDecides(ghost, rank))

	// delays
	for _, d := range []struct{ name, label string }{{"STORE, R = 2 vs none", "STORE with R = 2"}, {"STORE, R = 4 vs none", "STORE with R = 4"},
		{"STORE, R = 8 vs none", "STORE with R = 8"}, {"WORM, R = 2 vs none", "WORM with R = 2 (units of L log2 N)"}} {
		ss := sides(data, d.name)
		_, _, most := within(ss, 0, 0)
		verdict := "**reproduced**: no case where delays save 5% or more with disjoint intervals"
		if len(ss) == 0 {
			verdict = "not run"
		}
		worst := 0.0 // the largest saving of 5% or more with disjoint intervals
		for _, s := range ss {
			if s.x.side == study.Lower && s.x.pct <= -5 && -s.x.pct > worst {
				worst = -s.x.pct
				verdict = fmt.Sprintf("**not reproduced**: delays save %.1f%% at N = %d", -s.x.pct, s.n)
			}
		}
		claim := "Initial random delays never give much advantage (" + d.label + "; \"much\" read as 5%)"
		if d.name != "STORE, R = 2 vs none" {
			claim = "... " + d.label
		}
		add(claim,
			"(delayed - none) / none: "+pcts(ss)+saving(most), verdict)
	}

	// length
	if data["length"] != nil {
		for _, a := range []string{"STORE", "WORM"} {
			var xs []float64
			var ys []study.Est
			for _, L := range lengths {
				xs, ys = append(xs, float64(L)), append(ys, atLength(data, a, L).lat)
			}
			k, c0 := line(xs, ys)
			miss, worst := 0, 0.0
			for i, y := range ys {
				if d := math.Abs(y.Mean - k*xs[i] - c0); d > y.Half {
					miss++
					worst = math.Max(worst, 100*d/y.Mean)
				}
			}
			verdict := fmt.Sprintf("**reproduced**: the line lies within every point's 99%% interval (%d of %d)", len(ys), len(ys))
			if miss > 0 {
				verdict = fmt.Sprintf("**not reproduced**: the line misses %d of %d points' 99%% intervals (by up to %.1f%% of the latency)", miss, len(ys), worst)
			}
			claim := "Latency is linear in L (STORE-RP-RR, N = 256, L = 2 to 128)"
			if a == "WORM" {
				claim = "... WORM-RP-RR"
			}
			add(claim, fmt.Sprintf("weighted least squares: %.2f L %+.1f flit-steps", k, c0), verdict)
		}
	}

	// Figure 3
	adaptive := append(sides(data, "STORE-FP vs STORE-RP"), sides(data, "WORM-FP vs WORM-RP")...)
	gpfp := append(sides(data, "STORE-GP vs STORE-FP"), sides(data, "WORM-GP vs WORM-FP")...)
	add("Adaptive path selection (RP, GP) significantly outperforms FP (Figure 3): FP against RP",
		"(FP - RP) / RP, STORE: "+pcts(sides(data, "STORE-FP vs STORE-RP"))+"; WORM: "+pcts(sides(data, "WORM-FP vs WORM-RP")),
		ordered(adaptive, study.Higher))
	fpfo := append(sides(data, "STORE-FP-FO vs STORE-RP-FO"), sides(data, "WORM-FP-FO vs WORM-RP-FO")...)
	add("... FP against RP with the FO scan (the paper: similar results with the other scans)",
		"(FP - RP) / RP, STORE: "+pcts(sides(data, "STORE-FP-FO vs STORE-RP-FO"))+"; WORM: "+pcts(sides(data, "WORM-FP-FO vs WORM-RP-FO")),
		ordered(fpfo, study.Higher))
	add("... GP against FP",
		"(GP - FP) / FP, STORE: "+pcts(sides(data, "STORE-GP vs STORE-FP"))+"; WORM: "+pcts(sides(data, "WORM-GP vs WORM-FP")),
		ordered(gpfp, study.Lower))

	// Figure 4
	rr := append(sides(data, "STORE-RR vs STORE-FO"), sides(data, "WORM-RR vs WORM-FO")...)
	n48, least, most := within(rr, 4, 8)
	add("RR slightly outperforms FO, by 4-8% in most cases (Figure 4, RP)",
		"(RR - FO) / FO, STORE: "+pcts(sides(data, "STORE-RR vs STORE-FO"))+"; WORM: "+pcts(sides(data, "WORM-RR vs WORM-FO")),
		ordered(rr, study.Lower)+fmt.Sprintf("; saving 4-8%% in %d of %d (%.1f%% to %.1f%%)", n48, len(rr), least, most))
	ff := append(sides(data, "STORE-FF vs STORE-FO"), sides(data, "WORM-FF vs WORM-FO")...)
	fffo := append(sides(data, "STORE-FF, FO ties vs STORE-FO"), sides(data, "WORM-FF, FO ties vs WORM-FO")...)
	ffrr := append(sides(data, "STORE-FF vs STORE-RR"), sides(data, "WORM-FF vs WORM-RR")...)
	add("FF performs similarly to FO: FF as the paper defines it (RR's scan, the farthest first)",
		"(FF - FO) / FO, STORE: "+pcts(sides(data, "STORE-FF vs STORE-FO"))+"; WORM: "+pcts(sides(data, "WORM-FF vs WORM-FO"))+
			"; (FF - RR) / RR, STORE: "+pcts(sides(data, "STORE-FF vs STORE-RR"))+"; WORM: "+pcts(sides(data, "WORM-FF vs WORM-RR")),
		similar(ff, "FO")+"; against RR: "+similar(ffrr, "RR"))
	add("... FF breaking its ties in FO's fixed order (`--scan ff-fo`, not the paper's definition)",
		"(FF - FO) / FO, STORE: "+pcts(sides(data, "STORE-FF, FO ties vs STORE-FO"))+"; WORM: "+pcts(sides(data, "WORM-FF, FO ties vs WORM-FO")),
		similar(fffo, "FO")+tiesDecide(ff, fffo))
	for _, a := range []struct{ alg, band string }{{"STORE", "5-9%"}, {"WORM", "12-15%"}} {
		ss := sides(data, a.alg+"-RP-RR vs "+a.alg+"-GP-FO")
		lo, hi := 5.0, 9.0
		if a.alg == "WORM" {
			lo, hi = 12, 15
		}
		n, least, most := within(ss, lo, hi)
		claim := "RP-RR outperforms GP-FO by 5-9% (STORE)"
		if a.alg == "WORM" {
			claim = "... by 12-15% (WORM)"
		}
		add(claim,
			"(RP-RR - GP-FO) / GP-FO: "+pcts(ss),
			ordered(ss, study.Lower)+fmt.Sprintf("; saving %s in %d of %d (%.1f%% to %.1f%%)", a.band, n, len(ss), least, most))
	}

	// Figure 5
	add("SPLIT with GP-FF uniformly outperforms SPLIT with RP-FO (Figure 5)",
		"(GP-FF - RP-FO) / RP-FO: "+pcts(sides(data, "SPLIT-GP-FF vs SPLIT-RP-FO")), ordered(sides(data, "SPLIT-GP-FF vs SPLIT-RP-FO"), study.Lower))
	st := sides(data, "STORE-GP-FF vs STORE-RP-FO")
	stv := "not run"
	if len(st) > 0 {
		var below, above []string
		for _, x := range st {
			if x.x.side == study.Lower {
				below = append(below, fmt.Sprint(x.n))
			} else if x.x.pct > 0 {
				above = append(above, fmt.Sprint(x.n))
			}
		}
		if len(below) < len(st) {
			stv = fmt.Sprintf("**reproduced**: STORE's GP-FF is below RP-FO with disjoint intervals at N = %s only", orNone(below))
			if len(above) > 0 {
				stv += ", its mean above at N = " + strings.Join(above, ", ")
			}
		} else {
			stv = fmt.Sprintf("**not reproduced**: STORE's GP-FF is below RP-FO at every N (%d, disjoint intervals)", len(st))
		}
	}
	add("... which was not observed for STORE (STORE GP-FF against STORE RP-FO)", "(GP-FF - RP-FO) / RP-FO: "+pcts(st), stv)
	for _, s := range []string{"SPLIT-RP-FO", "SPLIT-GP-FF"} {
		ss := sides(data, "WORM-RP-RR vs "+s)
		claim := "WORM with RP-RR outperforms SPLIT with RP-FO"
		if s == "SPLIT-GP-FF" {
			claim = "... and SPLIT with GP-FF"
		}
		add(claim,
			"(WORM - SPLIT) / SPLIT: "+pcts(ss)+"; N = 4096: "+at(ss, 4096), ordered(ss, study.Lower))
	}
	sp := sides(data, "SPLIT-RP-RR vs WORM-RP-RR")
	_, least, most = within(sp, 0, 0)
	add("SPLIT with RP-RR performs slightly better than WORM with RP-RR (no addressing flits)",
		"(SPLIT - WORM) / WORM: "+pcts(sp), ordered(sp, study.Lower)+fmt.Sprintf("; SPLIT saves %.1f%% to %.1f%%", least, most))
	add("A slight increase in SPLIT's flits (addressing) makes WORM outperform it: one addressing flit per flit",
		"(SPLIT - WORM) / WORM: "+pcts(sides(data, "SPLIT-RP-RR + 1 flit vs WORM-RP-RR")),
		ordered(sides(data, "SPLIT-RP-RR + 1 flit vs WORM-RP-RR"), study.Higher))

	// Table II
	for _, L := range []int{16, 32} {
		m := table2(data, L)
		if f, ok := fit(m); ok {
			lo, hi := fitInterval(m)
			verdict := "**reproduced** (0.22 within p's 99% bootstrap interval)"
			if 0.22 < lo || 0.22 > hi {
				verdict = "**not reproduced** (0.22 outside p's 99% bootstrap interval)"
			}
			claim := "Latency / c fits k log4(N)^p with p about 0.22 (Table II; L = 16)"
			if L != 16 {
				claim = fmt.Sprintf("... at L = %d", L)
			}
			add(claim, fmt.Sprintf("k = %.2f, p = %.3f (%.3f to %.3f), RMS log residual %.3f", f.K, f.P, lo, hi, f.Residual), verdict)
		}
	}
	v16, ok16 := table2(data, 16)[4096]
	v32, ok32 := table2(data, 32)[4096]
	if ok16 && ok32 {
		add("Table II's one surviving row, c 34.3 and latency / c 46.4 (N = 4096 by its place; the copy lost L)",
			fmt.Sprintf("N = 4096, L = 16: c %s, latency / c %s; L = 32: c %s, latency / c %s", v16.c.Fmt(2), v16.perC.Fmt(2), v32.c.Fmt(2), v32.perC.Fmt(2)),
			fragment(v16, v32))
	}

	// queues
	if data["queues"] != nil {
		for _, n := range []int{256, 4096} {
			q2 := queue(data, "WORM-RP-RR, q = 2 flits")
			var parts []string
			gain, where := 0.0, 0 // the largest gain with disjoint intervals
			for _, q := range []int{3, 4, 8} {
				ss := of(queue(data, fmt.Sprintf("WORM-RP-RR, q = %d flits", q)), q2, "")
				for _, s := range ss {
					if s.n == n {
						parts = append(parts, fmt.Sprintf("q = %d: %+.1f%% (%s)", q, s.x.pct, sideWord(s.x.side)))
						if s.x.side == study.Lower && -s.x.pct > gain {
							gain, where = -s.x.pct, q
						}
					}
				}
			}
			verdict := "**reproduced**: no queue gains 5% or more with disjoint intervals"
			if gain >= 5 {
				verdict = fmt.Sprintf("**not reproduced**: q = %d gains %.1f%%, disjoint intervals", where, gain)
			}
			claim := "Little is gained by WORM queues beyond 2 flits (random; \"little\" read as under 5%; N = 256)"
			if n != 256 {
				claim = fmt.Sprintf("... N = %d", n)
			}
			add(claim,
				"(q - 2 flits) / 2 flits: "+strings.Join(parts, ", "), verdict)
		}
		var ws, ss []side
		for _, c := range []string{"STORE-RP-RR, 1-packet queues", "STORE-RP-RR, 2-packet queues", "STORE-RP-RR, 4-packet queues"} {
			ws = append(ws, of(queue(data, "WORM-RP-RR, q = 2 flits"), queue(data, c), c)...)
			if !strings.HasPrefix(c, "STORE-RP-RR, 1") {
				ss = append(ss, of(queue(data, c), queue(data, "STORE-RP-RR, 1-packet queues"), c)...)
			}
		}
		var wf []string
		for _, s := range ws {
			wf = append(wf, fmt.Sprintf("%s, N = %d: %+.1f%%", strings.TrimPrefix(s.name, "STORE-RP-RR, "), s.n, s.x.pct))
		}
		add("WORM with 2-flit queues generally beats STORE with queues of any size tested (random)",
			"(WORM - STORE) / STORE against "+strings.Join(wf, "; "), ordered(ws, study.Lower))
		var sf []string
		for _, s := range ss {
			sf = append(sf, fmt.Sprintf("%s, N = %d: %+.1f%%", strings.TrimPrefix(s.name, "STORE-RP-RR, "), s.n, s.x.pct))
		}
		add("STORE improves somewhat with larger queues", "against one-packet queues: "+strings.Join(sf, "; "), ordered(ss, study.Lower))
	}

	t := study.Table{Head: []string{"", "claim of seed 000, section B.3", "wormlab: random, RP, RR, L = 16 unless said; latency means over the runs of the runs table; (N) the size", "verdict (99% intervals)"}}
	k := 0
	for _, r := range rows {
		num := ""
		if !strings.HasPrefix(r.claim, "...") {
			k++
			num = fmt.Sprint(k)
		}
		t.Rows = append(t.Rows, []string{num, r.claim, r.figures, r.verdict})
	}
	return t
}

// similar is the verdict on "A performs like B" over the cases: how many
// overlap.
func similar(ss []side, b string) string {
	if len(ss) == 0 {
		return "not run"
	}
	lower, overlap, higher := tally(ss)
	switch {
	case overlap == len(ss):
		return fmt.Sprintf("**reproduced** (level with %s in all %d)", b, len(ss))
	case overlap == 0:
		return fmt.Sprintf("**not reproduced** (level with %s in none of %d: below in %d, above in %d)", b, len(ss), lower, higher)
	}
	return fmt.Sprintf("level with %s in %d of %d (below in %d, above in %d)", b, overlap, len(ss), lower, higher)
}

// line is the weighted least-squares line y = k x + c0 through the estimates,
// each weighted by the inverse square of its interval's half-width (of 1% of
// its mean when the interval is empty).
func line(xs []float64, ys []study.Est) (k, c0 float64) {
	var sw, sx, sy, sxx, sxy float64
	for i, y := range ys {
		h := y.Half
		if h <= 0 {
			h = 0.01 * y.Mean
		}
		w := 1 / (h * h)
		sw, sx, sy, sxx, sxy = sw+w, sx+w*xs[i], sy+w*y.Mean, sxx+w*xs[i]*xs[i], sxy+w*xs[i]*y.Mean
	}
	k = (sw*sxy - sx*sy) / (sw*sxx - sx*sx)
	c0 = (sy - k*sx) / sw
	return
}

// readingDecides says when the two readings of UNIV give opposite verdicts on
// "STORE is faster than UNIV".
func readingDecides(ghost, rank []side) string {
	if len(ghost) == 0 || len(rank) == 0 {
		return ""
	}
	_, _, gh := tally(ghost)
	_, _, rh := tally(rank)
	if gh == len(ghost) && rh < len(rank) {
		return "; so the verdict **depends on the reading of UNIV**"
	}
	return ""
}

// fragment is the verdict on Table II's surviving figures (c 34.3, latency / c
// 46.4) against N = 4096 at L = 16 and 32: which L's intervals hold them, and the L
// at which latency / c, a line through the two, is 46.4.
func fragment(v16, v32 val) string {
	const c, perC = 34.3, 46.4
	in := func(e study.Est, x float64) bool { return math.Abs(e.Mean-x) <= e.Half }
	word := func(e study.Est, x float64) string {
		if in(e, x) {
			return "inside"
		}
		side := "above"
		if e.Mean < x {
			side = "below"
		}
		return fmt.Sprintf("outside (wormlab's %.1f%% %s)", 100*math.Abs(e.Mean-x)/x, side)
	}
	k := (v32.perC.Mean - v16.perC.Mean) / 16
	at := 16 + (perC-v16.perC.Mean)/k
	verdict := "**depends on L**"
	if !in(v32.c, c) && !in(v16.c, c) {
		verdict = "**not reproduced**"
	}
	b := v16.perC.Mean - 16*k
	if math.Abs(b) < 0.005 {
		b = 0 // no "-0.00"
	}
	return fmt.Sprintf("%s: at L = 16, c %s the 99%% interval, latency / c %s; at L = 32, c %s, latency / c %s; latency / c is %.2f L %+.2f here, 46.4 at L = %.1f",
		verdict, word(v16.c, c), word(v16.perC, perC), word(v32.c, c), word(v32.perC, perC), k, b, at)
}

// tiesDecide says when FF with FO's ties is level with FO in more cases than the
// paper's FF.
func tiesDecide(ff, fffo []side) string {
	_, a, _ := tally(ff)
	_, b, _ := tally(fffo)
	if len(ff) > 0 && len(fffo) > 0 && b > a {
		return fmt.Sprintf("; level with FO in %d cases against the paper's FF's %d, so the verdict **depends on FF's tie order**", b, a)
	}
	return ""
}
