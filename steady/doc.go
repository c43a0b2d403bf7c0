// Package steady analyses the output of a steady-state simulation: a series of
// observations x_1..x_n in the order they were produced (packet latencies in order of
// delivery, say), of which an initial stretch is biased by the empty start of the
// simulated system.
//
// The pieces, each a pure function of the series:
//
//   - MSER5 (mser.go) chooses how many leading observations to drop: the MSER-5
//     rule of White (1997) and White, Cobb and Spratt (2000). The series is cut into
//     batches of five; for each candidate cut d (in batches) over the first half, the
//     statistic sum_{j>d} (Z_j - mean_{j>d} Z)^2 / (m-d)^2 over the batch means Z_j
//     is computed, and the cut minimising it is taken. Hoad, Robinson and Davies
//     (2010) rank it first of the automatic warm-up rules they compared.
//   - BatchMeans (batch.go) is the method of non-overlapping batch means (Law and
//     Kelton, Simulation Modeling and Analysis, section 9.5.3; Schmeiser 1982 for
//     10-30 batches): k batch means are treated as i.i.d. normal and the interval is
//     mean +- t_{k-1,(1+level)/2} s/sqrt(k).
//   - TQuantile (student.go) is the Student-t quantile, found by bisection on the
//     distribution function written with the regularized incomplete beta function
//     (Abramowitz and Stegun 26.7.1 and 26.5.8, the continued fraction evaluated by
//     Lentz's method).
//   - Quantile (quantile.go) is the nearest-rank quantile: an observed value.
//   - Trend (trend.go) fits a line to the batch means against time and gives a
//     confidence interval on its slope: a slope significantly above zero over the
//     whole measured window is how a simulator tells "latency grows without bound"
//     (a saturated point) from a noisy steady state.
//   - Histogram (histogram.go) counts integer observations in log-linear bins (exact
//     below 2^HistExact, then 2^HistBits bins per power of two), so its quantiles
//     are within HistRelErr of the exact ones in memory that does not grow with
//     the number of observations (after HdrHistogram). MSERMeans, MeanInterval and
//     TrendMeans are MSER's search, batch means and the trend test on batch means
//     a caller has already formed (package sim keeps block sums, not series).
//   - Analyze (analyze.go) combines them: MSER-5 truncation, then batch means with
//     DefaultBatches batches, percentiles of the kept observations, and whether the
//     data were enough; Estimate.Precise is the stop rule by relative half-width.
//
// Costs: MSER5, BatchMeans and Trend take O(n) time and O(n/5) memory (MSER5) or
// O(1) (the others); Quantile sorts a copy, O(n log n) time and O(n) memory; Analyze
// sorts once. TQuantile takes about a hundred evaluations of the incomplete beta
// function (each up to a few hundred continued-fraction terms). No function modifies
// its input.
//
// Invariants: MSER5 returns a multiple of 5 not above n/2; a half-width is
// non-negative, +Inf when there are fewer than two batches; Quantile(xs, 1) is the
// maximum and Quantile(xs, q) is an element of xs.
//
// References.
// K. P. White Jr., An effective truncation heuristic for bias reduction in
// simulation output, Simulation 69(6):323-334, 1997.
// K. P. White Jr., M. J. Cobb, S. C. Spratt, A comparison of five steady-state
// truncation heuristics for simulation, Proc. Winter Simulation Conference 2000,
// 755-760.
// K. Hoad, S. Robinson, R. Davies, Automating warm-up length estimation, Journal of
// the Operational Research Society 61(9):1389-1403, 2010.
// B. Schmeiser, Batch size effects in the analysis of simulation output, Operations
// Research 30(3):556-568, 1982.
// A. M. Law, W. D. Kelton, Simulation Modeling and Analysis, 3rd ed., 2000, 9.5.
// M. Abramowitz, I. A. Stegun, Handbook of Mathematical Functions, 1964, 26.5, 26.7.
package steady
