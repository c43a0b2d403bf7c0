package instances

import (
	"strconv"
	"strings"
)

// ParseSpec reads a topology spec "kind:params", the form the command line uses
// everywhere (gen, adversary; package topology's Parse reads the router-level
// "torus:8x8"):
//
//	line:N  tree:N  butterfly:N  fat-tree:N        N nodes, inputs or processors
//	mesh:AxB[x..]  torus:AxB[x..]                  sides
//	kary-tree:KxD                                  arity and depth
//	levelled:WxD[xK]                               width, levels, out-degree
//
// A bare kind ("mesh") sets only Kind. Errors are *SpecError naming the spec.
func ParseSpec(spec string) (Spec, error) {
	kind, params, has := strings.Cut(spec, ":")
	if kind == "fattree" { // the router-level commands' spelling (docs/cli.md)
		kind = "fat-tree"
	}
	s := Spec{Kind: kind}
	bad := func(format string, a ...any) error {
		return specErr("topology", "%q: "+format, append([]any{spec}, a...)...)
	}
	known := false
	for _, k := range Kinds {
		known = known || k == kind
	}
	if !known {
		return s, bad("unknown kind %q (want %s)", kind, strings.Join(KindNames(), ", "))
	}
	if !has {
		return s, nil
	}
	nums := func(want ...int) ([]int, error) {
		var out []int
		for _, f := range strings.Split(params, "x") {
			v, err := strconv.Atoi(f)
			if err != nil {
				return nil, bad("%q is not an integer", f)
			}
			if v < 1 {
				return nil, bad("%d is below 1", v)
			}
			out = append(out, v)
		}
		for _, w := range want {
			if len(out) == w {
				return out, nil
			}
		}
		return nil, bad("want %v numbers separated by x, got %d", want, len(out))
	}
	switch kind {
	case "line", "tree", "butterfly", "fat-tree":
		v, err := nums(1)
		if err != nil {
			return s, err
		}
		s.Size = v[0]
	case "mesh", "torus":
		sides, err := ParseSides(params)
		if err != nil {
			return s, bad("%v", err.(*SpecError).Msg)
		}
		s.Sides = sides
	case "kary-tree":
		v, err := nums(2)
		if err != nil {
			return s, err
		}
		s.K, s.Depth = v[0], v[1]
	case "levelled":
		v, err := nums(2, 3)
		if err != nil {
			return s, err
		}
		s.Size, s.Depth = v[0], v[1]
		if len(v) == 3 {
			s.K = v[2]
		}
	}
	return s, nil
}

// checkParams rejects a parameter the kind does not use (a silently ignored
// --size on a mesh, say) and an explicit value below 1 where 0 means "default".
func checkParams(s Spec) error {
	uses := map[string][]string{
		"line":      {"size"},
		"tree":      {"size"},
		"kary-tree": {"k", "depth"},
		"mesh":      {"sides"},
		"torus":     {"sides"},
		"butterfly": {"size"},
		"fat-tree":  {"size"},
		"levelled":  {"size", "depth", "k"},
	}[s.Kind]
	set := map[string]bool{"size": s.Size != 0, "k": s.K != 0, "depth": s.Depth != 0, "sides": len(s.Sides) > 0}
	for _, p := range []string{"size", "k", "depth", "sides"} {
		if !set[p] {
			continue
		}
		ok := false
		for _, u := range uses {
			ok = ok || u == p
		}
		if !ok {
			hint := ""
			if len(uses) > 0 {
				hint = " (it takes --" + strings.Join(uses, ", --") + ")"
			}
			return specErr(p, "%s takes no --%s%s", s.Kind, p, hint)
		}
	}
	for p, v := range map[string]int{"size": s.Size, "k": s.K, "depth": s.Depth} {
		if v < 0 {
			return specErr(p, "%d is below 1", v)
		}
	}
	return nil
}
