package analytic

// Entry is one row of the paper's Tables 1 and 2 (seed 004, section 5): the mean
// latency in cycles of 12-flit messages on a k x k torus at a generation rate in
// messages per node per cycle, from the paper's simulation and its model, and
// the relative error the paper prints (model against simulation, percent).
type Entry struct {
	K      int
	Rate   float64
	Sim    float64
	Model  float64
	ErrPct float64
}

// TableL is the message length of Tables 1 and 2.
const TableL = 12

// Table1 is seed 004's Table 1 (4x4 and 8x8 tori), transcribed.
var Table1 = []Entry{
	{4, 0.001, 13.43, 13.65, +1.6}, {4, 0.002, 13.58, 13.70, +0.9},
	{4, 0.003, 13.68, 13.75, +0.5}, {4, 0.004, 13.89, 13.81, -0.6},
	{4, 0.005, 14.14, 13.87, -1.9}, {4, 0.006, 14.32, 13.93, -2.7},
	{4, 0.007, 14.53, 13.98, -3.8}, {4, 0.008, 14.73, 14.04, -4.7},
	{4, 0.009, 14.89, 14.10, -5.3}, {4, 0.010, 15.06, 14.17, -5.9},
	{4, 0.011, 15.29, 14.23, -6.9}, {4, 0.015, 16.10, 14.50, -9.9},
	{8, 0.001, 15.55, 15.73, +1.1}, {8, 0.002, 15.96, 15.92, -0.3},
	{8, 0.003, 16.27, 16.11, -1.0}, {8, 0.004, 16.81, 16.31, -2.9},
	{8, 0.005, 17.10, 16.51, -4.6}, {8, 0.006, 17.66, 16.72, -5.3},
	{8, 0.007, 18.15, 16.94, -6.6}, {8, 0.008, 18.65, 17.18, -7.9},
	{8, 0.009, 19.14, 17.42, -8.9}, {8, 0.010, 19.52, 17.69, -9.4},
	{8, 0.011, 20.12, 17.97, -10.7}, {8, 0.015, 22.18, 19.39, -12.6},
}

// Table2 is seed 004's Table 2 (12x12 and 16x16 tori), transcribed; the 16x16
// column stops at 0.007 (the paper prints dashes beyond).
var Table2 = []Entry{
	{12, 0.001, 17.79, 17.90, +0.6}, {12, 0.002, 18.43, 18.31, -0.6},
	{12, 0.003, 19.09, 18.76, -1.6}, {12, 0.004, 19.88, 19.27, -3.0},
	{12, 0.005, 20.73, 19.87, -4.1}, {12, 0.006, 21.33, 20.58, -3.5},
	{12, 0.007, 22.15, 21.40, -3.4}, {12, 0.008, 22.65, 22.52, -0.6},
	{12, 0.009, 23.25, 24.20, +4.0},
	{16, 0.001, 20.07, 20.05, +0.1}, {16, 0.002, 20.99, 20.65, -1.6},
	{16, 0.003, 21.85, 21.37, -2.2}, {16, 0.004, 22.82, 22.27, -2.5},
	{16, 0.005, 23.99, 23.47, -2.2}, {16, 0.006, 25.06, 25.34, +1.1},
	{16, 0.007, 26.27, 29.28, +11.4},
}

// Tables is Table1 followed by Table2.
func Tables() []Entry {
	return append(append([]Entry(nil), Table1...), Table2...)
}
