package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// colorSpeedInstances names the rows of docs/cli.md's table of `wormlab color`
// figures, in the order of scripts/color-speed.sh.
var colorSpeedInstances = []struct{ key, label string }{
	{"tree1e5", "10^5 paths, random recursive tree of 10^4 nodes"},
	{"mesh1e5", "10^5 paths, 100 x 100 mesh"},
	{"tree1e6", "10^6 paths, random recursive tree of 10^5 nodes"},
	{"mesh1e6", "10^6 paths, 32 x 32 mesh"},
}

// colorSpeedCell is one table cell: the range over the runs of paths per
// CPU-second and of the maximum resident size.
func colorSpeedCell(speed, rss []float64) string {
	r := func(xs []float64, unit string) string {
		lo, hi := slices.Min(xs), slices.Max(xs)
		if fmt.Sprintf("%.0f", lo) == fmt.Sprintf("%.0f", hi) {
			return fmt.Sprintf("%.0f%s", lo, unit)
		}
		return fmt.Sprintf("%.0f-%.0f%s", lo, hi, unit)
	}
	k := make([]float64, len(speed))
	for i, v := range speed {
		k[i] = v / 1000
	}
	return r(k, "k paths/CPU-s") + ", " + r(rss, " MB")
}

// docs/cli.md quotes `wormlab color`'s speed and memory from docs/color/speed.csv
// (scripts/color-speed.sh): the table rows, the CPU time of the runs, the 10^5-mesh row of the memory table,
// how far the 10^6 runs are from issue 24's target (10^6 paths per CPU-second,
// under 500 MB) and their paths per elapsed second must be what the CSV says.
func TestDocsQuoteColorSpeed(t *testing.T) {
	f, err := os.Open("../../docs/color/speed.csv")
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"binary", "instance", "paths", "user_s", "sys_s", "paths_per_cpu_s", "max_rss_mb", "elapsed_s", "paths_per_s"}, recs[0])
	type key struct{ bin, inst string }
	speed, rss, cpu, wall := map[key][]float64{}, map[key][]float64{}, map[key][]float64{}, map[key][]float64{}
	total := 0.0 // CPU-seconds of every run
	for _, r := range recs[1:] {
		k := key{r[0], r[1]}
		v := make([]float64, len(r))
		for i := 2; i < len(r); i++ {
			v[i], err = strconv.ParseFloat(r[i], 64)
			require.NoError(t, err, "%v", r)
		}
		speed[k] = append(speed[k], v[5])
		rss[k] = append(rss[k], v[6])
		cpu[k] = append(cpu[k], v[3]+v[4])
		wall[k] = append(wall[k], v[8])
		total += v[3] + v[4]
	}
	doc, err := os.ReadFile("../../docs/cli.md")
	require.NoError(t, err)
	text := string(doc)
	var rows []string
	for _, in := range colorSpeedInstances {
		old, now := key{"old", in.key}, key{"new", in.key}
		require.NotEmpty(t, speed[old], "no old run of %s", in.key)
		require.NotEmpty(t, speed[now], "no new run of %s", in.key)
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %.1fx |", in.label,
			colorSpeedCell(speed[old], rss[old]), colorSpeedCell(speed[now], rss[now]),
			slices.Min(cpu[old])/slices.Max(cpu[now])))
	}
	for _, row := range rows {
		require.Contains(t, text, row, "docs/cli.md should have the row (all rows:\n%s)", strings.Join(rows, "\n"))
	}
	require.Contains(t, strings.Join(strings.Fields(text), " "), fmt.Sprintf("new=WORMLAB`, %.0f CPU-seconds", total),
		"the script's CPU time is the CSV's runs'")
	var big, bigRSS, bigWall []float64
	for _, inst := range []string{"tree1e6", "mesh1e6"} {
		big = append(big, speed[key{"new", inst}]...)
		bigRSS = append(bigRSS, rss[key{"new", inst}]...)
		bigWall = append(bigWall, wall[key{"new", inst}]...)
	}
	require.Contains(t, strings.Join(strings.Fields(text), " "), fmt.Sprintf(
		"%.0f to %.0f paths per elapsed second", slices.Min(bigWall), slices.Max(bigWall)),
		"the elapsed rates of the 10^6 runs")
	side := "over"
	if slices.Max(bigRSS) < 500 {
		side = "under"
	}
	require.Contains(t, strings.Join(strings.Fields(text), " "), fmt.Sprintf(
		"is %.1f to %.1f times short of that speed, and its maximum resident size, %.0f to %.0f MB, is %s the 500 MB",
		1e6/slices.Max(big), 1e6/slices.Min(big), slices.Min(bigRSS), slices.Max(bigRSS), side))
	m := key{"new", "mesh1e5"}
	row := fmt.Sprintf("| `color` | %.2f GB | %.1f s of CPU |", slices.Max(rss[m])/1000, slices.Max(cpu[m]))
	require.Contains(t, text, row)
}
