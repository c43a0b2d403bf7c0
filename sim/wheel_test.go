package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWheelClassesKeepOrder: events put on a wheel of several delay classes
// (more delays than maxClasses, so that the last class holds several) and taken
// class by class from the longest delay come out of each (cycle, word) in the
// order they were put, as from one bucket, and each bucket's array reused on a
// take leaves every event where it was put. Fails with the classes taken from
// the shortest delay first, or with a class's array moved to a bucket its own
// delay reaches in the cycle taken.
func TestWheelClassesKeepOrder(t *testing.T) {
	delays := []int{1, 2, 3, 12, 40, 102}
	const words, n, cycles = 3, 128, 600
	w := newWheel[int32](n, words, delays)
	require.Equal(t, int32(maxClasses), w.classes)
	want := map[[2]int64][]int32{} // (cycle, word) -> events in the order put
	rng := rand.New(rand.NewPCG(1, 2))
	seq := int32(0)
	for t0 := int64(0); t0 < cycles; t0++ {
		// the events due this cycle, every word, class by class, read after
		// the cycle's puts (a taken slice stays valid for its cycle)
		taken := make([][][]int32, words)
		for word := range words {
			for c := range int(w.classes) {
				taken[word] = append(taken[word], w.take(t0, word, c))
			}
		}
		// the events put this cycle, of any delay, to any word
		w.setAt(t0)
		for range rng.IntN(20) {
			d := delays[rng.IntN(len(delays))]
			word := int32(rng.IntN(words))
			w.put(int32(d), w.col(word, int32(d)), seq)
			k := [2]int64{t0 + int64(d), int64(word)}
			want[k] = append(want[k], seq)
			seq++
		}
		for word := range words {
			var got []int32
			for _, evs := range taken[word] {
				got = append(got, evs...)
			}
			require.Equal(t, want[[2]int64{t0, int64(word)}], got, "cycle %d word %d", t0, word)
			delete(want, [2]int64{t0, int64(word)})
		}
	}
	require.Positive(t, seq)
}
