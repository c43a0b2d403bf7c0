// Command dzn writes the MiniZinc data of scripts/minizinc/bufferless.mzn for a
// wormlab instance: go run ./scripts/minizinc/dzn INSTANCE > data.dzn (see
// scripts/minizinc/README.md). H is the makespan of offline.Greedy in input order
// (a legal bufferless schedule), lb the instance's best closed-form lower bound.
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
	if len(os.Args) != 2 {
		return fmt.Errorf("usage: dzn INSTANCE")
	}
	data, err := os.ReadFile(os.Args[1])
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
	var first, last, umsg, uoff []int
	for _, us := range in.Users() {
		if len(us) < 2 {
			continue // an edge one message uses constrains nothing
		}
		first = append(first, len(umsg)+1)
		for _, u := range us {
			umsg = append(umsg, u.Msg+1)
			uoff = append(uoff, u.Pos)
		}
		last = append(last, len(umsg))
	}
	fmt.Fprintf(&b, "E = %d;\n", len(first))
	list("first", first)
	list("last", last)
	fmt.Fprintf(&b, "U = %d;\n", len(umsg))
	list("umsg", umsg)
	list("uoff", uoff)
	_, err = os.Stdout.WriteString(b.String())
	return err
}
