// Command pngcheck asserts that a screenshot is not blank: that it decodes, that at
// least -min of its pixels differ from its most common colour (the background), and
// that it holds at least -colours distinct saturated colours (the series' lines).
// .ci/chromium-check runs it on headless Chromium's screenshot of a wormlab plot.
// Usage: go run ./.ci/pngcheck [-min 0.01] [-colours 2] FILE.png
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"os"
)

func main() {
	minShare := flag.Float64("min", 0.01, "least share of pixels that are not background")
	colours := flag.Int("colours", 2, "least number of distinct saturated colours")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: pngcheck [-min F] [-colours N] FILE.png")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "pngcheck:", err)
		os.Exit(2)
	}
	img, _, err := image.Decode(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pngcheck:", flag.Arg(0), err)
		os.Exit(1)
	}
	b := img.Bounds()
	count := map[color.RGBA]int{}
	saturated := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}
			count[c]++
			hi := max(c.R, c.G, c.B)
			lo := min(c.R, c.G, c.B)
			if int(hi)-int(lo) > 80 {
				// Bucket the hue coarsely so anti-aliased edges count as one colour.
				saturated[color.RGBA{c.R >> 6, c.G >> 6, c.B >> 6, 0}]++
			}
		}
	}
	var bg color.RGBA
	for c, n := range count {
		if n > count[bg] {
			bg = c
		}
	}
	total := b.Dx() * b.Dy()
	share := 1 - float64(count[bg])/float64(total)
	distinct := 0
	for _, n := range saturated {
		if n >= 20 {
			distinct++
		}
	}
	fmt.Printf("pngcheck: %s: %dx%d, background %v, %.2f%% other pixels, %d saturated colours\n",
		flag.Arg(0), b.Dx(), b.Dy(), bg, 100*share, distinct)
	if share < *minShare {
		fmt.Fprintf(os.Stderr, "pngcheck: blank: %.3f%% of pixels differ from the background (want >= %.3f%%)\n", 100*share, 100**minShare)
		os.Exit(1)
	}
	if distinct < *colours {
		fmt.Fprintf(os.Stderr, "pngcheck: %d saturated colours (want >= %d): the series are not drawn\n", distinct, *colours)
		os.Exit(1)
	}
}
