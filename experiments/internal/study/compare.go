package study

// Side is where one estimate's interval stands to another's: the studies decide a
// comparison of two means by their intervals, never by the means alone.
type Side int

const (
	Level  Side = iota // the intervals overlap: the runs do not separate the two
	Higher             // wholly above
	Lower              // wholly below
)

// Compare is where a's interval stands to b's (Above: the ends compared strictly,
// so intervals that touch are Level).
func Compare(a, b Est) Side {
	switch {
	case Above(a, b):
		return Higher
	case Above(b, a):
		return Lower
	}
	return Level
}

// Outcome is a claim read from intervals: it holds, it fails, or the intervals
// overlap and the runs cannot say (Inconclusive, a study's "level").
type Outcome int

const (
	Inconclusive Outcome = iota
	Holds
	Fails
)

// Judge is the outcome of the claim "a stands to b on side want" (Higher or
// Lower): Holds when the intervals separate that way, Fails when they separate
// the other way, Inconclusive when they overlap.
func Judge(a, b Est, want Side) Outcome {
	switch Compare(a, b) {
	case Level:
		return Inconclusive
	case want:
		return Holds
	}
	return Fails
}

// Within is the outcome of the claim "a lies between lo and hi", each end an exact
// value compared as Compare compares: Holds when a's interval is above lo and
// below hi, Fails when it is wholly below lo or wholly above hi, Inconclusive when
// it holds or touches an end.
func Within(a Est, lo, hi float64) Outcome {
	switch l, h := Compare(a, Est{Mean: lo, N: 1}), Compare(a, Est{Mean: hi, N: 1}); {
	case l == Higher && h == Lower:
		return Holds
	case l == Lower || h == Higher:
		return Fails
	}
	return Inconclusive
}

// Most is the outcome of the claim "most of the cases hold" when yes cases hold,
// level cannot be told (their intervals overlap) and the others fail, of n in
// all: Holds when yes is a majority whatever the level ones are, Fails when yes
// is none even with every level one counted for it, Inconclusive otherwise (the
// level cases decide).
func Most(yes, level, n int) Outcome {
	switch {
	case 2*yes > n:
		return Holds
	case 2*(yes+level) <= n:
		return Fails
	}
	return Inconclusive
}

// Every is the outcome of the claim "every case holds" when yes cases hold,
// no cases fail and the others are level, of n in all: Holds when all hold,
// Fails when one fails, Inconclusive otherwise.
func Every(yes, no, n int) Outcome {
	switch {
	case no > 0:
		return Fails
	case yes == n:
		return Holds
	}
	return Inconclusive
}
