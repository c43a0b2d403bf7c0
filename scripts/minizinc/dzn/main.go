// Command dzn writes the MiniZinc data of scripts/minizinc/bufferless.mzn for a
// wormlab instance: go run ./scripts/minizinc/dzn INSTANCE > data.dzn (see
// scripts/minizinc/README.md); with --wormhole, the data of wormhole.mzn. H is
// the makespan of offline.Greedy in input order (a legal bufferless schedule, so
// a wormhole one too), lb the instance's best closed-form lower bound (valid in
// both models).
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "dzn:", err)
		os.Exit(2)
	}
}

func run() error {
	args := os.Args[1:]
	wormhole := len(args) == 2 && args[0] == "--wormhole"
	if wormhole {
		args = args[1:]
	}
	if len(args) != 1 {
		return fmt.Errorf("usage: dzn [--wormhole] INSTANCE")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	in, err := model.ParseInstance(data)
	if err != nil {
		return err
	}
	n := len(in.Messages)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	starts, err := offline.Greedy(in, order)
	if err != nil {
		return err
	}
	H := model.FromStarts(in, starts).Makespan
	var b strings.Builder
	list := func(name string, xs []int) {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = fmt.Sprint(x)
		}
		fmt.Fprintf(&b, "%s = [%s];\n", name, strings.Join(s, ","))
	}
	d, L := make([]int, n), make([]int, n)
	for i, m := range in.Messages {
		d[i], L[i] = len(m.Path), m.L
	}
	fmt.Fprintf(&b, "%% %s: %d messages\nn = %d;\n", in.Name, n, n)
	list("d", d)
	list("L", L)
	fmt.Fprintf(&b, "H = %d;\nlb = %d;\n", H, in.LowerBound().Value)
	// base[i]: the index (from 1) of message i's first hop in wormhole.mzn's t
	base, nh := make([]int, n), 0
	for i := range in.Messages {
		base[i] = nh + 1
		nh += d[i]
	}
	if wormhole {
		list("base", base)
		fmt.Fprintf(&b, "nh = %d;\n", nh)
	}
	var first, last, umsg, uoff, ustart, urel, uroff []int
	for _, us := range in.Users() {
		if len(us) < 2 {
			continue // an edge one message uses constrains nothing
		}
		first = append(first, len(umsg)+1)
		for _, u := range us {
			umsg = append(umsg, u.Msg+1)
			uoff = append(uoff, u.Pos)
			// the hop whose crossing releases the edge: k + L (from 1), or the
			// last hop and the drain steps past it
			k, dd := u.Pos+1, d[u.Msg]
			rel, off := k+L[u.Msg], 0
			if rel > dd {
				rel, off = dd, rel-dd
			}
			ustart = append(ustart, base[u.Msg]+k-1)
			urel = append(urel, base[u.Msg]+rel-1)
			uroff = append(uroff, off)
		}
		last = append(last, len(umsg))
	}
	fmt.Fprintf(&b, "E = %d;\n", len(first))
	list("first", first)
	list("last", last)
	fmt.Fprintf(&b, "U = %d;\n", len(umsg))
	if wormhole {
		list("ustart", ustart)
		list("urel", urel)
		list("uroff", uroff)
	} else {
		list("umsg", umsg)
		list("uoff", uoff)
	}
	_, err = os.Stdout.WriteString(b.String())
	return err
}
