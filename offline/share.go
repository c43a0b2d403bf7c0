package offline

import (
	"sync"
	"sync/atomic"
)

// shareOut runs the tasks 0 .. n-1 on up to workers goroutines, this one
// among them: each goroutine makes its worker (newWorker, once, before its
// first task) and takes the next task not yet taken until none is left.
// It returns when every task is done.
func shareOut(workers, n int, newWorker func() func(task int)) {
	var next atomic.Int64
	work := func() {
		do := newWorker()
		for t := int(next.Add(1)) - 1; t < n; t = int(next.Add(1)) - 1 {
			do(t)
		}
	}
	var wg sync.WaitGroup
	for range min(workers, n) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}
