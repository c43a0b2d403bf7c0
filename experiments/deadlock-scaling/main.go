// Command deadlock-scaling measures wormlab deadlock's exact decision (issue 21)
// on k x k tori: how its CPU time and memory grow with k for a deadlock-free
// routing (Duato's protocol, atomic reallocation) and for two that deadlock, with
// their fewest packets found and replayed (dimension order with one VC; Duato's
// protocol under non-atomic reallocation); and every registered routing on a
// 16x16 torus at its VC count. Each case is one run of the wormlab binary, its CPU
// time and peak memory read from the operating system (rusage of the child).
//
//	go run ./experiments/deadlock-scaling [-wormlab BIN] [-k 8,12,16,24,32] OUTDIR
//
// It writes OUTDIR/results.jsonl (one line per case and k), OUTDIR/registry16.jsonl,
// OUTDIR/summary.md and OUTDIR/cpu.svg (CPU seconds against k, by wormlab plot);
// docs/deadlock.md quotes experiments/deadlock-scaling, the committed run.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type row struct {
	Case     string  `json:"case"`
	K        int     `json:"k"`
	Routing  string  `json:"routing"`
	VCs      int     `json:"vcs"`
	Atomic   bool    `json:"atomic_vc"`
	Verdict  string  `json:"verdict"`
	Method   string  `json:"method"`
	Packets  int     `json:"packets,omitempty"`
	Minimal  bool    `json:"minimal,omitempty"`
	Replayed bool    `json:"replayed,omitempty"`
	States   int64   `json:"states"`
	Classes  int     `json:"classes"`
	CPU      float64 `json:"cpu_seconds"`
	Wall     float64 `json:"wall_seconds"`
	RSS      float64 `json:"max_rss_mb"`
}

func main() {
	bin := flag.String("wormlab", "", "the wormlab binary (default: go build ./cmd/wormlab into OUTDIR)")
	ks := flag.String("k", "8,12,16,24,32", "torus sides")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./experiments/deadlock-scaling [-wormlab BIN] [-k 8,12,...] OUTDIR")
		os.Exit(2)
	}
	out := flag.Arg(0)
	if err := os.MkdirAll(out, 0o755); err != nil {
		fail(err)
	}
	if *bin == "" {
		*bin = filepath.Join(out, "wormlab")
		if b, err := exec.Command("go", "build", "-o", *bin, "./cmd/wormlab").CombinedOutput(); err != nil {
			fail(fmt.Errorf("go build: %v: %s", err, b))
		}
		defer os.Remove(*bin)
	}
	cases := []struct {
		name, routing string
		vcs           int
		atomic        string
	}{
		{"duato, atomic: deadlock-free", "duato", 3, "on"},
		{"dor, 1 VC: fewest packets", "dor", 1, "off"},
		{"duato, non-atomic: fewest packets", "duato", 3, "off"},
	}
	var rows []row
	for _, k := range strings.Split(*ks, ",") {
		side, err := strconv.Atoi(strings.TrimSpace(k))
		if err != nil {
			fail(err)
		}
		for _, c := range cases {
			r, err := measure(*bin, fmt.Sprintf("torus:%dx%d", side, side), c.routing, c.vcs, c.atomic)
			if err != nil {
				fail(err)
			}
			r.Case, r.K = c.name, side
			rows = append(rows, r)
			fmt.Fprintf(os.Stderr, "%-36s k=%-3d %s %d packets, %.2f CPU-s, %.0f MB\n", c.name, side, r.Verdict, r.Packets, r.CPU, r.RSS)
		}
	}
	writeJSONL(filepath.Join(out, "results.jsonl"), rows)
	// every registered routing that routes on a torus, at its VC count and the
	// simulator's default reallocation rule
	names, err := exec.Command(*bin, "deadlock", "--routing", "none").CombinedOutput()
	_ = err
	list := string(names)
	list = list[strings.Index(list, "want one of ")+len("want one of "):]
	list = list[:strings.Index(list, ", or table")]
	var reg []row
	for _, name := range strings.Split(list, ", ") {
		r, err := measure(*bin, "torus:16x16", name, 0, "auto")
		if err != nil {
			continue // not a torus routing
		}
		r.Case, r.K = "registry", 16
		reg = append(reg, r)
		fmt.Fprintf(os.Stderr, "%-14s %d VCs atomic %v: %s (%s), %.2f CPU-s, %.0f MB\n", name, r.VCs, r.Atomic, r.Verdict, r.Method, r.CPU, r.RSS)
	}
	writeJSONL(filepath.Join(out, "registry16.jsonl"), reg)
	summary(filepath.Join(out, "summary.md"), rows, reg)
	if b, err := exec.Command(*bin, "plot", filepath.Join(out, "results.jsonl"), "--x", "k", "--y", "cpu_seconds", "--series", "case", "--logy",
		"-o", filepath.Join(out, "cpu.svg")).CombinedOutput(); err != nil {
		fail(fmt.Errorf("wormlab plot: %v: %s", err, b))
	}
}

