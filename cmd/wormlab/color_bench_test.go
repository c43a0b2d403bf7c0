package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/model"
)

// colorBenchCases are the instances of issue 24's target for `wormlab color` (10^6
// paths a CPU-second under 500 MB, reading and writing the JSON included), at 10^5
// and 10^6 paths on a random recursive tree and on a mesh. The 10^6 mesh is 32 x 32
// so that its paths (21.4 hops on average) are about as long as the tree's (19.9);
// the 10^5 mesh is the 100 x 100 one of docs/cli.md's memory table (67 hops).
// scripts/color-speed.sh runs the binary on the same specifications (through
// wormlab gen, seed 1) for docs/color/speed.csv.
var colorBenchCases = []struct {
	name string
	big  bool // 10^6 paths: skipped with -short
	spec instances.Spec
}{
	{"tree1e5", false, instances.Spec{Kind: "tree", Size: 10_000, Messages: 100_000, Seed: 1}},
	{"mesh1e5", false, instances.Spec{Kind: "mesh", Sides: []int{100, 100}, Messages: 100_000, Seed: 1}},
	{"tree1e6", true, instances.Spec{Kind: "tree", Size: 100_000, Messages: 1_000_000, Seed: 1}},
	{"mesh1e6", true, instances.Spec{Kind: "mesh", Sides: []int{32, 32}, Messages: 1_000_000, Seed: 1}},
}

// BenchmarkColorCommand runs the whole command, `wormlab color FILE -o OUT`: reading
// and parsing the instance, colouring it and writing the schedule. It reports paths
// per second of wall-clock time and per CPU-second of the process (the collector's
// work on the other core included). Peak memory is the command's, measured outside
// (scripts/color-speed.sh runs the binary under /usr/bin/time).
func BenchmarkColorCommand(b *testing.B) {
	dir := b.TempDir()
	for _, tc := range colorBenchCases {
		b.Run(tc.name, func(b *testing.B) {
			if tc.big && testing.Short() {
				b.Skip("10^6 paths: not with -short")
			}
			in, err := instances.Generate(tc.spec)
			if err != nil {
				b.Fatal(err)
			}
			file := filepath.Join(dir, tc.name+".json")
			f, err := os.Create(file)
			if err != nil {
				b.Fatal(err)
			}
			if err := model.WriteInstance(f, in); err != nil {
				b.Fatal(err)
			}
			if err := f.Close(); err != nil {
				b.Fatal(err)
			}
			n := len(in.Messages)
			in = nil
			out := filepath.Join(dir, tc.name+".out.json")
			cpu0, _ := cputime.Process()
			for b.Loop() {
				if code := run([]string{"color", file, "-o", out}, nil, io.Discard, io.Discard, false); code != 0 {
					b.Fatalf("wormlab color exited %d", code)
				}
			}
			cpu1, _ := cputime.Process()
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "paths/s")
			if cpu := (cpu1 - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(float64(n)*float64(b.N)/cpu, "paths/cpu-s")
			}
		})
	}
}
