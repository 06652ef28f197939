package sweep

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// TestEncodePNG: what encodePNG writes decodes (with image/png) to the very pixels
// it was given: a plot as drawn for a sweep, random opaque noise in a sub-image
// (rows that do not start at the buffer's start), and an image with transparent
// pixels (which goes to image/png).
func TestEncodePNG(t *testing.T) {
	p := plan(t, "ring-complexity", 1, 2, Shard{})
	pl, err := p.figures(p.Execute(0, nil))[0].draw()
	if err != nil {
		t.Fatal(err)
	}
	c := vgimg.New(18*vg.Centimeter, 14*vg.Centimeter)
	pl.Draw(draw.New(c))

	rng := rand.New(rand.NewPCG(1, 2))
	noise := image.NewRGBA(image.Rect(0, 0, 61, 40))
	for i := range noise.Pix {
		noise.Pix[i] = byte(rng.Uint32())
		if i%4 == 3 {
			noise.Pix[i] = 0xff
		}
	}
	clear := image.NewRGBA(image.Rect(0, 0, 9, 7)) // transparent but for one pixel
	clear.Set(3, 3, color.RGBA{10, 20, 30, 255})

	for name, img := range map[string]image.Image{
		"plot":      c.Image(),
		"sub-image": noise.SubImage(image.Rect(5, 7, 50, 33)),
		"alpha":     clear,
	} {
		data, err := encodePNG(img)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: the PNG does not decode: %v", name, err)
		}
		if back.Bounds().Size() != img.Bounds().Size() {
			t.Fatalf("%s: decoded %v, want the size of %v", name, back.Bounds(), img.Bounds())
		}
		b, o := img.Bounds(), back.Bounds().Min
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r1, g1, b1, a1 := img.At(x, y).RGBA()
				r2, g2, b2, a2 := back.At(x-b.Min.X+o.X, y-b.Min.Y+o.Y).RGBA()
				if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
					t.Fatalf("%s: pixel (%d,%d) decodes to %v, want %v", name, x, y, back.At(x-b.Min.X+o.X, y-b.Min.Y+o.Y), img.At(x, y))
				}
			}
		}
	}
	if _, err := encodePNG(image.NewRGBA(image.Rectangle{})); err == nil {
		t.Error("an empty image was encoded, want an error")
	}
}
