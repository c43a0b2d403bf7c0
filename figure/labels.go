package figure

import "strings"

// units are the axis labels of the fields whose meaning wormlab knows: the rows of
// wormlab sim (package sim's Result, package simrun's parameters) and of sweep
// records. A dotted path is looked up whole, then by its last part
// ("values.latency" is a latency).
var units = map[string]string{
	"offered":      "offered load (flits/node/cycle)",
	"rate":         "offered load (flits/node/cycle)",
	"generated":    "generated load (flits/node/cycle)",
	"accepted":     "accepted load (flits/node/cycle)",
	"msg_rate":     "offered load (packets/node/cycle)",
	"msg-rate":     "offered load (packets/node/cycle)",
	"latency":      "latency (cycles)",
	"latency_ci":   "latency, 95% interval half-width (cycles)",
	"net_latency":  "network latency, source queueing excluded (cycles)",
	"p50":          "median latency (cycles)",
	"p99":          "99th percentile latency (cycles)",
	"max":          "largest latency (cycles)",
	"latency_src":  "latency as source (cycles)",
	"latency_dst":  "latency as destination (cycles)",
	"cycles":       "simulated cycles",
	"warmup":       "warm-up (cycles)",
	"util_max":     "busiest channel's utilisation (flits/cycle)",
	"util_mean":    "mean channel utilisation (flits/cycle)",
	"vcs":          "virtual channels per link",
	"buf":          "buffer (flits per VC)",
	"flits":        "packet size (flits)",
	"wall_ms":      "wall time (ms)",
	"cpu_ms":       "CPU time (ms)",
	"saturation":   "saturation throughput (flits/node/cycle)",
	"throughput":   "saturation throughput (flits/node/cycle)",
	"accepted_max": "saturation throughput (flits/node/cycle)",
}

// Label is the axis label of a field: its meaning and unit when wormlab knows the
// field, else the field's name.
func Label(field string) string {
	if u, ok := units[field]; ok {
		return u
	}
	if i := strings.LastIndexByte(field, '.'); i >= 0 {
		if u, ok := units[field[i+1:]]; ok {
			return u
		}
	}
	return field
}
