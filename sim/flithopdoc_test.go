package sim_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docs/dragonfly.md's speed table is the committed run of scripts/flithop-speed.sh
// (experiments/dragonfly/flithop.csv): per round, the CPU time of a flit-hop on
// the 16x16 torus and on the 1,056-terminal dragonfly at 0.2 and their ratio,
// per flit-hop (links and ejection channels, Result.FlitHops) and per
// router-to-router link-hop. The test formats the table and its summary from the
// file and checks the page quotes them, and that the page's verdict on issue
// 25's goal (the dragonfly within 1.5x of the torus per flit-hop) is the one the
// rounds' median ratio gives. The page's counts of instructions and cache misses
// (the same script's cachegrind runs, experiments/dragonfly/flithop-cachegrind.csv)
// likewise.
func TestFlitHopDocFigures(t *testing.T) {
	data, err := os.ReadFile("../docs/dragonfly.md")
	require.NoError(t, err)
	doc := string(data)
	type round struct{ torus, fly map[string]string }
	rounds := map[string]*round{}
	var order []string
	for _, r := range readCSV(t, "../experiments/dragonfly/flithop.csv") {
		k := r["round"]
		if rounds[k] == nil {
			rounds[k] = &round{}
			order = append(order, k)
		}
		switch r["network"] {
		case "Torus16x16":
			rounds[k].torus = r
		case "Dragonfly1056":
			rounds[k].fly = r
		default:
			t.Fatalf("flithop.csv: network %q", r["network"])
		}
	}
	require.GreaterOrEqual(t, len(order), 5, "flithop.csv: rounds (at least five for a ratio)")
	var table strings.Builder
	table.WriteString("| round | load | torus | dragonfly | ratio | torus, link-hop | dragonfly, link-hop | ratio |\n|---|---|---|---|---|---|---|---|\n")
	var hop, link, loads []float64
	for _, k := range order {
		r := rounds[k]
		require.NotNil(t, r.torus, "flithop.csv: round %s has no torus row", k)
		require.NotNil(t, r.fly, "flithop.csv: round %s has no dragonfly row", k)
		tf, df := num(t, r.torus, "cpu_ns_flit_hop"), num(t, r.fly, "cpu_ns_flit_hop")
		tl, dl := num(t, r.torus, "cpu_ns_link_hop"), num(t, r.fly, "cpu_ns_link_hop")
		hop, link = append(hop, df/tf), append(link, dl/tl)
		loads = append(loads, num(t, r.torus, "load"), num(t, r.fly, "load"))
		fmt.Fprintf(&table, "| %s | %s, %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |\n", k, r.torus["load"], r.fly["load"], tf, df, df/tf, tl, dl, dl/tl)
	}
	require.True(t, strings.Contains(doc, table.String()), "docs/dragonfly.md should quote the committed flit-hop rounds (experiments/dragonfly/flithop.csv):\n%s", table.String())
	median := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		if n := len(s); n%2 == 1 {
			return s[n/2]
		} else {
			return (s[n/2-1] + s[n/2]) / 2
		}
	}
	f2 := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	summary := fmt.Sprintf("dragonfly over torus, median of %d rounds: %s per flit-hop (%s-%s), %s per link-hop (%s-%s); load average %s-%s",
		len(order), f2(median(hop)), f2(slices.Min(hop)), f2(slices.Max(hop)), f2(median(link)), f2(slices.Min(link)), f2(slices.Max(link)),
		strconv.FormatFloat(slices.Min(loads), 'f', -1, 64), strconv.FormatFloat(slices.Max(loads), 'f', -1, 64))
	flat := strings.Join(strings.Fields(doc), " ")
	require.True(t, strings.Contains(flat, summary), "docs/dragonfly.md should state the rounds' medians:\n%s", summary)
	links := fmt.Sprintf("(%.2f flits a link a cycle against %.2f)", num(t, rounds[order[0]].torus, "hops_link_cycle"), num(t, rounds[order[0]].fly, "hops_link_cycle"))
	require.True(t, strings.Contains(flat, links), "docs/dragonfly.md's link loads:\n%s", links)
	verdict := "the goal is met in these rounds (median below 1.5)"
	if median(hop) >= 1.5 {
		verdict = "the goal is not met in these rounds (median 1.5 or above)"
	}
	require.True(t, strings.Contains(flat, verdict), "docs/dragonfly.md's verdict on the 1.5x goal:\n%s", verdict)
	// and its verdict in the unit before, per link-hop
	if linkNot := "per link-hop, the unit before, it is not"; median(link) >= 1.5 {
		require.True(t, strings.Contains(flat, linkNot), "docs/dragonfly.md's verdict per link-hop (median 1.5 or above):\n%s", linkNot)
	} else {
		require.False(t, strings.Contains(flat, linkNot), "docs/dragonfly.md's verdict per link-hop (median below 1.5): not %q", linkNot)
	}

	var cg strings.Builder
	cg.WriteString("| network | flit-hops | link-hops | instructions a flit-hop | a link-hop | L1 data misses a flit-hop | misses past the L2 a flit-hop |\n|---|---|---|---|---|---|---|\n")
	ins := map[string]float64{}
	for _, r := range readCSV(t, "../experiments/dragonfly/flithop-cachegrind.csv") {
		fh, lh := num(t, r, "flit_hops"), num(t, r, "link_hops")
		ir := num(t, r, "instructions")
		ins[r["network"]+"/flit"], ins[r["network"]+"/link"] = ir/fh, ir/lh
		fmt.Fprintf(&cg, "| %s | %s | %s | %.1f | %.1f | %.2f | %.3f |\n", r["network"], r["flit_hops"], r["link_hops"],
			ir/fh, ir/lh, num(t, r, "d1_misses")/fh, num(t, r, "ll_misses")/fh)
	}
	require.True(t, strings.Contains(doc, cg.String()), "docs/dragonfly.md should quote the committed cachegrind runs (experiments/dragonfly/flithop-cachegrind.csv):\n%s", cg.String())
	// the unit's paragraph: router passes a link-hop (flit-hops over link-hops),
	// links a packet (link-hops over the flit-hops into sinks) and passes a flit
	require.Contains(t, ins, "torus02/flit", "flithop-cachegrind.csv: the torus at 0.2")
	require.Contains(t, ins, "dragonfly/flit", "flithop-cachegrind.csv: the dragonfly")
	tp, dp := ins["torus02/link"]/ins["torus02/flit"], ins["dragonfly/link"]/ins["dragonfly/flit"]
	passes := fmt.Sprintf("1 pass in %.0f on the torus (%.0f links a packet on average), 1 in %.1f on the dragonfly (%.1f links). Per link-hop the dragonfly was charged %.3f router passes against the torus's %.3f, %.2f times as many",
		tp/(tp-1), 1/(tp-1), dp/(dp-1), 1/(dp-1), dp, tp, dp/tp)
	require.True(t, strings.Contains(flat, passes), "docs/dragonfly.md's router passes:\n%s", passes)
	insRatio := fmt.Sprintf("in instructions the dragonfly's flit-hop costs %s times the torus's (%s per link-hop)",
		f2(ins["dragonfly/flit"]/ins["torus02/flit"]), f2(ins["dragonfly/link"]/ins["torus02/link"]))
	require.True(t, strings.Contains(flat, insRatio), "docs/dragonfly.md's instruction ratio:\n%s", insRatio)
}
