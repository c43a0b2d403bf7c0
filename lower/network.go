package lower

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/instances"
)

// ParseNetwork builds the network a spec names, "kind:params", with the generators
// of package instances (seeded, for the random tree and the levelled network):
//
//	line:N  tree:N  butterfly:N  fat-tree:N        N nodes, inputs or processors
//	mesh:AxB[x..]  torus:AxB[x..]                  sides
//	kary-tree:KxD                                  arity and depth
//	levelled:WxD[xK]                               width, levels, out-degree
func ParseNetwork(spec string, seed uint64) (*instances.Topology, error) {
	s, err := instances.ParseSpec(spec)
	if err != nil {
		var se *instances.SpecError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("network %s", strings.TrimPrefix(se.Msg, ""))
		}
		return nil, err
	}
	if !strings.Contains(spec, ":") {
		return nil, fmt.Errorf("network %q: want kind:params, e.g. mesh:3x3", spec)
	}
	s.Seed = seed
	t, err := instances.Build(s, instances.Rand(seed))
	if err != nil {
		return nil, fmt.Errorf("network %q: %v", spec, err)
	}
	return t, nil
}
