package sim_test

// docs/booksim.md's speed, threads, memory and min_adapt figures (issue 24) are
// those of the committed run of scripts/booksim-compare.sh in docs/booksim/ (its
// CSV files, written with OUT=docs/booksim). This test formats each table row from
// those files and checks the page quotes it, so a rerun changes the page with it;
// times are not rerun here (they need BookSim2 and minutes of CPU).

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

// readCSV reads a committed CSV file as rows of named fields.
func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Greater(t, len(recs), 1, "%s: no rows", path)
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, name := range recs[0] {
			m[name] = r[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func num(t *testing.T, row map[string]string, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[name], 64)
	require.NoError(t, err, "field %s of %v", name, row)
	return v
}

// speedDocRows are the rows of the page's speed table: per torus and load,
// BookSim's and wormlab's CPU ns per flit-hop, their ratio, and wormlab's figure
// over its own on the 8x8 torus at the same load (issue 24: at most 2x); "-" where
// the run left BookSim out.
func speedDocRows(t *testing.T, rows []map[string]string) []string {
	type key struct {
		routers int
		rate    string
	}
	bs, wl := map[key]float64{}, map[key]float64{}
	var order []key
	for _, r := range rows {
		k := key{int(num(t, r, "routers")), r["rate"]}
		switch r["simulator"] {
		case "booksim":
			bs[k] = num(t, r, "ns_per_flit_hop")
		case "wormlab":
			wl[k] = num(t, r, "ns_per_flit_hop")
			order = append(order, k)
		default:
			t.Fatalf("speed.csv: simulator %q", r["simulator"])
		}
	}
	var out []string
	for _, k := range order {
		side := int(math.Round(math.Sqrt(float64(k.routers))))
		b, w := bs[k], wl[k]
		rel := "1.00"
		if base, ok := wl[key{64, k.rate}]; ok && k.routers != 64 {
			rel = fmt.Sprintf("%.2f", w/base)
		} else if !ok {
			rel = "-"
		}
		if b == 0 { // a row without BookSim (SIMS=wormlab)
			out = append(out, fmt.Sprintf("| %dx%d | %s | - | %.1f | - | %s |", side, side, k.rate, w, rel))
			continue
		}
		out = append(out, fmt.Sprintf("| %dx%d | %s | %.0f | %.1f | %.1fx | %s |", side, side, k.rate, b, w, b/w, rel))
	}
	return out
}

func TestSpeedDocFigures(t *testing.T) {
	data, err := os.ReadFile("../docs/booksim.md")
	require.NoError(t, err)
	doc := string(data)
	var want []string
	want = append(want, speedDocRows(t, readCSV(t, "../docs/booksim/speed.csv"))...)
	for _, r := range readCSV(t, "../docs/booksim/threads.csv") {
		n := int(num(t, r, "routers"))
		side := int(math.Round(math.Sqrt(float64(n))))
		require.Equal(t, "yes", r["identical"], "threads.csv: torus %dx%d: results differ between 1 and 2 threads", side, side)
		want = append(want, fmt.Sprintf("| %dx%d | %s | %s | %s | %s | %s | %.2fx | %.2f | %s |", side, side, r["cycles"],
			r["cpu_1"], r["wall_1"], r["cpu_2"], r["wall_2"], num(t, r, "wall_1")/num(t, r, "wall_2"),
			num(t, r, "cpu_2")/num(t, r, "cpu_1"), r["load"]))
	}
	for _, r := range readCSV(t, "../docs/booksim/memory.csv") {
		want = append(want, fmt.Sprintf("%s packets delivered, mean latency %s cycles, maximum resident size %s MB, %s CPU-s",
			r["packets"], r["latency"], r["max_rss_mb"], r["cpu_s"]))
	}
	for _, r := range readCSV(t, "../docs/booksim/minadapt.csv") {
		b, x, y := num(t, r, "booksim"), num(t, r, "minadapt"), num(t, r, "minadapt_islip")
		want = append(want, fmt.Sprintf("| %s | %s | %.2f | %.2f (%+.1f%%) | %.2f (%+.1f%%) |", r["rate"], r["seed"], b,
			x, 100*(x-b)/b, y, 100*(y-b)/b))
	}
	for _, w := range want {
		require.True(t, strings.Contains(doc, w), "docs/booksim.md should quote the committed run:\n%s", w)
	}
}

// docs/booksim.md quotes the committed crossover.csv (scripts/booksim-compare.sh
// threads, with OUT=docs/booksim), and sim.ParallelRouters is where its runs put
// it. The runs need a quiet machine (two threads' elapsed time): until a run is
// committed there is nothing to check, and the test says so.
func TestCrossoverDocFigures(t *testing.T) {
	const path = "../docs/booksim/crossover.csv"
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		t.Skip("no crossover.csv committed yet: BOOKSIM=... OUT=docs/booksim scripts/booksim-compare.sh threads at a quiet moment")
	}
	data, err := os.ReadFile("../docs/booksim.md")
	require.NoError(t, err)
	from, rows := crossoverDocRows(t, readCSV(t, path))
	require.Equal(t, from, sim.ParallelRouters, "crossover.csv: two threads paid in every run from %d routers on", from)
	for _, w := range rows {
		require.True(t, strings.Contains(string(data), w), "docs/booksim.md should quote the committed run:\n%s", w)
	}
}

