package adversary

// fewest ranks fewer worms first (the plateau walk drifts to the smallest set that
// keeps the ratio, which frees the capacity a move that raises it needs), then
// more pairs of worms that meet, then fewer meetings spent twice (sum over edges of
// C(c_e, 2): a pair that meets on two edges uses up an edge another worm could
// have met it on). On the levelled networks of seed 002, section 5, from random
// starts of two worms, it took the hill climber at p = 3 to 8 worms that pairwise
// meet at congestion 2 (opt/cd 62/14), where ranking by meetings alone filled the
// network with worms and stalled below the construction.
type fewest struct{}

func init() { registerRanking(fewest{}) }

func (fewest) Name() string { return "fewest" }

func (fewest) Rank(sp *Space, s *Set) Guide {
	pairs, spent := meetings(sp, s)
	return Guide{[3]int{-len(s.Worms), pairs, -spent}}
}
