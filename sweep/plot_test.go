package sweep

import (
	"bytes"
	"encoding/xml"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// svgText is one text of an SVG plot, where it is drawn.
type svgText struct {
	x, y    float64
	rotated bool
	s       string
}

// svgPath is one path of an SVG plot: its points and its style.
type svgPath struct{ d, style string }

// svgContents reads an SVG plot's texts and paths.
func svgContents(t *testing.T, data []byte) (texts []svgText, paths []svgPath) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	rotated := 0
	var cur *svgText
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG does not parse: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "g":
				if strings.HasPrefix(attr["transform"], "rotate(") {
					rotated++
				} else if rotated > 0 {
					rotated++ // nested inside a rotation
				}
			case "text":
				x, _ := strconv.ParseFloat(attr["x"], 64)
				y, _ := strconv.ParseFloat(attr["y"], 64)
				cur = &svgText{x: x, y: y, rotated: rotated > 0}
			case "path":
				paths = append(paths, svgPath{attr["d"], attr["style"]})
			}
		case xml.CharData:
			if cur != nil {
				cur.s += string(el)
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "text":
				texts = append(texts, *cur)
				cur = nil
			case "g":
				if rotated > 0 {
					rotated--
				}
			}
		}
	}
	return texts, paths
}

// checkPlot reads a plot's SVG as a reader would:
//   - the x ticks are the axis's own values, in order, on one line: sizes 4, 8, 16
//     (not 25, 75, 125), durations 10, 50, 200 in ms, names as written;
//   - the x label names a log₂ scale when the values double, and its unit;
//   - the y label names the metric's unit;
//   - the legend names every series (and the theory when drawn), each in a
//     colour of its own: at most 8 to a panel, panels side by side beyond.
func checkPlot(t *testing.T, f figure, data []byte) {
	t.Helper()
	texts, paths := svgContents(t, data)
	strokes := map[string]int{}
	stroke := regexp.MustCompile(`stroke:(#[0-9A-Fa-f]{6})`)
	for _, p := range paths {
		if m := stroke.FindStringSubmatch(p.style); m != nil {
			strokes[strings.ToUpper(m[1])]++
		}
	}
	has := func(s string) []svgText {
		var out []svgText
		for _, x := range texts {
			if x.s == s {
				out = append(out, x)
			}
		}
		return out
	}
	a := f.axis()
	ps := f.panels()
	// Each panel has the axis's ticks, on one line, left to right.
	var want []string
	switch {
	case a.scale == xNominal:
		for _, x := range f.xs {
			want = append(want, Format(x))
		}
	default:
		for _, p := range a.pos {
			want = append(want, strconv.FormatFloat(p, 'g', -1, 64))
		}
	}
	var row []svgText
	for _, tick := range want {
		found := has(tick)
		if len(found) < len(ps) {
			t.Errorf("%s: the tick %q is drawn %d times, want once per panel (%d)", f.file, tick, len(found), len(ps))
			return
		}
		row = append(row, found[0])
	}
	for i := 1; i < len(row); i++ {
		if row[i].y != row[0].y || row[i].x <= row[i-1].x {
			t.Errorf("%s: the x ticks %v are not one line, left to right", f.file, want)
		}
	}
	numeric := slices.IndexFunc(f.xs, func(x any) bool { _, ok := x.(string); return ok }) < 0
	if numeric {
		for _, x := range f.xs {
			if len(has(Format(x))) == 0 {
				t.Errorf("%s: no tick for the size %s", f.file, Format(x))
			}
		}
	}
	xl, yl := a.label, f.yLabel()
	if len(has(xl)) != len(ps) || len(has(yl)) != len(ps) {
		t.Errorf("%s: want the labels %q and %q on each of %d panels", f.file, xl, yl, len(ps))
	}
	if doubles(a.pos) != strings.Contains(xl, "log₂ scale") {
		t.Errorf("%s: x label %q for the values %v", f.file, xl, want)
	}
	if u := unitOf(f.Y); u == "" || !strings.Contains(yl, "("+u+")") {
		t.Errorf("%s: y label %q, want the unit of %s", f.file, yl, f.Y)
	}
	// The legend: every series of the first panel, in colours of their own.
	for _, l := range ps[0].lines {
		if len(has(l.name)) != 1 {
			t.Errorf("%s: the legend does not name %q once", f.file, l.name)
		}
	}
	if f.Theory != (len(has("theory (dashed)")) == 1) {
		t.Errorf("%s: theory %v, but the legend says otherwise", f.file, f.Theory)
	}
	for _, p := range ps {
		if len(p.lines) > maxSeries {
			t.Errorf("%s: a panel of %d series, want at most %d", f.file, len(p.lines), maxSeries)
		}
	}
	for i := range ps[0].lines {
		c := palette[i]
		hex := strings.ToUpper("#" + strconv.FormatUint(uint64(c.R)<<16|uint64(c.G)<<8|uint64(c.B), 16))
		for len(hex) < 7 {
			hex = "#0" + hex[1:]
		}
		if strokes[hex] == 0 {
			t.Errorf("%s: series %d's colour %s is not drawn", f.file, i, hex)
		}
	}
}