// crossoverDocRows are the rows of the page's crossover table (the threads
// mode's BenchmarkThreads runs): per torus its routers, each run's elapsed time
// on one thread over two, and the load of the runs; and from, where the runs put
// the crossover: the least size from which every run of every size was faster
// on two threads (sim.ParallelRouters is to be it).
func crossoverDocRows(t *testing.T, rows []map[string]string) (from int, out []string) {
	t.Helper()
	var sizes []int
	speedups := map[int][]string{}
	loads := map[int][]string{}
	pays := map[int]bool{}
	for _, r := range rows {
		n := int(num(t, r, "routers"))
		if _, ok := speedups[n]; !ok {
			sizes = append(sizes, n)
			pays[n] = true
		}
		x := num(t, r, "ns_1") / num(t, r, "ns_2")
		speedups[n] = append(speedups[n], fmt.Sprintf("%.2fx", x))
		loads[n] = append(loads[n], r["load"])
		pays[n] = pays[n] && x > 1
	}
	slices.Sort(sizes)
	from = math.MaxInt
	for i := len(sizes) - 1; i >= 0 && pays[sizes[i]]; i-- {
		from = sizes[i]
	}
	for _, n := range sizes {
		side := int(math.Round(math.Sqrt(float64(n))))
		out = append(out, fmt.Sprintf("| %dx%d | %d | %s | %s |", side, side, n,
			strings.Join(speedups[n], ", "), strings.Join(loads[n], ", ")))
	}
	return from, out
}

// crossoverDocRows, which TestCrossoverDocFigures skips until a run is
// committed, on rows of scripts/booksim-compare.sh's form: two runs a size, 32x32
// faster on two threads in one of them only, 40x40 (sim.ParallelRouters) and
// larger in both, so the crossover is 40x40; a table row per size, its speedups
// and loads in the runs' order.
func TestCrossoverDocRows(t *testing.T) {
	row := func(routers, run int, ns1, ns2 float64, load string) map[string]string {
		return map[string]string{"routers": fmt.Sprint(routers), "run": fmt.Sprint(run),
			"ns_1": fmt.Sprint(ns1), "ns_2": fmt.Sprint(ns2), "load": load}
	}
	rows := []map[string]string{
		row(1600, 1, 300, 200, "1.10"), row(1024, 1, 100, 80, "1.10"), row(576, 1, 50, 100, "1.10"),
		row(4096, 1, 900, 500, "1.10"), row(1600, 2, 310, 250, "0.90"), row(1024, 2, 100, 125, "0.90"),
		row(576, 2, 50, 90, "0.90"), row(4096, 2, 880, 480, "0.90"),
	}
	from, out := crossoverDocRows(t, rows)
	require.Equal(t, 1600, from, "the rows put the crossover at 40x40")
	require.Equal(t, []string{
		"| 24x24 | 576 | 0.50x, 0.56x | 1.10, 0.90 |",
		"| 32x32 | 1024 | 1.25x, 0.80x | 1.10, 0.90 |",
		"| 40x40 | 1600 | 1.50x, 1.24x | 1.10, 0.90 |",
		"| 64x64 | 4096 | 1.80x, 1.83x | 1.10, 0.90 |",
	}, out)
}
