package presets

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
)

// A latency that can draw above Δ is cut to Δ after GST. The scenario says so when
// it loads, each warning at the latency's place, and the run's summary counts the
// messages it cut; a run that never reaches GST cuts nothing and says nothing.
func TestLatencyAboveDelta(t *testing.T) {
	src := `algorithm = "heartbeat-dp"
nodes = 3
until = "2s"
[network]
latency = { dist = "uniform", min = "5ms", max = "80ms" }
delta = "50ms"
[[links]]
from = "n1"
to = "n2"
latency = { dist = "constant", mean = "120ms" }
[[links]]
from = "n2"
to = "n1"
latency = { dist = "constant", mean = "30ms" }
`
	s, err := Parse("c.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range s.Warnings() {
		got = append(got, lang.En.F(w.Key, append([]any{w.At}, w.Args...)...))
	}
	want := []string{
		"c.toml:5:11: warning: network.latency can take up to 80ms, above delta = 50ms: after GST its messages arrive within 50ms (the delay drawn is cut to Δ)",
		"c.toml:10:11: warning: links[0].latency can take up to 120ms, above delta = 50ms: after GST its messages arrive within 50ms (the delay drawn is cut to Δ)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if a := cfg.AboveDelta(); len(a) != 2 || a[0].Link != nil || a[1].Link == nil || a[1].Ceiling != 120*time.Millisecond {
		t.Errorf("AboveDelta = %+v", a)
	}
	w, err := netsim.New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.RunUntil(cfg.Until)
	sum := w.Summary()
	w.Close()
	// n1 sends a heartbeat to n2 every 100 ms over the 120 ms link: every one is cut.
	if sum.Clamped < 19 {
		t.Errorf("%d messages cut to Δ, want at least n1's 19 heartbeats to n2", sum.Clamped)
	}
	var out bytes.Buffer
	sum.PrintIn(&out, lang.En)
	if !strings.Contains(out.String(), "⚠ latency above Δ = 50ms (network up to 80ms, n1→n2 up to 120ms): after GST such a message arrives in Δ (") {
		t.Errorf("the summary does not say so:\n%s", out.String())
	}

	never, err := Parse("c.toml", []byte(strings.Replace(src, `delta = "50ms"`, "delta = \"50ms\"\ngst = \"never\"", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(never.Warnings()) != 0 {
		t.Errorf("a run that never reaches GST warns %v", never.Warnings())
	}
}
