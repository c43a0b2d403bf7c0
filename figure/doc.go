// Package figure draws the line plots of wormlab's studies from rows of JSON:
// latency against offered load per routing algorithm, accepted against offered
// throughput, makespan / lower bound against size. A figure is a set of series (one
// per value of a series field), each a list of points with an optional error bar;
// Draw renders it with gonum.org/v1/plot to SVG, PNG, PDF or EPS.
//
// Rows come from a JSON Lines file (or any stream of JSON objects, or one JSON
// array of them). A field is named by a dotted path; a number in the path indexes a
// list ("rows.0.Best"). In a sweep record (an object
// with "params" and "values", as package sweep writes) the path is looked up among
// the parameters first, then among the measured values, then at the top level
// ("seed", "replication"); in any other object it is looked up at the top level.
// Records whose "status" is "failed" are skipped.
//
// Rows sharing a series and an x value are replications: the point is their mean y.
// Its error bar is the mean of the --err field when one is named, otherwise, when
// there are two or more rows, the half-width of the 95% Student-t interval of the
// mean; a single row without an error field has no bar.
//
// Every series of a figure has a look of its own (colour, glyph and dash pattern)
// for up to Looks (63) series: the first seven are solid lines in plotutil's
// colours and glyphs, and each further round of the seven colours takes the next
// dash pattern and shifts the glyphs.
//
// Costs: reading is linear in the input; building is O(r log r) for r rows (sorting
// each series by x). Invariants of a built Figure: every series is non-empty, sorted
// by x with distinct x values, and every coordinate (and, on a log axis, every
// coordinate minus its error) is finite and, on a log axis, positive.
package figure
