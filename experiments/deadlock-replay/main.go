// Command deadlock-replay sweeps wormlab deadlock over the registry of routings on
// small networks and lists the deadlock verdicts whose configuration the replay
// does not reach in the simulator (docs/deadlock.md, the replay): every
// registered routing that accepts the network, at its VC count, one fewer and one
// more, under both VC reallocation rules, and for each deadlock verdict every
// buffer depth given (the decision does not depend on the depth, the replay
// does). Each case is one run of the wormlab binary (its own time and memory
// bounds), at nice 10, one at a time.
//
//	go run ./experiments/deadlock-replay [-wormlab BIN] [-topologies LIST] [-bufs 2,8,32] OUTDIR
//
// It writes OUTDIR/results.jsonl (one line per case) and OUTDIR/summary.md (the
// counts, and every verdict not replayed).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

type row struct {
	Topology     string `json:"topology"`
	Routing      string `json:"routing"`
	VCs          int    `json:"vcs"`
	Atomic       string `json:"atomic_vc"`
	Buf          int    `json:"buf"`
	Exit         int    `json:"exit"`
	Verdict      string `json:"verdict"`
	Packets      int    `json:"packets,omitempty"`
	Minimal      bool   `json:"minimal,omitempty"`
	Replayed     bool   `json:"replayed,omitempty"`
	Pipeline     string `json:"pipeline,omitempty"`
	Alternatives int    `json:"alternatives,omitempty"`
	Helpers      int    `json:"helpers,omitempty"`
	Unreachable  string `json:"unreachable,omitempty"`
	Error        string `json:"error,omitempty"`
}

// result is the part of wormlab deadlock --json read here.
type result struct {
	Verdict string `json:"verdict"`
	Minimal bool   `json:"minimal"`
	Worms   []struct {
		Src string `json:"src"`
	} `json:"worms"`
	Replay *struct {
		Replayed     bool   `json:"replayed"`
		Pipeline     string `json:"pipeline"`
		Alternatives int    `json:"alternatives"`
		Helpers      int    `json:"helpers"`
		Unreachable  string `json:"unreachable"`
		Error        string `json:"error"`
	} `json:"replay"`
}

func main() {
	bin := flag.String("wormlab", "", "the wormlab binary (default: go build ./cmd/wormlab into OUTDIR)")
	topos := flag.String("topologies", "mesh:3x3;mesh:4x4;mesh:5x5;mesh:6x6;mesh:2x5;torus:3x3;torus:4x4;torus:5x5;torus:6x6;torus:5;torus:6;torus:2x4;hyperx:3x3,k=2;hyperx:3x3,t=1;cmesh:3x3,c=2;fattree:16;dragonfly:a=3,p=1,h=1;fly:k=2,n=3", "networks, separated by ;")
	bufs := flag.String("bufs", "2,8,32", "buffer depths of each deadlock verdict")
	routings := flag.String("routings", "", "routings, separated by , (default: the registry)")
	timeout := flag.Duration("timeout", 2*time.Minute, "bound on one case")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./experiments/deadlock-replay [-wormlab BIN] [-topologies LIST] [-bufs 2,8,32] OUTDIR")
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
	var depths []int
	for _, s := range strings.Split(*bufs, ",") {
		b, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || b < 1 {
			fail(fmt.Errorf("-bufs: %q is not a buffer depth", s))
		}
		depths = append(depths, b)
	}
	names := routing.Names()
	if *routings != "" {
		names = strings.Split(*routings, ",")
	}
	f, err := os.Create(filepath.Join(out, "results.jsonl"))
	if err != nil {
		fail(err)
	}
	enc := json.NewEncoder(f)
	var rows []row
	for _, spec := range strings.Split(*topos, ";") {
		net, err := topology.Parse(spec)
		if err != nil {
			fail(fmt.Errorf("-topologies: %v", err))
		}
		for _, name := range names {
			alg, err := routing.Lookup(name)
			if err != nil {
				fail(fmt.Errorf("-routings: %v", err))
			}
			need, err := alg.MinVCs(net)
			if err != nil {
				continue // the routing does not run on this network
			}
			for _, vcs := range []int{need - 1, need, need + 1} {
				if vcs < 1 {
					continue
				}
				for _, atomic := range []string{"on", "off"} {
					for k, buf := range depths {
						r := run(*bin, *timeout, spec, name, vcs, atomic, buf)
						rows = append(rows, r)
						if err := enc.Encode(r); err != nil {
							fail(err)
						}
						fmt.Fprintf(os.Stderr, "%s %s vcs=%d atomic=%s buf=%d: %s replayed=%v %s\n", spec, name, vcs, atomic, buf, r.Verdict, r.Replayed, r.Error)
						if k == 0 && r.Verdict != "deadlock" {
							break // the depth matters to the replay only
						}
					}
				}
			}
		}
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
	if err := os.WriteFile(filepath.Join(out, "summary.md"), summary(rows, *topos, *bufs), 0o644); err != nil {
		fail(err)
	}
}

// run is one case: wormlab deadlock --json at nice 10 under a time bound.
func run(bin string, timeout time.Duration, spec, name string, vcs int, atomic string, buf int) row {
	r := row{Topology: spec, Routing: name, VCs: vcs, Atomic: atomic, Buf: buf}
	cmd := exec.Command("nice", "-n", "10", bin, "deadlock", "--topology", spec, "--routing", name,
		"--vcs", strconv.Itoa(vcs), "--atomic-vc", atomic, "--buf", strconv.Itoa(buf), "--json",
		"--minimal-timeout", "10s", "--max-memory", "2G", "--timeout", timeout.String())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		r.Exit = ee.ExitCode()
	} else if err != nil {
		fail(err)
	}
	var res result
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		r.Verdict = "error"
		r.Error = strings.TrimSpace(stderr.String())
		return r
	}
	r.Verdict, r.Minimal, r.Packets = res.Verdict, res.Minimal, len(res.Worms)
	if p := res.Replay; p != nil {
		r.Replayed, r.Pipeline, r.Alternatives, r.Helpers, r.Unreachable, r.Error = p.Replayed, p.Pipeline, p.Alternatives, p.Helpers, p.Unreachable, p.Error
	}
	return r
}

func summary(rows []row, topos, bufs string) []byte {
	var b bytes.Buffer
	count := map[string]int{}
	for _, r := range rows {
		count[r.Verdict]++
		if r.Verdict == "deadlock" && r.Replayed {
			count["replayed"]++
		}
		if r.Unreachable != "" {
			count["unreachable"]++
		}
	}
	fmt.Fprintf(&b, "# Deadlock verdicts and their replay\n\n`go run ./experiments/deadlock-replay -topologies '%s' -bufs %s OUTDIR`\n\n", topos, bufs)
	fmt.Fprintf(&b, "%d cases: %d deadlock-free, %d deadlock (%d replayed, %d proved unreachable), %d errors or bounds reached.\n\n",
		len(rows), count["deadlock-free"], count["deadlock"], count["replayed"], count["unreachable"], count["error"]+count[""])
	fmt.Fprintf(&b, "| topology | routing | VCs | atomic | buf | packets | fewest | outcome |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		if r.Verdict == "deadlock" && r.Replayed || r.Verdict == "deadlock-free" {
			continue
		}
		what := r.Error
		if r.Unreachable != "" {
			what = "unreachable: " + r.Unreachable
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %d | %d | %v | %s %s |\n", r.Topology, r.Routing, r.VCs, r.Atomic, r.Buf, r.Packets, r.Minimal, r.Verdict, what)
	}
	return b.Bytes()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "deadlock-replay:", err)
	os.Exit(2)
}
