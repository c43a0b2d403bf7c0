// Package sweep runs grids of wormlab runs: a spec names a command, its fixed
// parameters (by flag name), axes of values and a number of replications; every
// combination is a point with a stable key and its own seed, and each point's result
// is one JSON Lines record in a results file.
//
// # Keys, seeds and shards
//
// A point's key is a hash of the command, every parameter value (canonical text:
// 0.10 and 0.1 are one value) and the replication number; its seed is a hash of the
// spec's seed and the key (below 2^63). So neither depends on the spec's formatting,
// on which worker ran the point, nor on which shard: shard I of N is every N-th point
// in key order from the I-th, and the shards of one N partition the points with
// sizes within one of each other.
//
// # Results files
//
// A record carries the key, the spec's Hash, the parameters, replication, seed,
// status ("ok" or "failed" with the message), the measured values, the version of
// wormlab and the point's wall and CPU time. Records are appended with one write
// call each and synced to disk at most SyncEvery later; a crash can leave only the
// last line cut short, and OpenResults drops it (the point runs again). A rerun
// skips every point the file holds (resume); a file holding another spec's records
// is refused, naming the line. Merge joins shard files sorted by key and refuses two
// records of one key that disagree apart from timings.
//
// # Running
//
// Run feeds the points to Options.Workers goroutines; a point runs on a goroutine of
// its own, locked to its OS thread, so that cpu_ms is that thread's CPU time (the
// command's helper goroutines, if it starts any, are not counted). A point that
// returns an error or panics is recorded as failed and the sweep goes on. A point
// past Spec.Timeout is recorded as failed and abandoned (its goroutine runs on until
// it returns: prefer a command's own --timeout). When the context is cancelled Run
// writes the records already finished and returns at once.
//
// Costs: Points is O(P log P) for P points; a resumed run reads the file once,
// O(file size). Per point the sweep adds a goroutine, a thread lock, two getrusage
// calls, a JSON encoding and one write: about 10 microseconds on the machine of the
// benchmark (BenchmarkSweep10000: 10,000 trivial points in about 0.1 s).
package sweep
