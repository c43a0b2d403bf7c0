// Package instances generates wormhole-routing instances: networks (line, trees,
// meshes and tori, butterflies, the butterfly fat-tree, random levelled networks),
// path sets on them (traffic patterns routed by a routing rule), and Ranade's
// butterfly problems. Everything is seeded: generators take a *rand.Rand from
// math/rand/v2 (or a Spec.Seed) and the same seed gives the same instance, bit for
// bit.
//
// # Networks
//
//	Line(n)                    nodes "0".."n-1", coords [i]
//	Mesh(sides...)             k-dim mesh, nodes "x0,x1,..", coords, row-major
//	Torus(sides...)            mesh + wrap links in every dimension of side >= 3
//	RandomTree(n, r)           random recursive tree, nodes "0".., coords [depth, rank]
//	KaryTree(k, depth)         complete k-ary tree, breadth-first numbering
//	Butterfly(n)               n = 2^k inputs, nodes "row,level", "levels"
//	FatTree(n)                 n = 4^h processors, Greenberg-Oh nodes "l,a", coords [l, a]
//	Levelled(levels, width, degree, r)  random levelled network, nodes "i,level", "levels"
//
// Each returns a *Topology: the model.Network (with "coords" or "levels" among its
// extra fields), Params (written as the instance's top-level "topology" object, with
// "kind" and the parameters), the source and destination terminals, and a router:
// Topology.Path(src, dst, routing, r). Links of lines, trees, meshes, tori and the
// fat-tree are two edges, one each way; butterflies and levelled networks have edges
// from level l to l+1 only.
//
// # Routings
//
// DimensionOrder (meshes, tori), OneBend (meshes and tori of 1 or 2 dimensions),
// RandomShortest (meshes, tori, fat-tree, levelled networks), Deterministic
// (fat-tree), Unique (trees, butterflies). On a torus a coordinate is corrected the
// shorter way round (the + way on a tie, except under RandomShortest). A
// topology's first routing in Topology.Routings is its default.
//
// Each routing is a value implementing Routing, one per file (routing_*.go:
// DimensionOrderRouting, OneBendRouting, RandomShortestGrid, FatTreeRandom,
// FatTreeDeterministic; the one routing of trees, butterflies and levelled
// networks is a funcRouting built with the topology). A topology offers its
// routings as values; Topology.Routing(name) is the registry the command line
// uses (--routing). The fat-tree's two routings differ only in how they choose an
// up-link, the small upChooser interface declared where it is used; ParseSpec
// reads the "mesh:4x4" specs of the command line.
//
// # Path sets
//
// Pairs(t, Traffic, r) draws the (source, destination) pairs of a traffic pattern
// (Patterns: random, permutation, complement, many-to-1, hotspot, local, transpose,
// bit-reversal, and Ranade's light and heavy butterfly problems of seed 002,
// section 2.4); Topology.Instance routes them into a model.Instance. Generate(Spec)
// does all of it from one description (what `wormlab gen` calls), writing the
// top-level extra fields "topology" and "traffic"; Build(Spec, r) only the network.
// Bad parameters are *SpecError naming the parameter as the command's flag.
//
// Message i has source terminal i mod T (T terminals), so every terminal sends
// floor or ceil of M/T of the M messages. A message whose source equals its
// destination is skipped, since a path must be non-empty (MODEL.md): a
// permutation's fixed points (the diagonal of a transpose) and a destination drawn
// equal to its source send nothing, so an instance may hold fewer messages than
// asked for; "traffic" records the pairs drawn and how many were skipped. On a
// random levelled network a random destination is drawn among those the source
// reaches.
//
// Readings where the papers are silent or their copies lost the formula: the
// many-to-1 pattern sends the first half of the terminals to the last terminal and
// the second half to terminal 0; the hotspot is the centre of a mesh or torus
// (terminal T/2 elsewhere); local traffic is uniform over the box of the given
// radius around the source on meshes and tori (the torus distance the shorter way
// round), and over the nodes within that many hops (links either way) elsewhere;
// a radius above the farthest a destination lies from a source in that distance
// is refused (it would draw as the farthest distance does).
//
// # Invariants and cost
//
// Every instance Generate returns passes model.Instance.Validate (non-empty walks
// using no edge twice, L >= 1, unique ids) and has at most 2^22 nodes and 2^22
// messages.
//
// Building a network is O(nodes + edges); routing a message is O(d) on meshes,
// tori, trees, butterflies and fat-trees (O(d log N) on a fat-tree) and
// O(levels * width * degree) on a levelled network. Generate is
// O(nodes + edges + sum of d_i).
package instances
