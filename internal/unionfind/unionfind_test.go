package unionfind

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Property: after any sequence of unions, two elements share a representative iff
// they are connected by the unions made (checked against a naive labelling), and
// Size is the size of that class; Union reports whether it joined two classes.
func TestAgreesWithLabels(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 30).Draw(t, "n")
		s := New(n)
		label := make([]int, n)
		for i := range label {
			label[i] = i
		}
		for k := rapid.IntRange(0, 40).Draw(t, "unions"); k > 0; k-- {
			a, b := rapid.IntRange(0, n-1).Draw(t, "a"), rapid.IntRange(0, n-1).Draw(t, "b")
			apart := label[a] != label[b]
			require.Equal(t, apart, s.Union(a, b))
			if apart {
				old := label[b]
				for i := range label {
					if label[i] == old {
						label[i] = label[a]
					}
				}
			}
		}
		for i := 0; i < n; i++ {
			size := 0
			for j := 0; j < n; j++ {
				require.Equal(t, label[i] == label[j], s.Find(i) == s.Find(j))
				if label[i] == label[j] {
					size++
				}
			}
			require.Equal(t, size, s.Size(i))
		}
	})
}
