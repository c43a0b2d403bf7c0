package model

import (
	"encoding/json"
	"fmt"
)

// Levels returns the network's "levels" field (one level per node) when present.
func (n *Network) Levels() ([]int, bool, error) {
	raw, ok := n.Extra["levels"]
	if !ok {
		return nil, false, nil
	}
	var lv []int
	if err := json.Unmarshal(raw, &lv); err != nil {
		return nil, true, fmt.Errorf("network: field \"levels\": want a list of integers")
	}
	if len(lv) != len(n.Nodes) {
		return nil, true, fmt.Errorf("network: field \"levels\": %d levels for %d nodes", len(lv), len(n.Nodes))
	}
	return lv, true, nil
}

// Coords returns the network's "coords" field (one integer vector per node) when present.
func (n *Network) Coords() ([][]int, bool, error) {
	raw, ok := n.Extra["coords"]
	if !ok {
		return nil, false, nil
	}
	var cs [][]int
	if err := json.Unmarshal(raw, &cs); err != nil {
		return nil, true, fmt.Errorf("network: field \"coords\": want a list of integer lists")
	}
	if len(cs) != len(n.Nodes) {
		return nil, true, fmt.Errorf("network: field \"coords\": %d coordinates for %d nodes", len(cs), len(n.Nodes))
	}
	return cs, true, nil
}

// SetExtra stores v under key k in the network's extra fields; it panics if v cannot
// be encoded as JSON (a programmer error).
func (n *Network) SetExtra(k string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("model: SetExtra(%q): %v", k, err))
	}
	if n.Extra == nil {
		n.Extra = Extra{}
	}
	n.Extra[k] = data
}

// Levelling returns a level for every node such that every edge goes from level l to
// level l+1, with the smallest level of each weakly connected component 0, or
// ok = false when no such assignment exists. When the network carries "levels", those
// are checked and returned instead. O(nodes + edges).
func (n *Network) Levelling() (levels []int, ok bool) {
	if lv, has, err := n.Levels(); has {
		if err != nil {
			return nil, false
		}
		for _, ed := range n.Edges {
			if lv[ed.To] != lv[ed.From]+1 {
				return nil, false
			}
		}
		return lv, true
	}
	const unset = int(^uint(0) >> 1)
	levels = make([]int, len(n.Nodes))
	for i := range levels {
		levels[i] = unset
	}
	for s := range n.Nodes {
		if levels[s] != unset {
			continue
		}
		levels[s] = 0
		comp := []int{s}
		for q := 0; q < len(comp); q++ {
			u := comp[q]
			for _, e := range n.Out(u) {
				v := n.Edges[e].To
				if levels[v] == unset {
					levels[v] = levels[u] + 1
					comp = append(comp, v)
				} else if levels[v] != levels[u]+1 {
					return nil, false
				}
			}
			for _, e := range n.In(u) {
				v := n.Edges[e].From
				if levels[v] == unset {
					levels[v] = levels[u] - 1
					comp = append(comp, v)
				} else if levels[v] != levels[u]-1 {
					return nil, false
				}
			}
		}
		lo := 0
		for _, u := range comp {
			lo = min(lo, levels[u])
		}
		for _, u := range comp {
			levels[u] -= lo
		}
	}
	return levels, true
}
