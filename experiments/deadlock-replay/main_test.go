package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// committed reads the committed run's results.jsonl.
func committed(t *testing.T) []Row {
	t.Helper()
	f, err := os.Open("results.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var rows []Row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r Row
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r), sc.Text())
		rows = append(rows, r)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, rows)
	return rows
}

// summary.md is the summary of the committed results, and docs/deadlock.md
// quotes its counts and its table verbatim.
func TestDocQuotesSummary(t *testing.T) {
	sum, err := os.ReadFile("summary.md")
	require.NoError(t, err)
	require.Equal(t, Summary(committed(t)), string(sum), "summary.md is not the summary of results.jsonl: rerun the sweep")
	doc, err := os.ReadFile("../../docs/deadlock.md")
	require.NoError(t, err)
	body := strings.TrimPrefix(string(sum), "# Deadlock verdicts not replayed\n\n")
	require.Contains(t, string(doc), body, "docs/deadlock.md does not quote experiments/deadlock-replay/summary.md")
}

// The statements of docs/deadlock.md on the committed run: with 2-flit buffers
// every deadlock verdict replays but one (hx-dal with 1 VC, atomic, on the
// HyperX with two links a pair), every one on a network of more than 16
// routers replays but minadapt-booksim's (and -islip's) on torus:5x5, five
// packets round a row whose five other requests are the last hop of no packet
// from a router where no worm starts, every one not replayed but that one is
// non-atomic with the fewest packets proved and found no release times meeting the replay's
// constraints in any attempt, and Duato's protocol with 3 VCs on mesh:6x6
// replays with 32-flit buffers on another configuration than the first.
func TestCommittedStatements(t *testing.T) {
	routers := map[string]int{}
	for _, r := range committed(t) {
		if r.Verdict != "deadlock" || r.Replayed {
			continue
		}
		key := fmt.Sprintf("%s %s %d VCs atomic %v buf %d", r.Topology, r.Routing, r.VCs, r.Atomic, r.Buf)
		hx := r.Topology == "hyperx:3x3,k=2,t=1" && r.Routing == "hx-dal" && r.VCs == 1 && r.Atomic
		if r.Buf == 2 {
			require.True(t, hx, key)
		}
		if !hx {
			require.False(t, r.Atomic, key)
			require.True(t, r.Minimal, key)
			require.Contains(t, r.Error, "no release times met the constraints", key)
		}
		n, ok := routers[r.Topology]
		if !ok {
			net, err := topology.Parse(r.Topology)
			require.NoError(t, err)
			n = net.Nodes()
			routers[r.Topology] = n
		}
		if n > 16 {
			require.Equal(t, "torus:5x5", r.Topology, key)
			require.True(t, strings.HasPrefix(r.Routing, "minadapt-booksim"), key)
			// five packets round a row, a ring of 5, whose five other
			// requests only the row's routers, the worms' sources, reach
			require.Equal(t, 5, r.Packets, key)
			require.Contains(t, r.Error, "; 5 VC(s) the granted heads request besides the chains' are the last hop of no packet from a router where no worm starts", key)
		}
	}
	found := false
	for _, r := range committed(t) {
		if r.Topology == "mesh:6x6" && r.Routing == "duato" && r.VCs == 3 && !r.Atomic && r.Buf == 32 {
			require.True(t, r.Replayed && r.Alternatives > 0, "mesh:6x6 duato 3 VCs --buf 32")
			found = true
		}
	}
	require.True(t, found)
}

// Bad input names what is wrong and leaves OUTDIR as it was: a committed run's
// results.jsonl and summary.md stay whole (a bad -routings name once truncated
// results.jsonl before the name was looked up).
func TestBadInputWritesNothing(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-routings", "dor,nosuch"}, `-routings: unknown routing "nosuch"`},
		{[]string{"-topologies", "mesh:3x3;nosuch:2"}, "-topologies: "},
		{[]string{"-bufs", "2,0"}, `-bufs: "0" is not a buffer depth`},
		{[]string{"-topologies", "mesh:3x3", "extra"}, "usage: "},
	} {
		dir := t.TempDir()
		for _, name := range []string{"results.jsonl", "summary.md"} {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("committed\n"), 0o644))
		}
		var log strings.Builder
		err := sweep(append(c.args, dir), &log)
		require.Error(t, err, "%v", c.args)
		require.Contains(t, err.Error(), c.want, "%v", c.args)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Len(t, entries, 2, "%v: OUTDIR gained a file", c.args)
		for _, name := range []string{"results.jsonl", "summary.md"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			require.NoError(t, err)
			require.Equal(t, "committed\n", string(b), "%v: %s", c.args, name)
		}
	}
}

// The committed run is the sweep the command makes by default (what
// docs/deadlock.md says it is, "every registered routing on 18 small
// networks", as many as the default -topologies): its cases are, in order,
// every registered routing that runs on each default network at its VC count,
// one fewer and one more, under both rules, every buffer depth of -bufs'
// default for a deadlock verdict and the first alone otherwise. A routing
// registered after the run fails it.
func TestCommittedCoversRegistry(t *testing.T) {
	type key struct {
		topo, routing string
		vcs           int
		atomic        bool
	}
	specs := strings.Split(defaultTopologies, ";")
	doc, err := os.ReadFile("../../docs/deadlock.md")
	require.NoError(t, err)
	say := fmt.Sprintf("every registered routing on %d small networks", len(specs))
	require.True(t, strings.Contains(strings.Join(strings.Fields(string(doc)), " "), say), "docs/deadlock.md does not say %q", say)
	var want []key
	for _, spec := range specs {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		for _, name := range routing.Names() {
			alg, err := routing.Lookup(name)
			require.NoError(t, err)
			need, err := alg.MinVCs(net)
			if err != nil {
				continue
			}
			for _, vcs := range []int{need - 1, need, need + 1} {
				for _, atomic := range []bool{true, false} {
					if vcs >= 1 {
						want = append(want, key{net.String(), alg.Name, vcs, atomic})
					}
				}
			}
		}
	}
	var got []key
	depths := map[key][]int{}
	verdicts := map[key]string{}
	for _, r := range committed(t) {
		k := key{r.Topology, r.Routing, r.VCs, r.Atomic}
		if len(got) == 0 || got[len(got)-1] != k {
			got = append(got, k)
		}
		depths[k] = append(depths[k], r.Buf)
		verdicts[k] = r.Verdict
	}
	for i := range max(len(want), len(got)) {
		var w, g key
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		require.Equal(t, w, g, "case %d of results.jsonl is not the default sweep's (the registry or the networks changed since the run): rerun go run ./experiments/deadlock-replay experiments/deadlock-replay", i+1)
	}
	for _, k := range got {
		if verdicts[k] == "deadlock" {
			require.Equal(t, []int{2, 8, 32}, depths[k], "%v", k)
		} else {
			require.Equal(t, []int{2}, depths[k], "%v", k)
		}
	}
}
