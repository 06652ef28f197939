package sweep

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// samePixels fails unless got shows want's pixels.
func samePixels(t *testing.T, name string, got, want image.Image) {
	t.Helper()
	if got.Bounds().Size() != want.Bounds().Size() {
		t.Fatalf("%s: %v, want the size of %v", name, got.Bounds(), want.Bounds())
	}
	g, w := got.Bounds().Min, want.Bounds().Min
	for y := range want.Bounds().Dy() {
		for x := range want.Bounds().Dx() {
			r1, g1, b1, a1 := got.At(g.X+x, g.Y+y).RGBA()
			r2, g2, b2, a2 := want.At(w.X+x, w.Y+y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("%s: pixel (%d,%d) is %v, want %v", name, x, y, got.At(g.X+x, g.Y+y), want.At(w.X+x, w.Y+y))
			}
		}
	}
}

func decodePNG(t *testing.T, name string, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data)) // it checks the CRCs and the Adler-32
	if err != nil {
		t.Fatalf("%s: the PNG does not decode: %v", name, err)
	}
	return img
}

// TestPNGBands: the PNG a sweep writes, drawn in bands, decodes (with image/png) to
// the picture drawn on one canvas: no seam, nothing lost between the bands.
func TestPNGBands(t *testing.T) {
	dir := t.TempDir()
	p := plan(t, "ring-complexity", 1, 3, Shard{})
	writeDir(t, p, dir, 2)
	f := p.figures(summarize(p, runAll(p, 0)).cells)[0]
	_, hpx := f.pngSize()
	whole, err := f.pngRows(0, hpx)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, f.file+".png"))
	if err != nil {
		t.Fatal(err)
	}
	samePixels(t, f.file+".png", decodePNG(t, f.file+".png", data), whole.img)
	// And the picture is a plot: some pixels are neither white nor grey.
	coloured := 0
	for i := 0; i < len(whole.img.Pix); i += 4 {
		if px := whole.img.Pix[i:]; px[0] != px[1] || px[1] != px[2] {
			coloured++
		}
	}
	if coloured < 1000 {
		t.Errorf("found %d coloured pixels in the plot, want its series in colour", coloured)
	}
}

// TestPNGEncoding: rows compressed in parts and joined decode to the image they
// came from: random opaque noise in three parts of a sub-image (rows that do not
// start at the buffer's start), and an image with transparent pixels, which goes to
// image/png.
func TestPNGEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := image.NewRGBA(image.Rect(0, 0, 61, 40))
	for i := range noise.Pix {
		noise.Pix[i] = byte(rng.Uint32())
		if i%4 == 3 {
			noise.Pix[i] = 0xff
		}
	}
	sub := noise.SubImage(image.Rect(5, 7, 50, 33)).(*image.RGBA)
	var parts []pngPart
	for _, rows := range [][2]int{{7, 8}, {8, 20}, {20, 33}} {
		part, err := compressRows(sub.SubImage(image.Rect(5, rows[0], 50, rows[1])).(*image.RGBA), rows[1] == 33)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, part)
	}
	data, err := joinPNG(parts)
	if err != nil {
		t.Fatal(err)
	}
	samePixels(t, "noise", decodePNG(t, "noise", data), sub)

	clear := image.NewRGBA(image.Rect(0, 0, 9, 7)) // transparent but for one pixel
	clear.Set(3, 3, color.RGBA{10, 20, 30, 255})
	data, err = joinPNG([]pngPart{{img: clear}})
	if err != nil {
		t.Fatal(err)
	}
	samePixels(t, "transparent", decodePNG(t, "transparent", data), clear)
}

func TestAdlerJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {100, 70000}, {200000, 65521}, {65522, 131043}} {
		a, b := make([]byte, n[0]), make([]byte, n[1])
		for i := range a {
			a[i] = byte(rng.Uint32())
		}
		for i := range b {
			b[i] = 0xff // the largest sums
		}
		got := adlerJoin(adler32.Checksum(a), adler32.Checksum(b), len(b))
		if want := adler32.Checksum(append(a, b...)); got != want {
			t.Errorf("adlerJoin of %d and %d bytes = %08x, want %08x", n[0], n[1], got, want)
		}
	}
}

// TestPNGWidth: a plot's PNG is at least 1,600 pixels wide by default, for a
// report or a slide, and --dpi sets its resolution.
func TestPNGWidth(t *testing.T) {
	p := plan(t, "ring-complexity", 1, 3, Shard{})
	results := runAll(p, 0)
	for _, c := range []struct {
		dpi      int
		min, max int
	}{{0, 1600, 2400}, {96, 600, 900}, {600, 4000, 6000}} {
		p.DPI = c.dpi
		f := p.figures(summarize(p, results).cells)[0]
		part, err := f.pngRows(0, 1)
		if err != nil {
			t.Fatal(err)
		}
		w, h := f.pngSize()
		if got := part.img.Bounds().Dx(); got != w || w < c.min || w > c.max || h < w/3 {
			t.Errorf("--dpi %d: %d×%d pixels (a band %d wide), want %d to %d wide", c.dpi, w, h, got, c.min, c.max)
		}
	}
}
