// Package plural is the one count-and-noun of wormlab's reports ("1 message",
// "3 edges", "2 classes"): the bounds' details (lower), stats' text report
// (measure) and the commands' lines (cmd/wormlab). Package model, which imports
// nothing of wormlab's, keeps its own for the model's bounds.
package plural

import (
	"fmt"
	"strings"
)

// Count is "1 what" or "n whats" ("es" after an s: "2 classes").
func Count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
