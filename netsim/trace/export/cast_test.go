package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hinshun/vt10x"

	"github.com/clusterlab/clusterlab/netsim/trace"
)

// castEvent is one parsed event line of an asciicast.
type castEvent struct {
	t    float64
	code string
	data string
}

// parseCast checks asciicast v2: a header object with version 2, width and height,
// then [time, "o"|"m", data] lines with nondecreasing times, and output that uses
// \r\n line ends only.
func parseCast(t *testing.T, cast string) (w, h int, evs []castEvent) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(cast))
	sc.Buffer(nil, 16<<20)
	if !sc.Scan() {
		t.Fatal("empty cast")
	}
	var hdr map[string]any
	if err := json.Unmarshal(sc.Bytes(), &hdr); err != nil {
		t.Fatalf("header %q: %v", sc.Text(), err)
	}
	if hdr["version"] != 2.0 {
		t.Fatalf("header version %v, want 2", hdr["version"])
	}
	wf, ok1 := hdr["width"].(float64)
	hf, ok2 := hdr["height"].(float64)
	if !ok1 || !ok2 || wf < 1 || hf < 1 || wf != math.Trunc(wf) || hf != math.Trunc(hf) {
		t.Fatalf("header width %v height %v, want positive integers", hdr["width"], hdr["height"])
	}
	last := 0.0
	for n := 2; sc.Scan(); n++ {
		var raw []json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil || len(raw) != 3 {
			t.Fatalf("line %d: %.80q is not [time, code, data]", n, sc.Text())
		}
		var ev castEvent
		if err := json.Unmarshal(raw[0], &ev.t); err != nil {
			t.Fatalf("line %d: time %s: %v", n, raw[0], err)
		}
		if err := json.Unmarshal(raw[1], &ev.code); err != nil || (ev.code != "o" && ev.code != "m") {
			t.Fatalf("line %d: code %s, want \"o\" or \"m\"", n, raw[1])
		}
		if err := json.Unmarshal(raw[2], &ev.data); err != nil {
			t.Fatalf("line %d: data: %v", n, err)
		}
		if ev.t < last {
			t.Fatalf("line %d: time %v before %v", n, ev.t, last)
		}
		last = ev.t
		if ev.code == "o" && strings.Contains(strings.ReplaceAll(ev.data, "\r\n", ""), "\n") {
			t.Fatalf("line %d: a bare \\n in the output, want \\r\\n", n)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return int(wf), int(hf), evs
}

// screen replays the output events through a terminal emulator and returns its
// screen, trailing spaces trimmed.
func screen(w, h int, evs []castEvent) []string {
	term := vt10x.New(vt10x.WithSize(w, h))
	for _, ev := range evs {
		if ev.code == "o" {
			term.Write([]byte(ev.data))
		}
	}
	term.Lock()
	defer term.Unlock()
	lines := make([]string, h)
	for y := 0; y < h; y++ {
		var b strings.Builder
		for x := 0; x < w; x++ {
			b.WriteRune(term.Cell(x, y).Char)
		}
		lines[y] = strings.TrimRight(b.String(), " \x00")
	}
	return lines
}

// finalSnapshot folds the window's events as the cast does and stamps the window's
// end, which is what the last frame shows.
func finalSnapshot(tr *trace.Trace, from, to int64) *trace.Snapshot {
	st := trace.NewState(tr.Header)
	end := max(from, tr.Events[len(tr.Events)-1].T)
	if to != math.MaxInt64 {
		end = to
	}
	for i := range tr.Events {
		if tr.Events[i].T > end {
			break
		}
		st.Apply(&tr.Events[i])
	}
	s := st.Snapshot()
	s.T = end
	return s
}

func wantScreen(render RenderFunc, s *trace.Snapshot, w, h int) []string {
	lines := strings.Split(render(s, w, h), "\n")
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = strings.TrimRight(lines[i], " ")
		}
	}
	return out
}

// TestCastReplaysToFinalScreen checks the asciicast format of several traces and
// replays each through a terminal emulator (vt10x): the screen must be the
// dashboard of the final state.
func TestCastReplaysToFinalScreen(t *testing.T) {
	for _, c := range []struct {
		trace string
		flags Flags
	}{
		{"omega-crash", Flags{Format: "cast"}},
		{faultsFile, Flags{Format: "cast", Size: "100x30", FPS: 25}},
		{"quorum-amnesia", Flags{Format: "cast", Idle: "0"}},
		{"maekawa-deadlock", Flags{Format: "cast", From: "1s", To: "2500ms"}},
	} {
		t.Run(c.trace, func(t *testing.T) {
			tr := record(t, c.trace)
			o, err := ParseOptions(&tr.Header, c.flags)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Write(&b, TraceSource(tr), o); err != nil {
				t.Fatal(err)
			}
			w, h, evs := parseCast(t, b.String())
			if w != o.Cast.Width || h != o.Cast.Height {
				t.Fatalf("header %dx%d, want %dx%d", w, h, o.Cast.Width, o.Cast.Height)
			}
			got := screen(w, h, evs)
			want := wantScreen(TextDashboard, finalSnapshot(tr, o.Window.From, o.Window.To), w, h)
			for y := range want {
				if got[y] != want[y] {
					t.Fatalf("screen line %d after replay:\n got  %q\n want %q", y+1, got[y], want[y])
				}
			}
			// Frames come at most every 1/fps s and pauses are cut to --idle.
			step := 1 / float64(o.Cast.FPS)
			last := -1.0
			for _, ev := range evs {
				if ev.code != "o" {
					continue
				}
				if last >= 0 {
					gap := ev.t - last
					if gap < step-1e-6 && gap > 1e-9 {
						t.Fatalf("frames %.6f and %.6f closer than 1/fps", last, ev.t)
					}
					if idle := o.Cast.Idle.Seconds(); idle > 0 && gap > idle+1e-6 {
						t.Fatalf("pause of %.6fs kept, want at most %v", gap, o.Cast.Idle)
					}
				}
				last = ev.t
			}
		})
	}
}

