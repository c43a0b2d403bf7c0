// Package draw renders a schedule as an SVG space-time diagram: one row per edge the
// messages use (labelled from->to), time running left to right with one column per
// time step, and each worm's holdings as a bar in its own colour, labelled with its
// id. A holding is the interval of MODEL.md's legality rule 2, [t_k, M(k+L) - 1],
// taken from verify.Holdings, so the picture shows exactly what the verifier checks.
// Violations found by verify.All are marked in red: both bars of a conflict are
// outlined, the cell (edge, time) of the first collision is crossed out (labels are
// moved off the marked cells, or left out when they fit nowhere else), and every
// violation is listed in a note under the diagram. The steps in which a worm's head
// waits (between t_k and t_{k+1} > t_k + 1, when the whole worm stands still) are
// hatched on every bar it holds then, so waiting and draining look different.
// Store-and-forward schedules are drawn as their packets occupy the edges.
//
// The time axis is drawn above and below the rows, with gridlines between. Colours
// come from a palette of 24 (8 hues, 3 lightness bands), given greedily so that
// bars that meet in a row differ clearly (colorsFor).
//
// Size: Options.Messages, Edges, From and To select what to draw; beyond MaxBars
// (DefaultMaxBars, about 4 MB of SVG) the first messages that fit are drawn and
// Drawn.LeftOut (also a note in the picture) says what was left out: a schedule of
// 10^5 worms on a 100 x 100 mesh draws in 3 s and 1.5 GB (the verifier's holdings)
// into a 6.8 MB file, against 1.6 GB of SVG and 5 GB before. Labels that do not fit
// in their bar are left out (each bar keeps a tooltip), the legend lists at most
// 400 messages, and the time axis is compressed to at most 1400 pixels (32 per
// step for short schedules).
//
// Cost O(H log H + K) for H holdings and K violations, plus O(sum of waits) for the
// hatching; the output has O(min(H, MaxBars) + K) elements.
package draw
