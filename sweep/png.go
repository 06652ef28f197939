package sweep

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/draw"
	"image/png"

	"github.com/klauspost/compress/flate"
)

// A plot's PNG is drawn and compressed in horizontal bands, each by a task of its
// own, then joined. The PNG is the longest task of a sweep's write phase, which
// starts only when every run is done: drawn whole it took a third of the time two
// jobs take for the whole ring-complexity command. In two bands it is half that
// on two cores. Each band is always drawn the same way whatever the jobs, so the
// file's bytes depend only on the results.
const pngBands = 2

// bandMargin is how many rows beyond its edges a band is drawn, then dropped: the
// rasterizer marks the first row of an image with paths that cross its top edge,
// which a band drawn edge to edge would show at the seam.
const bandMargin = 4

// pngPart is a band of a PNG's rows, compressed: the deflate blocks of the rows
// filtered, ending byte-aligned (a sync flush) unless it is the last band, and the
// Adler-32 and length of what they hold, to make the zlib trailer.
type pngPart struct {
	img     *image.RGBA // the band's pixels
	deflate []byte
	adler   uint32
	n       int
}

// compressRows compresses the rows of img for a PNG in 8-bit RGB, each row with the
// Sub filter (each byte less the same byte of the pixel to its left, PNG
// specification 9.2, which turns a plot's runs of one colour into runs of zeros),
// at klauspost's fastest deflate level. image/png instead tries all five filters
// on every row and deflates with the standard library: 23–27 ms of CPU for a
// sweep's plot, 8–9 ms here, for a file 10 % bigger. img must be opaque.
func compressRows(img *image.RGBA, last bool) (pngPart, error) {
	part := pngPart{img: img}
	r := img.Bounds()
	var data bytes.Buffer
	z, err := flate.NewWriter(&data, flate.BestSpeed)
	if err != nil {
		return part, err
	}
	sum := adler32.New()
	line := make([]byte, 1+3*r.Dx())
	line[0] = 1 // the Sub filter
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := img.Pix[img.PixOffset(r.Min.X, y):][:4*r.Dx()]
		var left [3]byte // the pixel left of the first is taken as zero
		for i, j := 0, 1; i < len(src); i, j = i+4, j+3 {
			line[j], line[j+1], line[j+2] = src[i]-left[0], src[i+1]-left[1], src[i+2]-left[2]
			left = [3]byte{src[i], src[i+1], src[i+2]}
		}
		z.Write(line) // a bytes.Buffer does not fail
		sum.Write(line)
		part.n += len(line)
	}
	if last {
		err = z.Close()
	} else {
		err = z.Flush()
	}
	part.deflate, part.adler = data.Bytes(), sum.Sum32()
	return part, err
}

// joinPNG makes the PNG file of the bands, top to bottom. When one of them is not
// opaque (never, for a plot on its white page) the joined image goes to image/png.
func joinPNG(parts []pngPart) ([]byte, error) {
	w, h := parts[0].img.Bounds().Dx(), 0
	opaque := true
	for _, p := range parts {
		h += p.img.Bounds().Dy()
		opaque = opaque && p.img.Opaque()
	}
	if !opaque {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		y := 0
		for _, p := range parts {
			b := p.img.Bounds()
			draw.Draw(img, image.Rect(0, y, w, y+b.Dy()), p.img, b.Min, draw.Src)
			y += b.Dy()
		}
		var b bytes.Buffer
		err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, img)
		return b.Bytes(), err
	}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 8 // bits per sample
	ihdr[9] = 2 // colour type: truecolour, no alpha
	chunk(&out, "IHDR", ihdr[:])
	// The image data is one zlib stream: its header (deflate, 32 kB window, fastest
	// level), the bands' deflate blocks one after the other, and the Adler-32 of
	// all the filtered rows, combined from the bands'.
	z := []byte{0x78, 0x01}
	var a uint32 = 1
	for _, p := range parts {
		z = append(z, p.deflate...)
		a = adlerJoin(a, p.adler, p.n)
	}
	z = binary.BigEndian.AppendUint32(z, a)
	chunk(&out, "IDAT", z)
	chunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

// adlerJoin is the Adler-32 of two byte strings one after the other, from the sum
// of the first (a), the sum of the second (b) and its length n (as zlib's
// adler32_combine).
func adlerJoin(a, b uint32, n int) uint32 {
	const mod = 65521
	a1, b1 := uint64(a&0xffff), uint64(a>>16)
	a2, b2 := uint64(b&0xffff), uint64(b>>16)
	lo := (a1 + a2 + mod - 1) % mod
	hi := (b1 + b2 + uint64(n%mod)*((a1+mod-1)%mod)) % mod
	return uint32(hi<<16 | lo)
}

// chunk writes one PNG chunk: length, type, data, and the CRC of type and data.
func chunk(b *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	b.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	b.WriteString(typ)
	b.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	b.Write(n[:])
}
