package main

import (
	"fmt"
	"io"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

func init() {
	register(&command{
		name:    "verify",
		summary: "check a schedule against an instance (legality of MODEL.md)",
		run:     runVerify,
	})
}

// verifyReport is the --json output of wormlab verify.
type verifyReport struct {
	Legal      bool               `json:"legal"`
	Model      string             `json:"model"`
	Makespan   int                `json:"makespan"`
	Messages   int                `json:"messages"`
	Violations []verify.Violation `json:"violations"`
	// MoreConflicts counts the conflicts --all found beyond the first
	// verifyListed, which it does not list.
	MoreConflicts int `json:"more_conflicts,omitempty"`
}

// verifyListed is the most conflicts verify --all lists (draw marks as many):
// n worms crossing one edge at once conflict n^2 / 2 times.
const verifyListed = 1000

func runVerify(e *env) error {
	fs := newFlags(e, "verify", "INSTANCE SCHEDULE",
		"Checks that SCHEDULE is legal for INSTANCE as MODEL.md defines it (\"-\" reads\n"+
			"standard input): every message once with one positive, increasing crossing\n"+
			"time per edge, start = t_1 - 1, no waiting in a bufferless schedule, no edge\n"+
			"held by two worms at once, the right makespan, and lower_bound and optimal\n"+
			"consistent with it.\n\n"+
			"Exit status 0 and a summary line if legal; 1 and the first violation (all\n"+
			"with --all) if not, including a schedule for a different instance (unknown\n"+
			"or missing messages); 2 if a file cannot be read or parsed.")
	all := fs.Bool("all", false, "list every violation, not only the first")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	args, err := parseFlags(fs, e.args, 2, 2)
	if err != nil {
		return err
	}
	in, s, err := readPairFilled(e, args[0], args[1])
	if err != nil {
		return err
	}
	var vs []verify.Violation
	more := 0
	if *all {
		vs, more = verify.AllLimit(in, s, verifyListed)
	} else if err := verify.Schedule(in, s); err != nil {
		ve, ok := err.(*verify.Error)
		if !ok {
			return err
		}
		vs = []verify.Violation{ve.Violation}
	}
	if *asJSON {
		r := verifyReport{Legal: len(vs) == 0, Model: s.Model, Makespan: s.Makespan,
			Messages: len(in.Messages), Violations: vs, MoreConflicts: more}
		if r.Violations == nil {
			r.Violations = []verify.Violation{}
		}
		if err := writeJSON(e.stdout, r); err != nil {
			return err
		}
	} else {
		writeVerdict(e.stdout, in, s, vs, more, *all)
	}
	if len(vs) > 0 {
		if len(vs)+more > 1 {
			return negative("illegal %s schedule: %v (and %d more)", s.Model, vs[0], len(vs)+more-1)
		}
		return negative("illegal %s schedule: %v", s.Model, vs[0])
	}
	return nil
}

// writeVerdict prints the one-line summary of a legal schedule, or the violations.
// more conflicts found are not in vs (verifyListed).
func writeVerdict(w io.Writer, in *model.Instance, s *model.Schedule, vs []verify.Violation, more int, all bool) {
	switch {
	case len(vs) == 0:
		noun := "messages"
		if len(in.Messages) == 1 {
			noun = "message"
		}
		fmt.Fprintf(w, "legal %s schedule: makespan %d, %d %s\n", s.Model, s.Makespan, len(in.Messages), noun)
	case !all:
		fmt.Fprintf(w, "illegal %s schedule: %v\n", s.Model, vs[0])
	default:
		plural := "s"
		if len(vs)+more == 1 {
			plural = ""
		}
		fmt.Fprintf(w, "illegal %s schedule: %d violation%s\n", s.Model, len(vs)+more, plural)
		for _, v := range vs {
			fmt.Fprintf(w, "  %v\n", v)
		}
		if more > 0 {
			fmt.Fprintf(w, "  ... and %d more conflicts, not listed (the first %d are)\n", more, verifyListed)
		}
	}
}
