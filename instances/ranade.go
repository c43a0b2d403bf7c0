package instances

// Ranade, Schleimer and Wilkerson's butterfly problems (seed 002, section 2.4): in
// the lightly loaded problem each input of the N-input butterfly sends 1 message to
// a random output, in the heavily loaded problem log N messages to random outputs;
// messages have L >= log N flits (Generate's default is L = log N). Their analysis
// gives path graph degree Delta = O(log N) and O(log^2 N) with high probability, and
// section 3 shows the heavy problem needs Omega(log^3 N / log^2 log N) steps for
// L = log N, beyond the congestion + dilation bound.

import (
	"math/bits"
	"math/rand/v2"
)

func ranade(t *Topology, tr Traffic, r *rand.Rand) ([]Pair, error) {
	if t.Kind() != "butterfly" {
		return nil, specErr("traffic", "%q is a butterfly problem, not one for a %s", tr.Pattern, t.Kind())
	}
	if tr.Messages != 0 {
		return nil, specErr("messages", "%q fixes the number of messages (1 or log N per input)", tr.Pattern)
	}
	n := len(t.Sources)
	per := 1
	if tr.Pattern == Heavy {
		per = bits.TrailingZeros(uint(n))
	}
	pairs := make([]Pair, 0, n*per)
	for range per {
		for i := range n {
			pairs = append(pairs, Pair{t.Sources[i], t.Dests[r.IntN(n)]})
		}
	}
	return pairs, nil
}
