package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/wormlab/wormlab/experiments/internal/study"
)

// Summary is summary.md: the tables docs/seed003.md quotes, each preceded by a line
// "`TABLE NAME`" so that the test can find it; put receives every figure stated.
func Summary(data map[string]map[string]*series, pts []study.Point, cpu map[string]float64, put func(string, study.Est)) string {
	var b strings.Builder
	b.WriteString("# Seed 003 re-run: tables\n\nWritten by `go run ./experiments/seed003`; docs/seed003.md quotes them.\n")
	vs := variants()
	section := func(name, text string) {
		fmt.Fprintf(&b, "\n`%s`\n\n%s", name, text)
	}

	// the runs: points, seeds, points below saturation, CPU time
	runs := study.Table{Head: []string{"part", "configuration", "points", "seeds", "steady points per routing (fewest)", "failed", "CPU-minutes"}}
	byPart := map[string][]study.Point{}
	for _, p := range pts {
		byPart[p.Part] = append(byPart[p.Part], p)
	}
	total := 0.0
	for _, v := range vs {
		ps := byPart[v.part]
		if len(ps) == 0 {
			continue
		}
		failed, seeds := 0, 0
		for _, p := range ps {
			seeds = max(seeds, len(p.Obs))
			for _, o := range p.Obs {
				if o.Failed != "" {
					failed++
				}
			}
		}
		fewest := math.MaxInt
		for _, s := range data[v.part] {
			fewest = min(fewest, s.steady)
		}
		h := study.CPUHours(cpu, v.part)
		total += h
		runs.Rows = append(runs.Rows, []string{v.part, v.title, fmt.Sprint(len(ps)), fmt.Sprint(seeds),
			fmt.Sprint(fewest), fmt.Sprint(failed), fmt.Sprintf("%.1f", h*60)})
	}
	runs.Rows = append(runs.Rows, []string{"all", "", "", "", "", "", fmt.Sprintf("%.1f", total*60)})
	section("runs", runs.String())

	// peaks and past saturation, main parts
	main := []variant{}
	for _, v := range vs {
		if v.group == "main" && data[v.part] != nil {
			main = append(main, v)
		}
	}
	peak := study.Table{Head: []string{"routing", "VCs"}}
	for _, v := range main {
		peak.Head = append(peak.Head, shortTitle(v))
	}
	for _, a := range algs {
		row := []string{a.label, fmt.Sprint(a.vcs)}
		for _, v := range main {
			s := data[v.part][a.name]
			if s == nil {
				row = append(row, "")
				continue
			}
			put("peak/"+v.part+"/"+a.name, s.peak)
			put("last/"+v.part+"/"+a.name, s.last.util)
			row = append(row, fmt.Sprintf("%s (%s)", s.peak.Fmt(3), s.last.util.Fmt(3)))
		}
		peak.Rows = append(peak.Rows, row)
	}
	section("peaks", peak.String())

	// latency at light load (0.12, a load of every full-scale grid but the 2%
	// hotspot's slow series; a cell says the load it read where that differs) and
	// network latency past saturation, main parts
	const light = 0.12
	lat := study.Table{Head: []string{"routing"}}
	for _, v := range main {
		lat.Head = append(lat.Head, shortTitle(v)+": latency at 0.12 / network latency at 0.9")
	}
	for _, a := range algs {
		row := []string{a.label}
		for _, v := range main {
			s := data[v.part][a.name]
			if s == nil {
				row = append(row, "")
				continue
			}
			lo := s.at(light)
			put("lat012/"+v.part+"/"+a.name, lo.lat)
			put("net09/"+v.part+"/"+a.name, s.last.net)
			at := ""
			if math.Abs(lo.rho-light) > 1e-9 {
				at = fmt.Sprintf(" (at %g)", lo.rho)
			}
			row = append(row, fmt.Sprintf("%s%s / %s", lo.lat.Fmt(1), at, s.last.net.Fmt(0)))
		}
		lat.Rows = append(lat.Rows, row)
	}
	section("latency", lat.String())

	// the claims, per main configuration
	section("claims", claims(main, data, put).String())

	// sensitivity tables: one per group
	for _, g := range []struct{ group, name string }{
		{"limit", "limit"}, {"length", "length"}, {"buffer", "buffer"}, {"hotnode", "hotnode"}, {"local", "localshape"},
	} {
		var vg []variant
		for _, v := range vs {
			if v.group == g.group && data[v.part] != nil {
				vg = append(vg, v)
			}
		}
		if len(vg) == 0 {
			continue
		}
		t := study.Table{Head: []string{"configuration"}}
		for _, a := range algs {
			t.Head = append(t.Head, a.label)
		}
		for _, v := range vg {
			row := []string{v.title}
			for _, a := range algs {
				s := data[v.part][a.name]
				if s == nil {
					row = append(row, "")
					continue
				}
				put("peak/"+v.part+"/"+a.name, s.peak)
				put("last/"+v.part+"/"+a.name, s.last.util)
				row = append(row, fmt.Sprintf("%s (%s)", s.peak.Fmt(3), s.last.util.Fmt(3)))
			}
			t.Rows = append(t.Rows, row)
		}
		section(g.name, t.String())
		section(g.name+"-claims", claims(vg, data, put).String())
	}

	// the packet-switching probe: Pn against NBC and e-cube with short packets
	var pv []variant
	for _, v := range vs {
		if v.group == "packet" && data[v.part] != nil {
			pv = append(pv, v)
		}
	}
	if len(pv) > 0 {
		t := study.Table{Head: []string{"packets", "routing", "peak (at 0.9)", "latency at 0.12", "latency at 0.48", "network latency at 0.9"}}
		c := study.Table{Head: []string{"claim"}}
		for _, v := range pv {
			c.Head = append(c.Head, v.title)
		}
		rows := [][]string{{"Pn peaks level with NBC"}, {"Pn peaks above e-cube"}, {"Pn's latency at 0.48 below e-cube's"}}
		for _, v := range pv {
			m := data[v.part]
			for _, s := range ordered(m) {
				lo, hi := s.at(0.12), s.at(0.48)
				put("peak/"+v.part+"/"+s.alg, s.peak)
				put("last/"+v.part+"/"+s.alg, s.last.util)
				put("lat012/"+v.part+"/"+s.alg, lo.lat)
				put("lat048/"+v.part+"/"+s.alg, hi.lat)
				t.Rows = append(t.Rows, []string{strings.TrimPrefix(v.title, "uniform traffic, "), labelOf(s.alg), fmt.Sprintf("%s (%s)", s.peak.Fmt(3), s.last.util.Fmt(3)),
					lo.lat.Fmt(2), hi.lat.Fmt(2), s.last.net.Fmt(1)})
			}
			pn, nbc, dor := m["pn"], m["nbc"], m["dor"]
			if pn == nil || nbc == nil || dor == nil {
				for i := range rows {
					rows[i] = append(rows[i], "")
				}
				continue
			}
			word := map[string]string{"above": "Pn above", "level": "holds", "below": "Pn below"}
			rows[0] = append(rows[0], fmt.Sprintf("%s: %.3f vs %.3f", word[cmp(pn.peak, nbc.peak)], pn.peak.Mean, nbc.peak.Mean))
			rows[1] = append(rows[1], fmt.Sprintf("%s: %.3f vs %.3f", verdict(pn.peak, dor.peak, study.Higher), pn.peak.Mean, dor.peak.Mean))
			pl, dl := pn.at(0.48).lat, dor.at(0.48).lat
			switch {
			case pl.N == 0:
				rows[2] = append(rows[2], "Pn saturated at 0.48")
			case dl.N == 0:
				rows[2] = append(rows[2], fmt.Sprintf("holds: %.1f, e-cube saturated", pl.Mean))
			default:
				rows[2] = append(rows[2], fmt.Sprintf("%s: %.1f vs %.1f", verdict(pl, dl, study.Lower), pl.Mean, dl.Mean))
			}
		}
		c.Rows = rows
		section("packet", t.String())
		section("packet-claims", c.String())
	}
	// the simulator check: e-cube on the mesh against the torus, normalised
	if m, tor := data["ecube-mesh"], data["uniform"]; m != nil && m["dor"] != nil && tor != nil && tor["dor"] != nil {
		// uniform traffic: the bisection bounds a node's load at 4k/N on the k x k
		// mesh (0.25 flits/node/cycle) and 8k/N on the torus (0.5), which the
		// torus's channel utilisation already expresses (rho = load / 0.5)
		mp := peakAccepted(m["dor"])
		tp := tor["dor"].peak
		t := study.Table{Head: []string{"network", "peak accepted (flits/node/cycle)", "bisection bound", "peak / bound"}}
		t.Rows = append(t.Rows, []string{"16x16 mesh", mp.Fmt(4), "0.25", mp.Scaled(1 / 0.25).Fmt(3)})
		t.Rows = append(t.Rows, []string{"16x16 torus", tp.Scaled(0.5).Fmt(4), "0.5", tp.Fmt(3)})
		put("norm/mesh/dor", mp.Scaled(1/0.25))
		section("mesh", t.String())
	}
	// Pn at 4 VCs
	if m := data["pn4"]; m != nil {
		t := study.Table{Head: []string{"offered", "runs", "deadlocked", "first failure"}}
		for _, s := range ordered(m) {
			for _, p := range s.points {
				first := ""
				if len(p.failed) > 0 {
					first = strings.SplitN(p.failed[0], ";", 2)[0]
				}
				t.Rows = append(t.Rows, []string{fmt.Sprint(p.rho), fmt.Sprint(p.seeds), fmt.Sprint(len(p.failed)), first})
			}
		}
		section("pn4", t.String())
	}
	return b.String()
}