// TestCastMarkers checks that faults, leader changes, alerts and the scenario's
// markers become "m" events.
func TestCastMarkers(t *testing.T) {
	_, _, evs := parseCast(t, export(t, record(t, faultsFile), Flags{Format: "cast"}))
	var marks []string
	for _, ev := range evs {
		if ev.code == "m" {
			marks = append(marks, ev.data)
		}
	}
	all := strings.Join(marks, "\n")
	for _, want := range []string{"partition n1 n2 | n3 n4", "heal", "GST", "slow n4 ×3", "crash n1", "isolate n2",
		"recover n1 (incarnation 2)", "leader n1 (n1 n2 n3 n4)", "alert split-brain: ", "marker: phase 2; watch # of leaders until the end"} {
		if !strings.Contains(all, want) {
			t.Errorf("no marker %q in\n%s", want, all)
		}
	}
}

// TestCastIdleCompression: the maekawa-deadlock preset is quiet for seconds; with
// --idle 1s no pause is longer than a second, and with --idle 0 the cast lasts as
// long as the run.
func TestCastIdleCompression(t *testing.T) {
	tr := record(t, "maekawa-deadlock")
	end := float64(tr.Events[len(tr.Events)-1].T) / 1e6
	_, _, cut := parseCast(t, export(t, tr, Flags{Format: "cast"}))
	_, _, kept := parseCast(t, export(t, tr, Flags{Format: "cast", Idle: "0"}))
	if d := kept[len(kept)-1].t; math.Abs(d-end) > 1e-6 {
		t.Errorf("with --idle 0 the cast lasts %vs, want %vs", d, end)
	}
	if cut[len(cut)-1].t >= kept[len(kept)-1].t {
		t.Errorf("--idle 1s did not shorten the cast: %v vs %v", cut[len(cut)-1].t, kept[len(kept)-1].t)
	}
}

// TestCastCustomRenderer: the cast draws whatever the renderer gives, cut to the
// width, and the last frame is the final snapshot at the end time.
func TestCastCustomRenderer(t *testing.T) {
	tr := record(t, "omega-crash")
	render := func(s *trace.Snapshot, w, h int) string {
		var lines []string
		lines = append(lines, fmt.Sprintf("\x1b[1mt=%s\x1b[0m leaders %v", fmtT(s.T), s.Leaders()))
		for _, n := range s.Nodes {
			lines = append(lines, fmt.Sprintf("%v up=%v leader=%v %s", n.ID, n.Up, n.Status.Leader, strings.Repeat("x", 100)))
		}
		return strings.Join(lines, "\n")
	}
	var b bytes.Buffer
	if err := Cast(&b, TraceSource(tr), All(), CastOptions{Width: 40, Height: 8, FPS: 10, Idle: time.Second, Render: render}); err != nil {
		t.Fatal(err)
	}
	w, h, evs := parseCast(t, b.String())
	got := screen(w, h, evs)
	want := []string{"t=10s leaders [n2]"}
	for _, l := range []string{"n1 up=false leader=n1 ", "n2 up=true leader=n2 ", "n3 up=true leader=n2 ", "n4 up=true leader=n2 ", "n5 up=true leader=n2 "} {
		want = append(want, l+strings.Repeat("x", 40-len(l)))
	}
	want = append(want, "", "")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("final screen\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCastAsciinemaCat is what CI checks with Debian's asciinema: it reads the cast.
// Skipped where asciinema or script is not installed.
func TestCastAsciinemaCat(t *testing.T) {
	if _, err := exec.LookPath("asciinema"); err != nil {
		t.Skip("asciinema not installed")
	}
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script not installed")
	}
	path := filepath.Join(t.TempDir(), "hw.cast")
	if err := os.WriteFile(path, []byte(export(t, record(t, faultsFile), Flags{Format: "cast"})), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("script", "-qc", "asciinema cat "+path, "/dev/null")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("asciinema cat: %v\n%.2000s", err, out)
	}
}
