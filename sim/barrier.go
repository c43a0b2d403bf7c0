package sim

// The barrier of a run on several threads (part.go): the first partition's
// goroutine wakes the others for a section (a cycle's or a block's), runs its
// own part, then waits for theirs. A goroutine blocked on a channel or a
// WaitGroup sleeps in the kernel (a futex) and takes tens of microseconds to
// run again once woken, paid twice a block (the workers' wake-up, then the
// first's): on the 64x64 torus two threads lost ~10% of their elapsed time to
// it (issue 24). So a waiter first spins on the count it waits for, a bounded
// while (spinFor: longer than a block's shared work between sections, far
// shorter than a block), and only then sleeps on its channel; with one core
// (GOMAXPROCS 1) it never spins, the thread it waits for being unable to run.

import (
	"runtime"
	"sync/atomic"
	"time"
)

// spinFor bounds a waiter's spin before it sleeps.
const spinFor = 100 * time.Microsecond

// signal is a count one goroutine waits on: a signaller adds to it and wakes the
// waiter if it sleeps. asleep is set by the waiter before it sleeps and taken
// back by whichever of the two sees it first: a signaller that takes it sends one
// token on ch (buffered), which the waiter then takes, so no token is left over.
type signal struct {
	n      atomic.Int64
	asleep atomic.Bool
	ch     chan struct{}
	_      [64]byte // no false sharing with another waiter's signal
}

func newSignal() *signal { return &signal{ch: make(chan struct{}, 1)} }

// add counts one and wakes the waiter if it sleeps.
func (s *signal) add() {
	s.n.Add(1)
	if s.asleep.CompareAndSwap(true, false) {
		s.ch <- struct{}{}
	}
}

// wait returns once the count reaches target: spinning at most spin, then
// asleep on ch (woken by each add, until the count is reached).
func (s *signal) wait(target int64, spin time.Duration) {
	if spin > 0 && s.n.Load() < target {
		start := time.Now()
	spinning:
		for {
			for range 64 {
				if s.n.Load() >= target {
					return
				}
			}
			if time.Since(start) > spin {
				break spinning
			}
		}
	}
	for s.n.Load() < target {
		s.asleep.Store(true)
		if s.n.Load() >= target {
			if !s.asleep.CompareAndSwap(true, false) {
				<-s.ch // a signaller took the flag: its token is sent
			}
			return
		}
		<-s.ch
	}
}

// barrier runs sections on a run's partitions (engine.section): wake[i] starts
// partition i+1's goroutine for round number round on work (nil: its end),
// done counts the parts the workers finished.
type barrier struct {
	work  func(*part)
	wake  []*signal
	done  *signal
	round int64
	spin  time.Duration
}

func newBarrier(workers int) *barrier {
	b := &barrier{wake: make([]*signal, workers), done: newSignal()}
	for i := range b.wake {
		b.wake[i] = newSignal()
	}
	if runtime.GOMAXPROCS(0) > 1 {
		b.spin = spinFor
	}
	return b
}
