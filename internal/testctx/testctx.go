// Package testctx bounds the simulations and searches of a package's tests, so
// that a broken simulator or a search that never ends fails the tests instead of
// hanging the suite (issue 26: a delivery not counted or a hop count not
// incremented hung it for five minutes; several tests stuck at two minutes each
// passed the package's timeout). Only tests import it.
//
// A test binary runs one package's tests, so the suite's end, fixed when the
// binary starts, bounds all of that package's tests together.
package testctx

import (
	"context"
	"os"
	"time"
)

// PerTest bounds one test's context.
const PerTest = 2 * time.Minute

// suiteEnd bounds every test of the package together: six minutes (sim's tests
// take 100-160 s at load 20 on two cores), an hour with WORMLAB_LONG=1, when the
// gated tests run too (sim's TestBookSimAgreement alone runs 48 simulations of up
// to 60,000 cycles beside BookSim2, past six minutes at load 15).
var suiteEnd = time.Now().Add(Budget())

// Budget is the time all of a package's tests share.
func Budget() time.Duration {
	if os.Getenv("WORMLAB_LONG") == "1" {
		return time.Hour
	}
	return 6 * time.Minute
}

// For is a test's context: it ends PerTest from now, or at the suite's end if that
// comes first, and is cancelled when the test ends.
func For(t interface{ Cleanup(func()) }) context.Context {
	end := time.Now().Add(PerTest)
	if end.After(suiteEnd) {
		end = suiteEnd
	}
	ctx, cancel := context.WithDeadline(context.Background(), end)
	t.Cleanup(cancel)
	return ctx
}
