// Package simrun describes a simulation run of package sim as plain values, and
// runs grids of them on every core.
//
// A Run is one open-loop simulation: topology, routing, VCs, buffers, packet sizes,
// traffic, injection process and load, router delays and policies, seed and
// measurement plan, each a named parameter (Params: the flag name of wormlab sim,
// the parameter name of a sweep spec, the column of an output row). Command-line
// flags (Bind, Apply), a BookSim2 configuration file and a sweep spec all build a
// Run through these parameters, and Run.Validate (Build) is the one place that
// checks them: every error is an *Error naming the parameter.
//
// A Job is a whole wormlab sim command line as a value: a grid, the mode (points,
// saturation searches, a BookSim2 file written, a batch) and the outputs.
// BindJob declares the command's flags; JobFlags.Job reads them, with a BookSim2
// file and its key=value overrides, into a Job and makes every check of the
// command line there (an *Error naming the flag, key or combination); Execute
// runs it (a progress line on a terminal, the finished points kept when the
// context ends) and Write prints it. The command only parses, calls and prints.
//
// A Grid is a base run and axes, each a parameter with several values (a list
// A,B,C or a range FROM:TO:STEP); its points are the cross product, the load
// varying fastest. Execute runs points on several goroutines and returns their
// outcomes in the points' order: a point is a function of its Run alone (its seed
// included), so the outcomes do not depend on the number of workers. Points start
// in decreasing order of offered load, the costliest first.
//
// Costs: Build is O(network) plus the routing's tables; Execute holds one
// simulation per worker (O(ports V B) flits per router each) and every finished
// point's sim.Result.
package simrun
