package lower

import "sort"

func sortInts(a []int) { sort.Ints(a) }
