package instances

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/model"
)

// Kinds lists the topology kinds Generate builds.
var Kinds = []string{"line", "tree", "kary-tree", "mesh", "torus", "butterfly", "fat-tree", "levelled"}

// KindNames are the kinds as the command line spells them: "fattree", as every
// command does, for "fat-tree" (which ParseSpec reads too).
func KindNames() []string {
	ns := make([]string, len(Kinds))
	for i, k := range Kinds {
		if k == "fat-tree" {
			k = "fattree"
		}
		ns[i] = k
	}
	return ns
}

// Spec describes an instance to generate; it is what `wormlab gen` reads from its
// flags. Zero values take the defaults given.
type Spec struct {
	// Kind is one of Kinds.
	Kind string
	// Sides of a mesh or torus (one per dimension).
	Sides []int
	// Size: nodes of a line or random tree, inputs of a butterfly, processors of a
	// fat-tree, width of a levelled network.
	Size int
	// K: arity of a k-ary tree (default 2), out-degree of a levelled network
	// (default 2).
	K int
	// Depth: depth of a k-ary tree (default 3), number of levels of a levelled
	// network (default 4).
	Depth int
	// Traffic is a pattern of Patterns (default random); Routing a routing name
	// ("" the topology's default).
	Traffic, Routing string
	// Messages as in Traffic.Messages; Flits the length L of every message (default
	// log N for Ranade's problems, else 1).
	Messages, Flits int
	// Seed seeds every random choice: the network (random tree, levelled) first,
	// then the traffic, then the paths.
	Seed uint64
	// Radius and Hotspot as in Traffic.
	Radius  int
	Hotspot float64
	// Name of the instance (default made from kind, size and traffic).
	Name string
}

// Rand returns the generator Generate uses for a seed.
func Rand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x776f726d6c6162)) }

// Build returns the spec's network.
func Build(s Spec, r *rand.Rand) (*Topology, error) {
	needSize := func() error {
		if s.Size == 0 {
			return specErr("size", "%s needs --size", s.Kind)
		}
		return nil
	}
	if err := checkParams(s); err != nil {
		return nil, err
	}
	switch s.Kind {
	case "line":
		if err := needSize(); err != nil {
			return nil, err
		}
		return Line(s.Size)
	case "tree":
		if err := needSize(); err != nil {
			return nil, err
		}
		t, err := RandomTree(s.Size, r)
		if err == nil {
			t.Params["seed"] = s.Seed
		}
		return t, err
	case "kary-tree":
		return KaryTree(orDefault(s.K, 2), orDefault(s.Depth, 3))
	case "mesh", "torus":
		if len(s.Sides) == 0 {
			return nil, specErr("sides", "%s needs --sides (e.g. 4x4)", s.Kind)
		}
		if s.Kind == "mesh" {
			return Mesh(s.Sides...)
		}
		return Torus(s.Sides...)
	case "butterfly":
		if err := needSize(); err != nil {
			return nil, err
		}
		return Butterfly(s.Size)
	case "fat-tree":
		if err := needSize(); err != nil {
			return nil, err
		}
		return FatTree(s.Size)
	case "levelled":
		if err := needSize(); err != nil {
			return nil, err
		}
		t, err := Levelled(orDefault(s.Depth, 4), s.Size, orDefault(s.K, 2), r)
		if err == nil {
			t.Params["seed"] = s.Seed
		}
		return t, err
	}
	return nil, specErr("kind", "unknown kind %q (want one of %s)", s.Kind, strings.Join(KindNames(), ", "))
}

// Generate builds the instance a spec describes. The instance carries the extra
// fields "topology" (Topology.Params) and "traffic" (pattern, routing, seed, the
// pairs drawn and how many were skipped for having equal ends, and radius or
// hotspot fraction when used). Errors are *SpecError naming the parameter at fault.
// Same spec, same instance, bit for bit.
func Generate(s Spec) (*model.Instance, error) {
	r := Rand(s.Seed)
	t, err := Build(s, r)
	if err != nil {
		return nil, err
	}
	if s.Traffic == "" {
		s.Traffic = Random
	}
	if s.Flits < 0 {
		return nil, specErr("flits", "%d is below 1", s.Flits)
	}
	if s.Flits == 0 {
		s.Flits = 1
		if s.Traffic == Light || s.Traffic == Heavy {
			s.Flits = max(1, bits.Len(uint(len(t.Sources)))-1)
		}
	}
	if s.Routing == "" {
		s.Routing = t.Routings[0]
	}
	tr := Traffic{Pattern: s.Traffic, Messages: s.Messages, Radius: s.Radius, Hotspot: s.Hotspot}
	pairs, err := Pairs(t, tr, r)
	if err != nil {
		return nil, err
	}
	if s.Name == "" {
		s.Name = defaultName(s)
	}
	in, skipped, err := t.Instance(s.Name, pairs, s.Routing, s.Flits, r)
	if err != nil {
		return nil, err
	}
	if n := len(in.Messages); n > 0 && s.Flits > model.MaxTotalFlits/n {
		return nil, specErr("flits", "%d messages of %d flits: the lengths sum to more than %d", n, s.Flits, model.MaxTotalFlits)
	}
	info := map[string]any{"pattern": s.Traffic, "routing": s.Routing, "seed": s.Seed, "pairs": len(pairs), "skipped": skipped}
	switch s.Traffic {
	case Local:
		info["radius"] = s.Radius
	case Hotspot:
		info["hotspot"] = s.Hotspot
		info["hotspot_node"] = t.Net.Nodes[t.hotspot()]
	}
	in.SetExtra("traffic", info)
	return in, nil
}

func defaultName(s Spec) string {
	size := strconv.Itoa(s.Size)
	switch s.Kind {
	case "mesh", "torus":
		parts := make([]string, len(s.Sides))
		for i, x := range s.Sides {
			parts[i] = strconv.Itoa(x)
		}
		size = strings.Join(parts, "x")
	case "kary-tree":
		size = fmt.Sprintf("%d-%d", orDefault(s.K, 2), orDefault(s.Depth, 3))
	}
	return fmt.Sprintf("%s%s-%s", s.Kind, size, s.Traffic)
}

func orDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

// ParseSides reads sides written "4x4x2" (or "4,4,2"). An empty side ("4x", "4xx4")
// is an error: a typo must not silently drop a dimension.
func ParseSides(text string) ([]int, error) {
	fields := strings.Split(strings.ReplaceAll(text, ",", "x"), "x")
	if text == "" {
		return nil, specErr("sides", "%q: want sides like 4x4", text)
	}
	sides := make([]int, len(fields))
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 {
			return nil, specErr("sides", "%q: want positive integers like 4x4", text)
		}
		sides[i] = v
	}
	return sides, nil
}
