package lower

import (
	"fmt"
	"strconv"
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
	kind, params, _ := strings.Cut(spec, ":")
	s := instances.Spec{Kind: kind, Seed: seed}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("network %q: %s", spec, fmt.Sprintf(format, a...))
	}
	nums := func(want ...int) ([]int, error) {
		var out []int
		for _, f := range strings.Split(params, "x") {
			v, err := strconv.Atoi(f)
			if err != nil {
				return nil, bad("%q is not an integer", f)
			}
			out = append(out, v)
		}
		ok := false
		for _, w := range want {
			ok = ok || len(out) == w
		}
		if !ok {
			return nil, bad("want %v numbers separated by x, got %d", want, len(out))
		}
		return out, nil
	}
	switch kind {
	case "line", "tree", "butterfly", "fat-tree":
		v, err := nums(1)
		if err != nil {
			return nil, err
		}
		s.Size = v[0]
	case "mesh", "torus":
		sides, err := instances.ParseSides(params)
		if err != nil {
			return nil, bad("%v", err)
		}
		s.Sides = sides
	case "kary-tree":
		v, err := nums(2)
		if err != nil {
			return nil, err
		}
		s.K, s.Depth = v[0], v[1]
	case "levelled":
		v, err := nums(2, 3)
		if err != nil {
			return nil, err
		}
		s.Size, s.Depth = v[0], v[1]
		if len(v) == 3 {
			s.K = v[2]
		}
	default:
		return nil, bad("unknown kind %q (want line, tree, kary-tree, mesh, torus, butterfly, fat-tree or levelled)", kind)
	}
	t, err := instances.Build(s, instances.Rand(seed))
	if err != nil {
		return nil, bad("%v", err)
	}
	return t, nil
}
