package fattree

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Row is one point of the study as `wormlab fattree --json` writes it.
type Row struct {
	Label        string  `json:"label"`
	Pattern      string  `json:"pattern"`
	Flits        int     `json:"flits"`
	N            int     `json:"n"`
	Runs         int     `json:"runs"`
	MaxLatency   float64 `json:"max_latency"`
	MaxLatencyCI float64 `json:"max_latency_ci"`
	Congestion   float64 `json:"congestion"`
	LatencyPerC  float64 `json:"latency_per_c"`
}

// tableLabels and tablePatterns are the runs Tables shows (at L = 16): Table I
// both labels, STORE first, Table II the second (WORM) on random.
var (
	tableLabels   = []string{"STORE-RP-RR", "WORM-RP-RR"}
	tablePatterns = []string{"random", "complement", "many-to-1"}
)

// Tabulated reports whether Tables shows r in a cell: a run of STORE-RP-RR or
// WORM-RP-RR at L = 16 on one of the three patterns.
func Tabulated(r Row) bool {
	return r.Flits == 16 && slices.Contains(tableLabels, r.Label) && slices.Contains(tablePatterns, r.Pattern)
}

// Tables writes seed 000's Table I (mean maximum latency of STORE-RP-RR and
// WORM-RP-RR on the three patterns, with 99% intervals) and Table II (WORM-RP-RR on
// random instances: mean c, mean latency / c and the fit of latency / c to
// k log4(N)^p) in Markdown, from the rows of L = 16 (the study's default).
func Tables(w io.Writer, rows []Row) error {
	get := map[string]Row{}
	sizes := map[int]bool{}
	for _, r := range rows {
		if r.Flits != 16 {
			continue
		}
		get[fmt.Sprintf("%s|%s|%d", r.Label, r.Pattern, r.N)] = r
		sizes[r.N] = true
	}
	ns := make([]int, 0, len(sizes))
	for n := range sizes {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	pats := tablePatterns
	var b strings.Builder
	b.WriteString("Table I: mean maximum latency (flit-steps) ± 99% interval, L = 16\n\n| N |")
	for _, a := range tableLabels {
		for _, p := range pats {
			fmt.Fprintf(&b, " %s %s |", a, p)
		}
	}
	b.WriteString(" WORM / STORE (random, complement, many-to-1) |\n|---|---|---|---|---|---|---|---|\n")
	for _, n := range ns {
		fmt.Fprintf(&b, "| %d |", n)
		for _, a := range tableLabels {
			for _, p := range pats {
				if r, ok := get[a+"|"+p+"|"+fmt.Sprint(n)]; ok {
					fmt.Fprintf(&b, " %.1f ± %.1f |", r.MaxLatency, r.MaxLatencyCI)
				} else {
					b.WriteString(" - |")
				}
			}
		}
		var ratios []string
		for _, p := range pats {
			s, ok1 := get[tableLabels[0]+"|"+p+"|"+fmt.Sprint(n)]
			m, ok2 := get[tableLabels[1]+"|"+p+"|"+fmt.Sprint(n)]
			if ok1 && ok2 && s.MaxLatency > 0 {
				ratios = append(ratios, fmt.Sprintf("%.2f", m.MaxLatency/s.MaxLatency))
			} else {
				ratios = append(ratios, "-")
			}
		}
		fmt.Fprintf(&b, " %s |\n", strings.Join(ratios, ", "))
	}
	b.WriteString("\nTable II: WORM-RP-RR on random instances, L = 16\n\n| N | runs | mean c | mean latency / c |\n|---|---|---|---|\n")
	var fn []int
	var fy []float64
	for _, n := range ns {
		if r, ok := get[tableLabels[1]+"|random|"+fmt.Sprint(n)]; ok {
			fmt.Fprintf(&b, "| %d | %d | %.2f | %.2f |\n", n, r.Runs, r.Congestion, r.LatencyPerC)
			fn = append(fn, n)
			fy = append(fy, r.LatencyPerC)
		}
	}
	if f, ok := FitPower(fn, fy); ok {
		fmt.Fprintf(&b, "\nLeast-squares fit of latency / c to k log4(N)^p over N = %v: k = %.2f, p = %.3f, RMS log residual %.3f\n", fn, f.K, f.P, f.Residual)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
