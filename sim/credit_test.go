package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A credit touches only its own router's state, as every phase of a partition's
// thread must (part.go: the partitions run a cycle's phases at once and share no
// router): the input VC whose mask a credit to output VC ov ors into (credited)
// is ov's owner or, with none, an input VC of ov's router. 3ad9506's branch-free
// credit took input VC 0 for every output VC without an owner: router 0's mask,
// read and written back by every partition's thread while partition 0's own
// thread changed it (go test -race: TestThreadsSameRun's torus with duato and
// random arbitration reported the race and overflowed a buffer; without -race at
// load 18 it accepted 0.097 on 3 threads against 0.107 on one).
func TestCreditTouchesItsRouter(t *testing.T) {
	e := line(t, true, 2, 4, Ideal())
	for r := range 3 {
		for o := e.outBase[r]; o < e.outBase[r+1]; o++ {
			for v := range int32(2) {
				ov := o<<e.vs | v
				require.Equal(t, e.unowned(ov), e.ov[ov].owner)
				require.Negative(t, e.ov[ov].owner)
				iv := e.credited(ov)
				require.Equal(t, int32(r), e.in[e.port(iv)].rtr, "output VC %d of router %d without an owner", ov, r)
				held := (e.inBase[r+1]-1)<<e.vs | v // r's last input port
				e.own(ov, held)
				require.Equal(t, held, e.credited(ov), "output VC %d of router %d held", ov, r)
				e.release(e.outRtr[e.port(ov)], ov)
				require.Equal(t, iv, e.credited(ov), "output VC %d of router %d released", ov, r)
			}
		}
	}
}