func shortTitle(v variant) string {
	switch v.part {
	case "uniform":
		return "uniform"
	case "local-7x7":
		return "local 7x7"
	}
	if strings.HasPrefix(v.part, "hotspot-") {
		return "hotspot " + strings.TrimPrefix(v.part, "hotspot-") + "%"
	}
	return v.part
}

// at is the point at offered utilisation rho (the nearest).
func (s *series) at(rho float64) point {
	best := s.points[0]
	for _, p := range s.points {
		if math.Abs(p.rho-rho) < math.Abs(best.rho-rho) {
			best = p
		}
	}
	return best
}

// cmp says how a's interval stands to b's: "above", "below" or "level" (they
// overlap).
func cmp(a, b study.Est) string {
	return map[study.Side]string{study.Higher: "above", study.Lower: "below", study.Level: "level"}[study.Compare(a, b)]
}

// verdict names how a's interval stands to b's against the paper's claim that a
// lies on side want: "holds", "level" (the intervals overlap) or "reversed".
func verdict(a, b study.Est, want study.Side) string {
	return map[study.Outcome]string{study.Holds: "holds", study.Inconclusive: "level", study.Fails: "reversed"}[study.Judge(a, b, want)]
}

// claims is the table of the paper's conclusions against each configuration.
func claims(vs []variant, data map[string]map[string]*series, put func(string, study.Est)) study.Table {
	t := study.Table{Head: []string{"claim"}}
	for _, v := range vs {
		t.Head = append(t.Head, v.title)
	}
	row := func(name string, f func(m map[string]*series) string) {
		r := []string{name}
		for _, v := range vs {
			m := data[v.part]
			if m == nil {
				r = append(r, "")
				continue
			}
			r = append(r, f(m))
		}
		t.Rows = append(t.Rows, r)
	}
	versus := func(a, b string, want study.Side) func(m map[string]*series) string {
		return func(m map[string]*series) string {
			x, y := m[a], m[b]
			if x == nil || y == nil {
				return ""
			}
			return fmt.Sprintf("%s: %.3f vs %.3f", verdict(x.peak, y.peak, want), x.peak.Mean, y.peak.Mean)
		}
	}
	row("1. north-last peaks below e-cube", versus("northlast", "dor", study.Lower))
	row("2. Pn peaks below e-cube", versus("pn", "dor", study.Lower))
	row("3. every hop scheme peaks above e-cube", func(m map[string]*series) string {
		d := m["dor"]
		if d == nil {
			return ""
		}
		lo, word := math.Inf(1), "holds"
		for _, h := range []string{"poshop", "neghop", "nbc"} {
			s := m[h]
			if s == nil {
				return ""
			}
			lo = math.Min(lo, s.peak.Mean)
			switch cmp(s.peak, d.peak) {
			case "level":
				if word == "holds" {
					word = "level"
				}
			case "below":
				word = "reversed"
			}
		}
		return fmt.Sprintf("%s: lowest %.3f vs %.3f", word, lo, d.peak.Mean)
	})
	row("4. NBC peaks highest", func(m map[string]*series) string {
		n := m["nbc"]
		if n == nil {
			return ""
		}
		var best *series
		for _, s := range ordered(m) {
			if s.alg != "nbc" && s.alg != "pn2n" && (best == nil || s.peak.Mean > best.peak.Mean) {
				best = s
			}
		}
		if best == nil {
			return ""
		}
		return fmt.Sprintf("%s: %.3f vs %s %.3f", verdict(n.peak, best.peak, study.Higher), n.peak.Mean, labelOf(best.alg), best.peak.Mean)
	})
	row("5. NBC peaks above negative-hop", versus("nbc", "neghop", study.Higher))
	row("6. NBC peaks above positive-hop", versus("nbc", "poshop", study.Higher))
	row("7. Pn peaks above e-cube", versus("pn", "dor", study.Higher))
	row("8. past saturation (0.9), share of the peak kept: e-cube / NBC / Pn / north-last", func(m map[string]*series) string {
		var parts []string
		for _, a := range []string{"dor", "nbc", "pn", "northlast"} {
			s := m[a]
			if s == nil {
				return ""
			}
			parts = append(parts, fmt.Sprintf("%.2f", s.last.util.Mean/s.peak.Mean))
		}
		return strings.Join(parts, " / ")
	})
	return t
}

// peakAccepted is a series's peak in flits/node/cycle (its points' offered
// utilisation is not defined on a mesh: util_mean there is per channel of a mesh).
func peakAccepted(s *series) study.Est {
	peaks := map[int]float64{}
	for _, p := range s.points {
		for rep, a := range p.accBySeed {
			peaks[rep] = math.Max(peaks[rep], a)
		}
	}
	var xs []float64
	for rep := 0; rep < len(peaks); rep++ {
		xs = append(xs, peaks[rep])
	}
	return study.MeanCI(xs)
}
