// Deadlock reports: a cycle of worms each waiting for an edge the next one holds,
// Dally and Seitz's condition (cited by seed 001); it needs a cycle in the channel
// dependency graph.

package engine

import (
	"fmt"
	"strings"
)

// Deadlock reports a permanent stall: released worms that can never move again
// because they wait on each other in a cycle (possible only when the channel
// dependency graph has a cycle, see model.DependencyGraph). Worms[k] waits for edge
// Edges[k], which Worms[(k+1) % len] holds.
type Deadlock struct {
	// Time is the time from which nothing moves (the last step with a move).
	Time  int
	Worms []int
	Edges []int
	// Stuck is the number of released worms left undelivered.
	Stuck int
	text  string
}

func (d *Deadlock) Error() string { return d.text }

// deadlock builds the report: from a stuck worm, follow "waits for an edge held by"
// until a worm repeats.
func (e *Engine) deadlock() *Deadlock {
	start := int32(-1)
	for i := range e.h {
		if (e.state[i] == stAwake || e.state[i] == stAsleep) && e.h[i] < e.d[i] {
			start = int32(i)
			break
		}
	}
	d := &Deadlock{Time: e.lastMove, Stuck: e.Unfinished()}
	if start < 0 {
		d.text = fmt.Sprintf("deadlock from time %d: %d worms stuck", d.Time, d.Stuck)
		return d
	}
	pos := map[int32]int{}
	var worms, edges []int
	cur := start
	for {
		if p, ok := pos[cur]; ok {
			worms, edges = worms[p:], edges[p:]
			break
		}
		pos[cur] = len(worms)
		f := e.path[cur][e.h[cur]]
		worms = append(worms, int(cur))
		edges = append(edges, f)
		j := e.holder[f]
		if j < 0 || e.h[j] >= e.d[j] {
			// Not a wait: cannot happen in a stall (see doc.go); report what we have.
			break
		}
		cur = j
	}
	d.Worms, d.Edges = worms, edges
	var b strings.Builder
	fmt.Fprintf(&b, "deadlock from time %d (%d worms stuck): ", d.Time, d.Stuck)
	for k, w := range worms {
		if k > 0 {
			b.WriteString("; ")
		}
		next := worms[(k+1)%len(worms)]
		fmt.Fprintf(&b, "%q waits for edge %s held by %q", e.in.Messages[w].ID, e.in.Net.EdgeName(edges[k]), e.in.Messages[next].ID)
	}
	d.text = b.String()
	return d
}
