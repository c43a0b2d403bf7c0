// Package measure summarises an instance in the terms of MODEL.md: its size,
// congestion c and flit congestion c_L (each with an edge attaining it), dilation d
// (with a message), the range of lengths L, the path graph (degree Delta with a
// message, and its components), the channel dependency graph (acyclic, or a cycle),
// whether the network is levelled, and every lower bound of model.LowerBounds with
// its witness and the best of them. It is what `wormlab stats` prints.
//
// Cost: O(nodes + edges + sum_i d_i log c) for everything but Delta, which needs the
// distinct neighbours of every message: O(sum_e c_e^2) time and O(messages) extra
// memory (the path graph itself, O(sum_e c_e^2) memory, is never built).
package measure
