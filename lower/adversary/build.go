package adversary

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// TopologySpace is the space of a generated topology: its terminals, its own
// routings plus random simple and uniform shortest paths. Family and size are the
// spec's kind and parameters ("levelled", "3x8x3"). Lengths, counts and Keep are
// left for the caller.
func TopologySpace(t *instances.Topology, spec string) *Space {
	family, size, _ := strings.Cut(spec, ":")
	return &Space{Name: spec, Family: family, Size: size, Net: t.Net, Params: t.Params,
		Sources: t.Sources, Dests: t.Dests,
		Routers: append(TopologyRouters(t), SimpleRouter{}, ShortestRouter{})}
}

// InstanceSpace is the space of an instance's network, for a search that starts
// from the instance (--from): on a levelled network the terminals are the nodes of
// its first and last levels (a levelled network given with "levels", or one whose
// edges all go one level up), elsewhere every node with an out-edge is a source
// and every node with an in-edge a destination; the routers are random simple
// and uniform shortest paths. Family and size come from the instance's
// "topology" field when it has one ({"kind": "prime", "p": 3, ...} gives "prime"
// and "p=3,repaired=true"), else "network" and the instance's name.
func InstanceSpace(in *model.Instance) *Space {
	net := in.Net
	sp := &Space{Name: in.Name, Family: "network", Size: in.Name, Net: net,
		Routers: []Router{SimpleRouter{}, ShortestRouter{}}}
	if raw, ok := in.Extra["topology"]; ok {
		var params map[string]any
		if json.Unmarshal(raw, &params) == nil {
			sp.Params = params
			if k, ok := params["kind"].(string); ok && k != "" {
				sp.Family = k
				var keys []string
				for key := range params {
					if key != "kind" {
						keys = append(keys, key)
					}
				}
				sort.Strings(keys)
				var parts []string
				for _, key := range keys {
					switch v := params[key]; v {
					case true:
						parts = append(parts, key)
					case false:
					default:
						parts = append(parts, fmt.Sprintf("%s=%v", key, compact(v)))
					}
				}
				sp.Size = strings.Join(parts, ",")
			}
		}
	}
	if lv, ok := net.Levelling(); ok {
		lo, hi := lv[0], lv[0]
		for _, l := range lv {
			lo, hi = min(lo, l), max(hi, l)
		}
		for u, l := range lv {
			if l == lo && len(net.Out(u)) > 0 {
				sp.Sources = append(sp.Sources, u)
			}
			if l == hi && len(net.In(u)) > 0 {
				sp.Dests = append(sp.Dests, u)
			}
		}
		if len(sp.Sources) > 0 && len(sp.Dests) > 0 {
			return sp
		}
		sp.Sources, sp.Dests = nil, nil
	}
	for u := range net.Nodes {
		if len(net.Out(u)) > 0 {
			sp.Sources = append(sp.Sources, u)
		}
		if len(net.In(u)) > 0 {
			sp.Dests = append(sp.Dests, u)
		}
	}
	return sp
}

// compact renders a parameter: lists as "3x3", anything else as %v.
func compact(v any) string {
	if xs, ok := v.([]any); ok {
		var parts []string
		for _, x := range xs {
			parts = append(parts, fmt.Sprint(x))
		}
		return strings.Join(parts, "x")
	}
	return fmt.Sprint(v)
}
