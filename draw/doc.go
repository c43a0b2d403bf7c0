// Package draw renders a schedule as an SVG space-time diagram: one row per edge the
// messages use (labelled from->to), time running left to right with one column per
// time step, and each worm's holdings as a bar in its own colour, labelled with its
// id. A holding is the interval of MODEL.md's legality rule 2, [t_k, M(k+L) - 1],
// taken from verify.Holdings, so the picture shows exactly what the verifier checks.
// Violations found by verify.All are marked in red: both bars of a conflict are
// outlined, the cell (edge, time) of the first collision is crossed out, and every
// violation is listed in a note under the diagram.
//
// The diagram is meant to be read for a few dozen worms; for more, labels that do
// not fit in their bar are left out (each bar keeps a tooltip) and the time axis is
// compressed to at most 1400 pixels (32 per step for short schedules).
//
// Cost O(H log H + K) for H holdings and K violations; the output has O(H + n + K)
// elements for n messages.
package draw
