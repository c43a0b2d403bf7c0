package deadlock

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/docfig"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// The committed run of experiments/deadlock-scaling (quoted by docs/deadlock.md):
// its verdicts, packets and sizes are what the decision gives now, for the sides
// up to 16 (the larger ones with WORMLAB_LONG=1). Times are not checked.
func TestScalingResults(t *testing.T) {
	f, err := os.Open("../experiments/deadlock-scaling/results.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var r struct {
			K       int    `json:"k"`
			Routing string `json:"routing"`
			VCs     int    `json:"vcs"`
			Atomic  bool   `json:"atomic_vc"`
			Verdict string `json:"verdict"`
			Packets int    `json:"packets"`
			Minimal bool   `json:"minimal"`
			States  int64  `json:"states"`
			Classes int    `json:"classes"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		if r.K > 16 && os.Getenv("WORMLAB_LONG") == "" {
			continue
		}
		net, err := topology.Parse(fmt.Sprintf("torus:%dx%d", r.K, r.K))
		require.NoError(t, err)
		alg, err := routing.Lookup(r.Routing)
		require.NoError(t, err)
		rt, err := alg.New(net, r.VCs)
		require.NoError(t, err)
		res, err := Exact(context.Background(), net, rt.(Function), r.VCs, r.Routing, ExactOptions{Atomic: r.Atomic, Buf: 8, NoReplay: true})
		require.NoError(t, err)
		what := fmt.Sprintf("%s k=%d atomic %v", r.Routing, r.K, r.Atomic)
		require.Equal(t, r.Verdict, res.Verdict, what)
		require.Equal(t, r.Packets, len(res.Worms), what)
		require.Equal(t, r.Minimal, res.Minimal, what)
		require.Equal(t, r.States, res.States, what)
		require.Equal(t, r.Classes, res.Classes, what)
		n++
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 9)
}

// BenchmarkExactDuato decides Duato's protocol (atomic: deadlock-free) on 8x8 and
// 16x16 tori: the state graph, the fixpoint.
func BenchmarkExactDuato(b *testing.B) {
	for _, k := range []int{8, 16} {
		b.Run(fmt.Sprintf("torus%d", k), func(b *testing.B) {
			net, _ := topology.Parse(fmt.Sprintf("torus:%dx%d", k, k))
			alg, _ := routing.Lookup("duato")
			r, _ := alg.New(net, 3)
			for b.Loop() {
				res, err := Exact(context.Background(), net, r.(Function), 3, "duato", ExactOptions{Atomic: true, Buf: 8})
				if err != nil || res.Verdict != "deadlock-free" {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExactMinimal finds the fewest packets of Duato's protocol under
// non-atomic reallocation on a 12x12 torus, without the replay.
func BenchmarkExactMinimal(b *testing.B) {
	net, _ := topology.Parse("torus:12x12")
	alg, _ := routing.Lookup("duato")
	r, _ := alg.New(net, 3)
	for b.Loop() {
		res, err := Exact(context.Background(), net, r.(Function), 3, "duato", ExactOptions{Buf: 8, NoReplay: true})
		if err != nil || len(res.Worms) != 3 {
			b.Fatal(err)
		}
	}
}

// TestScalingDoc: the sizes and costs docs/deadlock.md quotes (the quotient,
// and "Cost, and how it grows with k") are the committed run's records (results.jsonl, registry16.jsonl):
// CPU seconds and peak memory of Duato's protocol and dimension order at 12, 16
// and 32, the slowest registered routing on 16x16, and the run's CPU seconds in
// all (the sum over both files).
func TestScalingDoc(t *testing.T) {
	type rec struct {
		Case    string  `json:"case"`
		K       int     `json:"k"`
		Routing string  `json:"routing"`
		Atomic  bool    `json:"atomic_vc"`
		CPU     float64 `json:"cpu_seconds"`
		RSS     float64 `json:"max_rss_mb"`
		States  int     `json:"states"`
		Classes int     `json:"classes"`
	}
	read := func(name string) []rec {
		data, err := os.ReadFile("../experiments/deadlock-scaling/" + name)
		require.NoError(t, err)
		var rs []rec
		for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var r rec
			require.NoError(t, json.Unmarshal([]byte(l), &r), l)
			rs = append(rs, r)
		}
		return rs
	}
	runs := read("results.jsonl")
	get := func(k int, routing string, atomic bool) rec {
		for _, r := range runs {
			if r.K == k && r.Routing == routing && r.Atomic == atomic {
				return r
			}
		}
		t.Fatalf("no record of %s k=%d atomic %v", routing, k, atomic)
		return rec{}
	}
	var slowest, valiant rec
	total := 0.0
	for _, r := range runs {
		total += r.CPU
	}
	for _, r := range read("registry16.jsonl") {
		total += r.CPU
		if r.Routing == "valiant" {
			valiant = r
		} else if r.CPU > slowest.CPU {
			slowest = r
		}
	}
	gb := func(mb float64) float64 { return mb / 1000 }
	d16, o16, o12, n16, n12, n32 := get(16, "duato", true), get(16, "dor", false), get(12, "dor", false),
		get(16, "duato", false), get(12, "duato", false), get(32, "duato", false)
	data, err := os.ReadFile("../docs/deadlock.md")
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(data)), " ")
	for _, want := range []string{
		fmt.Sprintf("Duato's protocol on a 16x16 torus: %s states enumerated, %s classes", docfig.Thousands(d16.States), docfig.Thousands(d16.Classes)),
		fmt.Sprintf("protocol is decided deadlock-free in %.2f CPU-s and %.0f MB", d16.CPU, d16.RSS),
		fmt.Sprintf("proved and replayed, in %.2f CPU-s (%.2f on 12x12)", o16.CPU, o12.CPU),
		fmt.Sprintf("non-atomic reallocation in %.2f CPU-s (%.2f on 12x12)", n16.CPU, n12.CPU),
		fmt.Sprintf("non-atomic at k = 32: %.0f CPU-s and %.1f GB, the slowest point", n32.CPU, gb(n32.RSS)),
		fmt.Sprintf("is the committed run (%.0f CPU-s in all", total),
		fmt.Sprintf("decided in at most %.1f CPU-s except Valiant (%.0f CPU-s and %.1f GB", slowest.CPU, valiant.CPU, gb(valiant.RSS)),
	} {
		require.True(t, strings.Contains(doc, want), "docs/deadlock.md must say: %s", want)
	}
}
