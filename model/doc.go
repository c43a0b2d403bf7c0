// Package model is wormlab's vocabulary: the wormhole-routing model of MODEL.md in
// code. It holds networks, messages (worms) and instances, schedules, their JSON
// interchange formats, and the measures every algorithm and bound is stated in
// (per-edge load, congestion c, flit congestion c_L, dilation d, the path graph and
// its degree Delta, the channel dependency graph, and the lower bounds every
// schedule obeys).
//
// Every other package of wormlab imports model; model imports nothing of ours.
//
// # Conventions
//
// Nodes and edges are identified by their index: node i is Network.Nodes[i], edge e
// is Network.Edges[e]. Parallel edges are allowed, so a path is a list of edge
// indices. Positions on a path are 1-based in the documentation (the head crosses
// e_1 first), 0-based in slices: Message.Path[k-1] is e_k.
//
// Time is discrete. Step t = 1, 2, ... moves flits; "at time t" means after step t.
// A schedule gives, for each message, its head crossing times t_1 < ... < t_d.
//
// # Extra fields
//
// The JSON formats allow extra fields; they are kept in Extra maps and written back
// unchanged. The generators of package instances use these names:
//
//   - top level "topology": an object with "kind" (line, tree, kary-tree, mesh,
//     torus, butterfly, fat-tree, levelled, prime, ...) and its parameters;
//   - network "levels": one integer per node, for levelled networks;
//   - network "coords": one integer vector per node, for meshes and tori.
//
// Levels and Coords read them back.
//
// # Defaults and readings of MODEL.md
//
// When the top-level "flits" is omitted the default length is 1. A path given by
// node names must name at least two nodes (one hop); a hop between two nodes joined
// by parallel edges is rejected as ambiguous, so such paths must be given as edge
// indices. A JSON null is no value for any field of either format: it is rejected
// naming the field, never read as a zero value or a default.
//
// # Invariants and cost
//
// An instance that passes Validate (every instance ParseInstance returns does) has
// unique node names and message ids, edges between existing nodes, and for every
// message 1 <= d_i, L_i >= 1 (sum_i L_i <= MaxTotalFlits), and a path e_1 .. e_d
// that is a walk over existing edges using no edge twice; everything else in the
// package assumes this. With n
// messages, N nodes, E edges and H = sum_i d_i:
//
//	Validate, Measure, Users, Dependencies     O(N + E + n + H)
//	LowerBounds, EdgeBound over all edges      O(E + H log c)
//	PathGraph                                  O(sum_e c_e^2) time and memory
//	ParseInstance, ParseSchedule               O(bytes of input)
//
// # The compact form
//
// Paths holds an instance's messages in flat arrays (4 bytes a hop instead of 8,
// and no Message of 64 bytes each): ReadPaths reads a document into it as
// ReadInstance would (same acceptance, same errors), PathsOf converts an
// Instance, and LowerBounds, Measure and WriteBufferlessPaths work on it, so that
// wormlab color holds 10^6 paths in under 500 MB (issue 24).
//
// A parsed schedule is only well-formed JSON of the right types; its legality is
// package verify's business.
package model
