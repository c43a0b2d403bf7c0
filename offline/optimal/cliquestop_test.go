package optimal

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// A cancelled solve of 1000 one-hop worms on one edge returns within 2 s of CPU
// time (of its thread) with a legal schedule and a proven bound: the aligned
// cliques look at the context every cliqueCheck pair visits. Before, growing a
// clique from every message (n^3 / 2 offset checks) ignored it: 44 CPU-seconds
// for solve --timeout 1ms on this instance.
func TestCancelledSolveOnOneEdge(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"network":{"edges":[["a","b"]]},"messages":[`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"m%d","path":["a","b"]}`, i)
	}
	b.WriteString(`]}`)
	in, err := model.ReadInstance(strings.NewReader(b.String()))
	require.NoError(t, err)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := testctx.ThreadCPU(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, in, Options{})
	end, _ := cputime.Thread()
	require.NoError(t, err)
	require.Less(t, end-start, 2*time.Second, "CPU time of a cancelled solve")
	require.NoError(t, verify.Schedule(in, res.Schedule))
	require.LessOrEqual(t, res.Lower, res.Schedule.Makespan)
	require.GreaterOrEqual(t, res.Lower, 1000)
}
