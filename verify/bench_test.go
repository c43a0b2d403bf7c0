package verify_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// meshSerial builds n messages with dimension-order (x then y) paths between random
// nodes at most 8 apart in each dimension of a side x side mesh, length 4 flits, and
// the schedule that runs them one at a time in a random order, each head waiting one
// step before every third edge. Its makespan is about n (d + L), yet verification costs O(H log H) for
// H = sum d_i, not makespan times edges.
func meshSerial(n, side int, seed uint64) (*model.Instance, *model.Schedule) {
	r := rand.New(rand.NewPCG(seed, 0))
	net := &model.Network{}
	id := func(x, y int) int { return y*side + x }
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			net.AddNode(fmt.Sprintf("%d,%d", x, y))
		}
	}
	right := make([]int, side*side)
	left := make([]int, side*side)
	up := make([]int, side*side)
	down := make([]int, side*side)
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			if x+1 < side {
				right[id(x, y)], left[id(x+1, y)] = net.AddLink(id(x, y), id(x+1, y))
			}
			if y+1 < side {
				up[id(x, y)], down[id(x, y+1)] = net.AddLink(id(x, y), id(x, y+1))
			}
		}
	}
	in := &model.Instance{Name: "bench", Net: net, Flits: 4}
	s := &model.Schedule{Model: model.Wormhole, Messages: make([]model.Times, n)}
	for i := 0; i < n; i++ {
		x, y := r.IntN(side), r.IntN(side)
		tx := min(side-1, max(0, x+r.IntN(17)-8))
		ty := min(side-1, max(0, y+r.IntN(17)-8))
		if tx == x && ty == y {
			tx = (x + 1) % side
		}
		var path []int
		for x != tx {
			if x < tx {
				path, x = append(path, right[id(x, y)]), x+1
			} else {
				path, x = append(path, left[id(x, y)]), x-1
			}
		}
		for y != ty {
			if y < ty {
				path, y = append(path, up[id(x, y)]), y+1
			} else {
				path, y = append(path, down[id(x, y)]), y-1
			}
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: 4, AsEdges: true})
	}
	// Run the worms one at a time in a random order, so that the holdings of an edge
	// come unsorted.
	free := 0
	for _, i := range r.Perm(n) {
		path := in.Messages[i].Path
		cross := make([]int, len(path))
		t := free
		for k := range cross {
			t++
			if k%3 == 2 {
				t++
			}
			cross[k] = t
		}
		free = cross[len(cross)-1] + 4 - 1
		s.Messages[i] = model.Times{ID: in.Messages[i].ID, Cross: cross}
	}
	s.Makespan = free
	return in, s
}

// BenchmarkVerify verifies legal schedules of 10^4 and 10^5 messages on a 64 x 64
// mesh (Schedule and All do the same work on a legal schedule).
func BenchmarkVerify(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		in, s := meshSerial(n, 64, 1)
		h := 0
		for i := range in.Messages {
			h += len(in.Messages[i].Path)
		}
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			if err := verify.Schedule(in, s); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := verify.Schedule(in, s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(h), "holdings")
		})
	}
}
