package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	gossh "golang.org/x/crypto/ssh"

	"github.com/clusterlab/clusterlab/internal/sshtest"
	"github.com/clusterlab/clusterlab/tui"
)

// syncBuffer is a log written by the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPanicClosesOneSession: a session whose dashboard panics (a test key makes
// it) ends, with one line in the server's log; the other sessions and the world
// go on: the teacher's next action still shows on another student's screen.
func TestPanicClosesOneSession(t *testing.T) {
	var logged syncBuffer
	c := start(t, Options{Log: &logged, panicKey: "ctrl+t", Rate: 1000, Burst: 100})
	teacher, other := c.pair(t)
	cl, err := c.dial("student", gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	failing := open(t, cl, nil)
	for _, s := range []*sshtest.Screen{teacher, other, failing} {
		if !s.Wait("bully", 10*time.Second) {
			t.Fatal("no dashboard")
		}
	}
	failing.In.Write([]byte{0x14}) // ctrl+t
	select {
	case <-failing.Ends:
	case <-time.After(10 * time.Second):
		t.Fatal("the session whose dashboard panicked did not end")
	}
	if text := failing.Text(); !strings.Contains(text, "failed and was closed") || strings.Contains(text, "panic") {
		t.Errorf("the session that failed was not told in one line, or was shown the panic:\n%q", text[max(0, len(text)-600):])
	}
	teacher.In.Write([]byte(":crash n2\r"))
	if !other.Wait("teacher:ana crash n2", 10*time.Second) {
		t.Errorf("after one session's panic the others do not go on:\n%s", other.Shown())
	}
	lines := strings.Split(strings.TrimSpace(logged.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "the dashboard failed") || !strings.Contains(lines[0], "(student)") {
		t.Errorf("the server logged %q, expected one line naming the session", logged.String())
	}
	if n := c.s.Sessions(); n != 2 {
		t.Errorf("%d sessions open, expected the teacher's and the other student's", n)
	}
}

// TestForwardingRefused: a client's port forwarding, local (a direct-tcpip
// channel) and remote (a tcpip-forward request), is refused.
func TestForwardingRefused(t *testing.T) {
	c := start(t, Options{})
	cl, err := c.dial("student", gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if conn, err := cl.Dial("tcp", c.addr); err == nil {
		conn.Close()
		t.Error("a direct-tcpip channel (ssh -L) was opened")
	}
	if ln, err := cl.Listen("tcp", "127.0.0.1:0"); err == nil {
		ln.Close()
		t.Error("a tcpip-forward request (ssh -R) was granted")
	}
	if ok, _, err := cl.SendRequest("tcpip-forward", true, gossh.Marshal(struct {
		Addr string
		Port uint32
	}{"127.0.0.1", 0})); ok || err != nil {
		t.Errorf("tcpip-forward: granted %v (%v)", ok, err)
	}
}

// TestFlood: 100 connections a second from one address for a second, the
// default limits (1 a second, 5 at once): the burst and a token or two get in,
// the rest are closed before any handshake.
func TestFlood(t *testing.T) {
	c := start(t, Options{})
	key := newKey(t)
	var ok int
	begin := time.Now()
	for i := range 100 {
		time.Sleep(time.Until(begin.Add(time.Duration(i) * 10 * time.Millisecond)))
		if cl, err := c.dial("student", gossh.PublicKeys(key)); err == nil {
			ok++
			cl.Close()
		}
	}
	took := time.Since(begin)
	if most := DefaultBurst + int(took.Seconds()*DefaultRate) + 1; ok > most || ok < DefaultBurst {
		t.Errorf("%d of 100 connections over %v got in, expected the burst of %d and about one a second after (at most %d)", ok, took.Round(time.Millisecond), DefaultBurst, most)
	}
}

// keyBytes is what a terminal sends for a key of the dashboard's help.
func keyBytes(k string) string {
	switch k {
	case "space":
		return " "
	case "tab":
		return "\t"
	case "shift+tab":
		return "\x1b[Z"
	case "enter":
		return "\r"
	case "esc":
		return "\x1b"
	case "up":
		return "\x1b[A"
	case "down":
		return "\x1b[B"
	case "right":
		return "\x1b[C"
	case "left":
		return "\x1b[D"
	case "home":
		return "\x1b[H"
	case "end":
		return "\x1b[F"
	case "pgup":
		return "\x1b[5~"
	case "pgdown":
		return "\x1b[6~"
	case "ctrl+c":
		return "\x03"
	}
	return k
}

// everyKey is every key of the dashboard's key map (its help), the server's own
// (L), and the mouse: clicks and the wheel over the panes. q and ctrl+c come
// last: they end the session.
func everyKey() []string {
	var keys, last []string
	km := reflect.ValueOf(tui.DefaultKeyMap())
	for i := range km.NumField() {
		b, ok := km.Field(i).Interface().(key.Binding)
		if !ok {
			continue
		}
		for _, k := range b.Keys() {
			switch k {
			case "q", "ctrl+c":
				last = append(last, keyBytes(k))
			default:
				keys = append(keys, keyBytes(k))
			}
		}
	}
	keys = append(keys, "L", "enter", "y", "n", "\r")
	for _, at := range [][2]int{{5, 4}, {30, 5}, {60, 10}, {20, 20}, {100, 20}, {100, 30}, {10, 39}} {
		x, y := at[0], at[1]
		for _, b := range []int{0, 2, 64, 65} {
			keys = append(keys, "\x1b[<"+itoa(b)+";"+itoa(x)+";"+itoa(y)+"M")
			if b < 64 {
				keys = append(keys, "\x1b[<"+itoa(b)+";"+itoa(x)+";"+itoa(y)+"m")
			}
		}
	}
	return append(keys, last...)
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestSpectatorKeysLeaveRecording: a spectator who presses every key of the
// dashboard's help, and clicks and scrolls all over it, leaves the class's
// recording byte for byte what it is without them: the same seed, the same
// teacher's actions on a world paused between them.
func TestSpectatorKeysLeaveRecording(t *testing.T) {
	run := func(spectate bool) []byte {
		rec := filepath.Join(t.TempDir(), "class.jsonl")
		c := start(t, Options{Record: rec, Paused: true, Rate: 1000, Burst: 100})
		teacher, spectator := c.pair(t)
		if !teacher.Wait("bully", 10*time.Second) || !spectator.Wait("bully", 10*time.Second) {
			t.Fatal("no dashboard")
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			if spectate {
				for _, k := range everyKey() {
					spectator.In.Write([]byte(k))
					time.Sleep(15 * time.Millisecond)
				}
			}
		}()
		for _, k := range []string{":crash n2\r", ".", ".", ".", ":recover n2\r", ".", ".", ":partition n1,n2 | n3,n4,n5\r", ".", "."} {
			teacher.In.Write([]byte(k))
			time.Sleep(50 * time.Millisecond)
		}
		<-done
		teacher.In.Write([]byte(":marker \"end\"\r"))
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if a := c.s.Live().UserActions(); len(a) > 0 && strings.Contains(a[len(a)-1].Action.String(), `marker \"end\"`) {
				break
			}
		}
		if err := c.s.Close(); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	alone, watched := run(false), run(true)
	if !bytes.Contains(alone, []byte(`marker \"end\"`)) || !bytes.Contains(alone, []byte(`"crash n2"`)) {
		t.Fatalf("the recording lacks the teacher's actions:\n%s", tail(alone))
	}
	if !bytes.Equal(alone, watched) {
		a, b := strings.Split(string(alone), "\n"), strings.Split(string(watched), "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("a spectator's keys changed the recording at line %d:\n%s\n%s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("a spectator's keys changed the recording: %d lines, %d without them", len(b), len(a))
	}
}

func tail(b []byte) string { return string(b[max(0, len(b)-2000):]) }

// TestLanguageKey: L turns one viewer's dashboard to the next language
// (English, Portuguese, Spanish); another viewer's stays in theirs.
func TestLanguageKey(t *testing.T) {
	c := start(t, Options{})
	_, a := c.pair(t)
	cl, err := c.dial("student", gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	b := open(t, cl, nil)
	if !a.Wait("bully", 10*time.Second) || !b.Wait("bully", 10*time.Second) {
		t.Fatal("no dashboard")
	}
	a.In.Write([]byte("L"))
	time.Sleep(100 * time.Millisecond)
	a.In.Write([]byte("c"))
	b.In.Write([]byte("c"))
	if !a.Wait("você está assistindo", 5*time.Second) {
		t.Errorf("after L, no Portuguese:\n%s", a.Shown())
	}
	if !b.Wait("you are watching", 5*time.Second) || strings.Contains(b.Text(), "você") {
		t.Errorf("another viewer's language changed:\n%s", b.Shown())
	}
	a.In.Write([]byte("L"))
	time.Sleep(100 * time.Millisecond)
	a.In.Write([]byte("c"))
	if !a.Wait("estás mirando", 5*time.Second) {
		t.Errorf("after L twice, no Spanish:\n%s", a.Shown())
	}
}

// TestQuitLeavesWorld: q ends a viewer's session at once, without asking about
// the recording: the class's world and its recording go on without them.
func TestQuitLeavesWorld(t *testing.T) {
	c := start(t, Options{Record: filepath.Join(t.TempDir(), "class.jsonl")})
	teacher, student := c.pair(t)
	if !student.Wait("bully", 10*time.Second) || !teacher.Wait("bully", 10*time.Second) {
		t.Fatal("no dashboard")
	}
	for _, s := range []*sshtest.Screen{student, teacher} {
		s.In.Write([]byte("q"))
		select {
		case <-s.Ends:
		case <-time.After(5 * time.Second):
			t.Fatalf("q did not end the session:\n%s", s.Shown())
		}
	}
	if c.s.Live().Recording() == "" {
		t.Error("the class's recording ended with a viewer's q")
	}
}
