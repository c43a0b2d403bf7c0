package verify

import "github.com/wormlab/wormlab/model"

// Holding is one closed time interval [From, To] during which message Msg (an
// instance index) holds edge Edge: from the step its head crosses the edge through
// the step its tail crosses it (see doc.go for the derivation).
type Holding struct {
	Edge, Msg int
	From, To  int
}

// Holdings returns the holdings the verifier checks: one per (message, path edge) of
// every scheduled message with well-formed crossing times (right number, positive,
// increasing, in range), sorted by (edge, From, Msg). Messages with malformed times
// have none; a nil or invalid instance, or a nil schedule, gives nil. Cost O(n + E + H log H).
func Holdings(in *model.Instance, s *model.Schedule) []Holding {
	if in == nil || s == nil || in.Validate() != nil {
		return nil
	}
	c := &checker{in: in, s: s, all: true, cross: make([][]int, len(in.Messages))}
	c.times()
	hs, off := c.holdings()
	out := make([]Holding, 0, len(hs))
	for e := 0; e+1 < len(off); e++ {
		for _, h := range hs[off[e]:off[e+1]] {
			out = append(out, Holding{Edge: e, Msg: int(h.msg), From: h.from, To: h.to})
		}
	}
	return out
}
