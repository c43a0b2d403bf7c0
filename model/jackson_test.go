package model

import (
	"testing"

	"pgregory.net/rapid"
)

// Jackson's rule gives the optimum of the preemptive one-machine problem whichever
// released job of the largest tail it serves (bounds.go, solve), so its bucket
// form (runBuckets, the jobs of equal tail served last-released first) and its
// heap form (runHeap) give the same value on any jobs, tails spread over a span
// the buckets take or not.
func TestJacksonBucketsMatchHeap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 60).Draw(t, "jobs")
		span := rapid.SampledFrom([]int{1, 3, 70, maxBuckets}).Draw(t, "span")
		lo := rapid.IntRange(-5, 5).Draw(t, "lo")
		jobs := make([]jacksonJob, n)
		for i := range jobs {
			jobs[i] = jacksonJob{
				r:   rapid.IntRange(1, 30).Draw(t, "r"),
				rem: rapid.IntRange(1, 6).Draw(t, "p"),
				q:   lo + rapid.IntRange(0, span-1).Draw(t, "q"),
			}
		}
		var jb jackson
		jb.sortByRelease(jobs)
		heap := append([]jacksonJob(nil), jobs...)
		want := jb.runHeap(heap)
		if got := jb.runBuckets(jobs, lo, span); got != want {
			t.Fatalf("buckets %d, heap %d", got, want)
		}
	})
}
