package sim

// The barrier of a run on several threads (part.go): the first partition's
// goroutine wakes the others for a section (a cycle's or a block's), runs its
// own part, then waits for theirs, while they wait for the next section. A
// goroutine blocked on a channel sleeps in the kernel (a futex) and takes tens
// of microseconds to run again once woken, paid twice a block (a worker's
// wake-up, then the first's): on the 40x40 torus that is most of what two
// threads gain, on 64x64 some 10% of their elapsed time (issue 24).
//
// So a waiter may first spin on the count it waits for, but only where a spin
// can pay: the thread it waits for must be running at the time. Spinning is
// never tried with more partitions than Go runs goroutines at once
// (GOMAXPROCS): one of them would spin while a partner it waits for has no
// core to run on (a revert, 568dd44, found sim's threads tests three times
// slower that way). And where the partitions fit but the machine's cores do not
// (other processes), a spin fails if it times out (the partner is not
// running) or if its own thread was descheduled in it (the two threads share
// fewer cores than they are, and a spin takes the partner's time): after
// spinFails failures in a row a waiter sleeps at once for its next waits, a
// run of them doubling up to maxSkip while spins keep failing, so a loaded
// machine pays a few spins of spinFor per maxSkip waits. A spin
// calls runtime.Gosched now and then, so a goroutine waiting for a core of Go's
// (the partner, the garbage collector's) gets it.

import (
	"runtime"
	"sync/atomic"
	"time"
)

const (
	// spinFor bounds one spin: longer than what a block's partitions leave
	// each other to wait on the tori where a wake-up weighs (the first's
	// join and generation between blocks: 77 CPU-us a block on 40x40, 160 on
	// 64x64; 790 on 128x128, whose blocks are long enough not to mind), far
	// shorter than a block on a network whose blocks are long.
	spinFor = 250 * time.Microsecond
	// spinFails is the failed spins in a row after which a waiter sleeps at
	// once for a while, and maxSkip the most waits it then skips spinning.
	spinFails = 3
	maxSkip   = 1024
	// spinGap is the longest a spinning thread may go between two looks at
	// the clock (some 128 loads of the count, under a microsecond) before its
	// spin counts as one that could not pay: the thread was descheduled. A
	// scheduler's time slice under load is milliseconds; gaps of tens of
	// microseconds come on an idle virtual machine too (its host's own
	// interruptions): at 20 us on this project's 2-core VM, idle, nearly every
	// spin failed (BenchmarkThreads 16x16: spin-won 0-0.08, 0.05-0.09
	// spins a block) and two threads ran as if they slept at every barrier.
	spinGap = 200 * time.Microsecond
)

// signal is a count one goroutine waits on: signallers add to it and the one
// that brings it to the count the waiter wants wakes it if it sleeps (one
// wake-up a section, however many workers). asleep is set by the waiter, after
// want, before it sleeps and taken back by whichever of the two sees it first:
// a signaller that takes it sends one token on ch (buffered), which the waiter
// then takes, so no token is left over.
// The rest is the waiter's own: whether it may spin, its failed spins in a row,
// the waits it is to sleep at once and the next such run's length.
type signal struct {
	n      atomic.Int64
	want   atomic.Int64
	asleep atomic.Bool
	ch     chan struct{}

	spin            bool
	fails           int
	skip, nextSkip  int
	spins, spinWins int64 // counts for BlockStats (spins tried, spins that saw the count)

	_ [64]byte // no false sharing with another waiter's signal
}

func newSignal(spin bool) *signal {
	return &signal{ch: make(chan struct{}, 1), spin: spin, nextSkip: spinFails}
}

// add counts one and wakes the waiter if it sleeps and the count is what it
// wants.
func (s *signal) add() {
	if s.n.Add(1) >= s.want.Load() && s.asleep.CompareAndSwap(true, false) {
		s.ch <- struct{}{}
	}
}

// wait returns once the count reaches target: after a spin where one may pay
// (the type's comment), else asleep on ch (woken by the add that reaches it).
func (s *signal) wait(target int64) {
	if s.n.Load() >= target {
		return
	}
	if s.spin {
		if s.skip > 0 {
			s.skip--
		} else if s.spinUntil(target) {
			return
		}
	}
	s.want.Store(target)
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

// spinUntil spins at most spinFor for the count to reach target and reports
// whether it did. A spin fails if it times out or if its thread was kept from
// running in it (two looks at the clock more than spinGap apart: the cores are
// not free, and the partner shares them); spinFails failures in a row make the
// next nextSkip waits sleep at once (and double nextSkip, up to maxSkip), a
// spin that saw its count without a gap forgets them.
func (s *signal) spinUntil(target int64) bool {
	s.spins++
	start := time.Now()
	last := start
	reached, ran := false, true
	for i := 1; !reached; i++ {
		for range 128 {
			if s.n.Load() >= target {
				reached = true
				break
			}
		}
		now := time.Now()
		if now.Sub(last) > spinGap {
			ran = false
			reached = s.n.Load() >= target
			break
		}
		if now.Sub(start) > spinFor {
			break
		}
		last = now
		if i%16 == 0 {
			runtime.Gosched()
		}
	}
	if reached && ran {
		s.spinWins++
		s.fails, s.nextSkip = 0, spinFails
		return true
	}
	if s.fails++; s.fails >= spinFails {
		s.fails = 0
		s.skip = s.nextSkip
		s.nextSkip = min(2*s.nextSkip, maxSkip)
	}
	return reached
}

// barrier runs sections on a run's partitions (engine.section): wake[i] starts
// partition i+1's goroutine for round number round on work (nil: its end),
// done counts the parts the workers finished.
type barrier struct {
	work  func(*part)
	wake  []*signal
	done  *signal
	round int64
}

// newBarrier is the barrier of workers goroutines besides the caller's, whose
// waits spin only if all of them and the caller's can run at once.
func newBarrier(workers int) *barrier {
	spin := workers+1 <= runtime.GOMAXPROCS(0)
	b := &barrier{wake: make([]*signal, workers), done: newSignal(spin)}
	for i := range b.wake {
		b.wake[i] = newSignal(spin)
	}
	return b
}

// section runs f on every partition: the workers' at once with the caller's,
// which runs the first.
func (b *barrier) section(f func(*part), parts []*part) {
	b.start(f)
	f(parts[0])
	b.join()
}

// start wakes the workers for the next round, on f (nil: their end).
func (b *barrier) start(f func(*part)) {
	b.work = f
	b.round++
	for _, w := range b.wake {
		w.add()
	}
}

// join waits for the workers' parts of the round started last.
func (b *barrier) join() {
	b.done.wait(b.round * int64(len(b.wake)))
}

// serve is worker i's loop: partition p's part of each section until the end.
func (b *barrier) serve(i int, p *part) {
	w := b.wake[i]
	for round := int64(1); ; round++ {
		w.wait(round)
		f := b.work
		if f == nil {
			b.done.add()
			return
		}
		f(p)
		b.done.add()
	}
}

// stop ends the workers and waits for them to be done (their counts are read
// after).
func (b *barrier) stop() {
	b.start(nil)
	b.join()
}

// spinCounts is the spins the barrier's waiters tried and those that saw their
// count reached (after stop: each signal's counts are its waiter's).
func (b *barrier) spinCounts() (spins, wins int64) {
	for _, s := range append([]*signal{b.done}, b.wake...) {
		spins += s.spins
		wins += s.spinWins
	}
	return spins, wins
}
