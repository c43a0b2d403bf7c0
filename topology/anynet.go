package topology

// BookSim2's anynet format ("anynet:net.txt"; src/networks/anynet.cpp and
// src/examples/anynet): one line per router or terminal, a head and the things it
// is linked to,
//
//	router 0 node 0 node 1 router 1 router 2 5
//	router 1 node 2 router 2
//	node 3 router 2
//
// "router R" heads a line that links router R to each "node N" (terminal N attaches
// to R) and each "router S" that follows; a number after "router S" is the latency
// of the channel R -> S in cycles (default 1). A link between routers is
// bidirectional: the channel S -> R exists too, with latency 1 unless a line sets
// it. "node N router R" attaches terminal N to R. Routers and terminals are numbered
// from 0 without gaps (BookSim2 requires it of terminals and indexes routers by
// number). Ports follow BookSim2's order: a router's channels to other routers in
// increasing order of their number (output and input ports alike); its terminals'
// injection and ejection ports in increasing order of terminal number.
//
// Refused, with the line named: a head or link that is not "router N" or "node N",
// a number that is not a whole number, a terminal linked to a terminal or to two
// routers, a router linked to itself, a latency above MaxLatency or on a
// terminal's link (the simulator has no terminal channel delay), a gap in the
// numbering of routers or terminals, and a router linked to no other router (in a
// network of several). BookSim2's reader also creates a router for every "node N"
// head, which a network then has to number around; this reader does not.

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/model"
)

func init() {
	registerKind("anynet", "anynet:net.txt", func(path string) (Network, error) {
		data, err := readNetFile(path)
		if err != nil {
			return nil, &SpecError{Field: "file", Msg: err.Error()}
		}
		g, err := ReadAnynet(data)
		if err != nil {
			return nil, &SpecError{Field: "file " + path, Msg: err.Error()}
		}
		g.spec = "anynet:" + path
		return g, nil
	})
}

// ReadAnynet reads a network in BookSim2's anynet format.
func ReadAnynet(data []byte) (*General, error) {
	routers := map[int]bool{}
	lat := map[int]map[int]int{} // lat[r][s]: latency of channel r -> s
	host := map[int]int{}        // terminal -> router
	chanTo := func(r, s int) {
		if lat[r] == nil {
			lat[r] = map[int]int{}
		}
		if _, ok := lat[r][s]; !ok {
			lat[r][s] = 1
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		tok := strings.Fields(sc.Text())
		if len(tok) == 0 {
			continue
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, a...))
		}
		num := func(i int) (int, error) {
			v, err := strconv.Atoi(tok[i])
			if err != nil || v < 0 {
				return 0, bad("%q is not a whole number", tok[i])
			}
			return v, nil
		}
		if len(tok) < 2 || (tok[0] != "router" && tok[0] != "node") {
			return nil, bad("want \"router N ...\" or \"node N router R\"")
		}
		head, err := num(1)
		if err != nil {
			return nil, err
		}
		headRouter := tok[0] == "router"
		if headRouter {
			routers[head] = true
		}
		attach := func(t, r int) error {
			if was, ok := host[t]; ok && was != r {
				return bad("terminal %d linked to two routers, %d and %d", t, was, r)
			}
			host[t] = r
			routers[r] = true
			return nil
		}
		for i := 2; i < len(tok); {
			kind := tok[i]
			if kind != "router" && kind != "node" {
				return nil, bad("%q: want router or node", kind)
			}
			if i+1 >= len(tok) {
				return nil, bad("%s without a number", kind)
			}
			body, err := num(i + 1)
			if err != nil {
				return nil, err
			}
			i += 2
			weight := -1
			if i < len(tok) && tok[i] != "router" && tok[i] != "node" {
				if weight, err = num(i); err != nil {
					return nil, err
				}
				if weight < 1 {
					return nil, bad("latency %d below 1", weight)
				}
				if weight > MaxLatency {
					return nil, bad("latency %d above %d", weight, MaxLatency)
				}
				i++
			}
			switch {
			case !headRouter && kind == "node":
				return nil, bad("terminal %d linked to terminal %d", head, body)
			case kind == "node" || !headRouter:
				t, r := body, head
				if !headRouter {
					t, r = head, body
				}
				if weight > 1 {
					return nil, bad("latency %d on terminal %d's link: terminal channels have no latency here", weight, t)
				}
				if err := attach(t, r); err != nil {
					return nil, err
				}
			default:
				if body == head {
					return nil, bad("router %d linked to itself", head)
				}
				routers[body] = true
				chanTo(head, body)
				chanTo(body, head)
				if weight > 0 {
					lat[head][body] = weight
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	nr, err := dense("router", routers)
	if err != nil {
		return nil, err
	}
	terms := map[int]bool{}
	for t := range host {
		terms[t] = true
	}
	nt, err := dense("terminal", terms)
	if err != nil {
		return nil, err
	}
	if nt == 0 {
		return nil, fmt.Errorf("no terminals")
	}
	net := &model.Network{}
	for r := range nr {
		net.AddNode(strconv.Itoa(r))
	}
	var lats []int
	for r := range nr {
		if nr > 1 && len(lat[r]) == 0 {
			return nil, fmt.Errorf("router %d is linked to no other router", r)
		}
		var to []int
		for s := range lat[r] {
			to = append(to, s)
		}
		sort.Ints(to)
		for _, s := range to {
			net.AddEdge(r, s)
			lats = append(lats, lat[r][s])
		}
	}
	conc := make([]int, nr)
	for _, r := range host {
		conc[r]++
	}
	g, err := fromModel(net, conc, lats)
	if err != nil {
		return nil, err
	}
	m := &TerminalMap{Injectors: make([]int32, nr), Ejectors: make([]int32, nr)}
	for t := range nt {
		r := host[t]
		m.In = append(m.In, int32(r))
		m.Out = append(m.Out, int32(r))
		m.InPort = append(m.InPort, m.Injectors[r])
		m.OutPort = append(m.OutPort, m.Ejectors[r])
		m.Injectors[r]++
		m.Ejectors[r]++
	}
	g.setTerminals(m)
	return g, nil
}

// dense checks that ids are 0 .. n-1 and returns n.
func dense(what string, ids map[int]bool) (int, error) {
	n := len(ids)
	for id := range ids {
		if id >= n {
			for k := range n {
				if !ids[k] {
					return 0, fmt.Errorf("%s %d is missing: %ss are numbered from 0 without gaps (found %d)", what, k, what, id)
				}
			}
		}
	}
	return n, nil
}