// measure runs wormlab deadlock once and reads its JSON and its rusage.
func measure(bin, topo, routing string, vcs int, atomic string) (row, error) {
	args := []string{"deadlock", "--topology", topo, "--routing", routing, "--atomic-vc", atomic, "--json"}
	if vcs > 0 {
		args = append(args, "--vcs", strconv.Itoa(vcs))
	}
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil || (err != nil && cmd.ProcessState.ExitCode() != 1) {
		return row{}, fmt.Errorf("wormlab %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	var res struct {
		Routing string `json:"routing"`
		VCs     int    `json:"vcs"`
		Atomic  bool   `json:"atomic_vc"`
		Verdict string `json:"verdict"`
		Method  string `json:"method"`
		States  int64  `json:"states"`
		Classes int    `json:"classes"`
		Minimal bool   `json:"minimal"`
		Worms   []any  `json:"worms"`
		Replay  *struct {
			Replayed bool `json:"replayed"`
		} `json:"replay"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return row{}, fmt.Errorf("wormlab %s: %v", strings.Join(args, " "), err)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	r := row{Routing: res.Routing, VCs: res.VCs, Atomic: res.Atomic, Verdict: res.Verdict, Method: res.Method, Packets: len(res.Worms),
		Minimal: res.Minimal, States: res.States, Classes: res.Classes, CPU: cpu.Seconds(), Wall: wall.Seconds(), RSS: float64(ru.Maxrss) / 1024}
	if res.Replay != nil {
		r.Replayed = res.Replay.Replayed
	}
	return r, nil
}

func writeJSONL(path string, rows []row) {
	var b bytes.Buffer
	for _, r := range rows {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		fail(err)
	}
}

func summary(path string, rows, reg []row) {
	var b strings.Builder
	b.WriteString("| case | k | verdict | packets | states | classes | CPU s | peak MB |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		p := ""
		if r.Verdict == "deadlock" {
			p = strconv.Itoa(r.Packets)
			if r.Minimal {
				p += " (fewest)"
			}
			if r.Replayed {
				p += ", replayed"
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %d | %d | %.2f | %.0f |\n", r.Case, r.K, r.Verdict, p, r.States, r.Classes, r.CPU, r.RSS)
	}
	b.WriteString("\n| routing | VCs | reallocation | verdict | how | packets | CPU s | peak MB |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	sort.Slice(reg, func(i, j int) bool { return reg[i].Routing < reg[j].Routing })
	for _, r := range reg {
		rule := "non-atomic"
		if r.Atomic {
			rule = "atomic"
		}
		p := ""
		if r.Verdict == "deadlock" {
			p = strconv.Itoa(r.Packets)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %.2f | %.0f |\n", r.Routing, r.VCs, rule, r.Verdict, r.Method, p, r.CPU, r.RSS)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "deadlock-scaling:", err)
	os.Exit(1)
}
