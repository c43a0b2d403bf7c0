package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/lower/objective"
	"github.com/wormlab/wormlab/model"
)

// Check re-checks the entry e of the corpus dir from its files alone: the
// instance is valid and has the entry's measures; the certificate (when an
// objective's side is the optimum) passes certify.CheckContext in the entry's
// model and gives that side; the other side, measured again (the closed forms,
// lower bounds, greedy, the colorer), is the entry's; and the ratio is theirs.
func Check(ctx context.Context, dir string, e Entry) error {
	folder := filepath.Join(dir, e.Name)
	data, err := os.ReadFile(filepath.Join(folder, InstanceFile))
	if err != nil {
		return err
	}
	in, err := model.ParseInstance(data)
	if err != nil {
		return fmt.Errorf("%s: %v", e.Name, err)
	}
	ms := in.Measure()
	lmin := ms.LMax
	for i := range in.Messages {
		lmin = min(lmin, in.Messages[i].L)
	}
	got := [6]int{len(in.Messages), ms.C, ms.CL, ms.D, lmin, ms.LMax}
	want := [6]int{e.Worms, e.C, e.CL, e.D, e.LMin, e.LMax}
	if got != want {
		return fmt.Errorf("%s: worms, c, c_L, d, L range are %v, the index says %v", e.Name, got, want)
	}
	r, err := objective.Lookup(e.Objective, e.Model, 10*time.Second)
	if err != nil {
		return fmt.Errorf("%s: %v", e.Name, err)
	}
	side := func(m objective.Measure, num bool) (int, error) {
		if _, isOpt := m.(objective.Optimum); isOpt {
			rep, err := certify.CheckContext(ctx, folder)
			switch {
			case err != nil:
				return 0, err
			case !rep.Verified:
				return 0, fmt.Errorf("certificate: %s", rep.Failure)
			case rep.Model != e.Model:
				return 0, fmt.Errorf("certificate of the %s model, the entry's is %s", rep.Model, e.Model)
			}
			return rep.Makespan, nil
		}
		s, err := m.Measure(ctx, objective.NewMemo(in), num)
		if err != nil {
			return 0, err
		}
		if !s.Exact {
			return 0, fmt.Errorf("%s is not exact", s.How)
		}
		return s.V, nil
	}
	num, err := side(r.Num, true)
	if err != nil {
		return fmt.Errorf("%s: numerator: %v", e.Name, err)
	}
	den, err := side(r.Den, false)
	if err != nil {
		return fmt.Errorf("%s: denominator: %v", e.Name, err)
	}
	if num != e.Num.V || den != e.Den.V {
		return fmt.Errorf("%s: the ratio is %d / %d, the index says %d / %d", e.Name, num, den, e.Num.V, e.Den.V)
	}
	if ratio := float64(num) / float64(den); ratio != e.Ratio {
		return fmt.Errorf("%s: %d / %d is %v, the index says %v", e.Name, num, den, ratio, e.Ratio)
	}
	return nil
}

// CheckIndex reports whether dir/README.md holds the table the entries give.
func CheckIndex(dir string) error {
	es, err := Load(dir)
	if err != nil {
		return err
	}
	readme, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if err != nil {
		return err
	}
	if string(readme) != Splice(string(readme), Table(es)) {
		return fmt.Errorf("%s: the index table is not the entries' (wormlab adversary --corpus rewrites it)", filepath.Join(dir, IndexFile))
	}
	return nil
}
