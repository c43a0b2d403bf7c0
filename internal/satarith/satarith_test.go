package satarith

import "testing"

func TestSaturates(t *testing.T) {
	cases := []struct{ got, want int64 }{
		{Mul(3, 4), 12},
		{Mul(0, 5), 0},
		{Mul(-1, 5), 0},
		{Mul(1<<40, 1<<40), Max},
		{Mul(Max, 1), Max},
		{Add(1, 2, 3), 6},
		{Add(), 0},
		{Add(Max, 1), Max},
		{Add(Max-1, 1), Max},
		{Add(1<<62, 1<<62, -5), Max},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %d, want %d", i, c.got, c.want)
		}
	}
}
