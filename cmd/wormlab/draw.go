package main

import (
	"io"

	"github.com/wormlab/wormlab/draw"
)

func init() {
	register(&command{
		name:    "draw",
		summary: "draw a schedule as an SVG space-time diagram, violations in red",
		run:     runDraw,
	})
}

func runDraw(e *env) error {
	fs := newFlags(e, "draw", "INSTANCE SCHEDULE",
		"Writes an SVG space-time diagram of SCHEDULE for INSTANCE (\"-\" reads standard\n"+
			"input): one row per edge the messages use, time across, each worm's holdings\n"+
			"as bars in its colour, and the violations wormlab verify finds marked in red\n"+
			"and listed under the diagram. An illegal schedule is drawn too (exit status\n"+
			"0); wormlab verify gives the verdict.")
	out := fs.String("o", "", "write the SVG to `FILE` (default standard output)")
	title := fs.String("title", "", "title line (default: instance, model, makespan, verdict)")
	args, err := parseFlags(fs, e.args, 2, 2)
	if err != nil {
		return err
	}
	in, s, err := readPairFilled(e, args[0], args[1])
	if err != nil {
		return err
	}
	return writeOut(e, *out, func(w io.Writer) error {
		return draw.SVG(w, in, s, draw.Options{Title: *title})
	})
}
