package adversary

// densest ranks more pairs of worms that meet first, then more worms, then fewer
// meetings spent twice: the plateau walk drifts to dense path graphs, where
// schedules are hard to find and lower bounds hard to prove (the ratios that are 1
// on most candidates, opt/lower and greedy/opt, have their gaps there).
type densest struct{}

func init() { registerRanking(densest{}) }

func (densest) Name() string { return "densest" }

func (densest) Rank(sp *Space, s *Set) Guide {
	pairs, spent := meetings(sp, s)
	return Guide{[3]int{pairs, len(s.Worms), -spent}}
}
