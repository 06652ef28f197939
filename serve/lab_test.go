package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/internal/sshtest"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

// exec runs cmd without a terminal, logged in with key: its standard output and
// error, and its exit status.
func (c *class) exec(t *testing.T, key gossh.Signer, cmd string) (string, string, int) {
	t.Helper()
	cl, err := c.dial("student", gossh.PublicKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	sess, err := cl.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out, errs bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errs
	err = sess.Run(cmd)
	code := 0
	var exit *gossh.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitStatus()
	} else if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return out.String(), errs.String(), code
}

// world is the private world of the student with key, once it is open.
func (c *class) world(t *testing.T, key gossh.Signer) *session.Live {
	t.Helper()
	id := studentID(key.PublicKey())
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		c.s.lab.mu.Lock()
		for ls := range c.s.lab.worlds {
			if ls.id == id {
				c.s.lab.mu.Unlock()
				ls.mu.Lock()
				defer ls.mu.Unlock()
				return ls.live
			}
		}
		c.s.lab.mu.Unlock()
	}
	t.Fatal("the student's world did not open")
	return nil
}

// labOptions are a lab's options, its recordings in a test folder.
func labOptions(t *testing.T, lab Lab) Options {
	lab.Dir = filepath.Join(t.TempDir(), "recordings")
	return Options{Lab: &lab, Rate: 1000, Burst: 1000}
}

// student opens a lab session with a key of its own.
func (c *class) student(t *testing.T) (gossh.Signer, *sshtest.Screen) {
	key, s, _ := c.studentClient(t)
	return key, s
}

func (c *class) studentClient(t *testing.T) (gossh.Signer, *sshtest.Screen, *gossh.Client) {
	t.Helper()
	key := newKey(t)
	cl, err := c.dial("student", gossh.PublicKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return key, open(t, cl, nil), cl
}

// TestLabWorlds: in --lab mode two students get worlds of their own (an action
// in one is not in the other); a student fetches the recording of their last
// session with `ssh host record`, byte for byte what the server kept, and it
// verifies; while a session is open, record says so; any other command without
// a terminal is refused; once everyone leaves, the worlds are closed and the
// goroutines back to where they were.
func TestLabWorlds(t *testing.T) {
	c := start(t, labOptions(t, Lab{}))
	time.Sleep(200 * time.Millisecond)
	base := runtime.NumGoroutine()
	ka, a, ac := c.studentClient(t)
	kb, b, bc := c.studentClient(t)
	if !a.Wait("bully", 10*time.Second) || !b.Wait("bully", 10*time.Second) {
		t.Fatalf("no dashboard:\n%s", a.Shown())
	}
	wa, wb := c.world(t, ka), c.world(t, kb)
	if wa == wb {
		t.Fatal("two students share a world")
	}
	a.In.Write([]byte(":crash n2\r"))
	for end := time.Now().Add(10 * time.Second); len(wa.UserActions()) == 0 && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if got := wa.UserActions(); len(got) != 1 || got[0].Action.String() != "crash n2" {
		t.Fatalf("the student's world has %v, expected their crash n2", got)
	}
	if got := wb.UserActions(); len(got) > 0 {
		t.Errorf("another student's action reached this world: %v", got)
	}
	// While the session is open: no recording yet, and it says why.
	if out, errs, code := c.exec(t, ka, RecordCommand); code != 1 || out != "" || !strings.Contains(errs, "still open") {
		t.Errorf("record while the session is open: exit %d, %q, %q; expected exit 1 saying it is still open", code, out, errs)
	}
	if _, errs, code := c.exec(t, ka, "cat /etc/passwd"); code != 1 || !strings.Contains(errs, "runs one command, record") {
		t.Errorf("another command: exit %d, %q; expected exit 1 and the lab's refusal", code, errs)
	}
	// a quits: q, and yes (its world is recording)
	a.In.Write([]byte("q"))
	time.Sleep(100 * time.Millisecond)
	a.In.Write([]byte("y"))
	select {
	case <-a.Ends:
	case <-time.After(10 * time.Second):
		t.Fatalf("q did not end the session:\n%s", a.Shown())
	}
	kept := filepath.Join(c.s.o.Lab.Dir, studentID(ka.PublicKey())+".jsonl")
	var want []byte
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(kept); err == nil {
			want = data
			break
		}
	}
	out, errs, code := c.exec(t, ka, RecordCommand)
	if code != 0 || out != string(want) || len(want) == 0 {
		t.Fatalf("record: exit %d (%q), %d bytes; the server kept %d", code, errs, len(out), len(want))
	}
	mine := filepath.Join(t.TempDir(), "mine.jsonl")
	os.WriteFile(mine, []byte(out), 0o644)
	v, err := session.Verify(context.Background(), mine, session.VerifyOptions{MaxPending: labPending})
	if err != nil || !v.OK {
		t.Errorf("the fetched recording does not verify: %v %+v", err, v)
	}
	if !strings.Contains(out, `"crash n2"`) {
		t.Error("the fetched recording lacks the student's crash n2")
	}
	// b has no recording yet: its session is open
	if _, errs, code := c.exec(t, kb, RecordCommand); code != 1 || !strings.Contains(errs, "still open") {
		t.Errorf("record of a student whose only session is open: exit %d, %q", code, errs)
	}
	ac.Close()
	bc.Close()
	left := time.Now()
	for end := left.Add(10 * time.Second); time.Now().Before(end) && (runtime.NumGoroutine() > base+5 || c.s.Sessions() > 0 || c.openWorlds() > 0); {
		time.Sleep(50 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base+5 || c.openWorlds() > 0 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines and %d worlds after every student left, %d goroutines before:\n%s", n, c.openWorlds(), base, buf[:runtime.Stack(buf, true)])
	}
	if c.s.lab.used != 0 {
		t.Errorf("the lab's memory still holds %d bytes of closed worlds", c.s.lab.used)
	}
	// b's recording is kept too, once b has left
	if _, _, code := c.exec(t, kb, RecordCommand); code != 0 {
		t.Errorf("record after the session ended: exit %d", code)
	}
}

func (c *class) openWorlds() int {
	c.s.lab.mu.Lock()
	defer c.s.lab.mu.Unlock()
	return len(c.s.lab.worlds)
}

// TestLabCaps: a scenario over the lab's node cap, a speed over its speed cap,
// and a world the lab's memory cannot hold are refused with a line; a student's
// + key stops at the cap.
func TestLabCaps(t *testing.T) {
	s, err := presets.Load("bully")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	o := labOptions(t, Lab{MaxNodes: len(cfg.IDs) - 1})
	o.Scenario, o.Config, o.Speed, o.HostKey, o.Teachers = s, cfg, 1, filepath.Join(t.TempDir(), "k"), ""
	if _, err := New(o); err == nil || !strings.Contains(err.Error(), "--lab-nodes") {
		t.Errorf("a scenario over the node cap: %v", err)
	}
	o.Lab.MaxNodes, o.Lab.MaxSpeed, o.Speed = 0, 10, 20
	if _, err := New(o); err == nil || !strings.Contains(err.Error(), "--lab-speed") {
		t.Errorf("a speed over the cap: %v", err)
	}

	// Room for one world: the second student is refused with a line.
	one := labWorldBytes(cfg)
	c := start(t, labOptions(t, Lab{MaxSpeed: 2, Memory: one + one/2}))
	key, first := c.student(t)
	if !first.Wait("bully", 10*time.Second) {
		t.Fatal("no dashboard")
	}
	second, _ := c.student(t)
	_ = second
	var refused *sshtest.Screen
	{
		cl, err := c.dial("student", gossh.PublicKeys(newKey(t)))
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		refused = open(t, cl, nil)
	}
	if !refused.Wait("memory is taken", 10*time.Second) {
		t.Errorf("a world over the lab's memory is not refused with a line:\n%q", refused.Text())
	}
	// + climbs to the cap, never past it, nor to "as fast as possible"
	for range 8 {
		first.In.Write([]byte("+"))
		time.Sleep(30 * time.Millisecond)
	}
	w := c.world(t, key)
	time.Sleep(200 * time.Millisecond)
	if sp := w.Speed(); sp != 2 {
		t.Errorf("after + ×8 the student's world runs at ×%v, expected the cap, ×2", sp)
	}
}

// TestLabMenu: a lab without a scenario offers the presets that fit its caps;
// enter opens the one chosen.
func TestLabMenu(t *testing.T) {
	c := startWith(t, labOptions(t, Lab{MaxNodes: 5}), "")
	if n := c.s.MenuSize(); n == 0 || n >= len(presets.Names()) {
		t.Fatalf("the menu offers %d of %d presets, expected those of at most 5 nodes", n, len(presets.Names()))
	}
	for _, name := range c.s.lab.menu {
		if s, cfg, _ := loadPreset(name); len(cfg.IDs) > 5 {
			t.Errorf("the menu offers %s, of %d nodes", s.Name, len(cfg.IDs))
		}
	}
	_, st := c.student(t)
	if !st.Wait("pick a world", 10*time.Second) {
		t.Fatalf("no menu:\n%s", st.Shown())
	}
	st.In.Write([]byte("\x1b[B")) // down: the second preset
	time.Sleep(100 * time.Millisecond)
	if !st.Wait("▸ "+c.s.lab.menu[1], 5*time.Second) {
		t.Errorf("down did not move to %s:\n%s", c.s.lab.menu[1], st.Shown())
	}
	st.In.Write([]byte("\r"))
	s, _, _ := loadPreset(c.s.lab.menu[1])
	if want := s.Algorithm + " ("; !st.Wait(want, 10*time.Second) {
		t.Errorf("enter did not open %s:\n%s\n%q", want, st.Shown(), st.Text())
	}
}

// TestLabWorldEstimate: what a private world's session holds on the server
// (the world, its recording's state, the snapshots, a dashboard drawn at
// 120×40), after running at the lab's top speed, stays within the estimate the
// lab's memory budget admits worlds by, with the 3.6 MB a session's SSH side and
// renderer take (TestClassOf50's figure per extra session). The largest preset
// of the menu, eight worlds at once.
func TestLabWorldEstimate(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("runs eight worlds at ×50 for 3 s and reads the heap; skipped in -short mode and under -race")
	}
	var big *presets.Scenario
	var cfg netsim.Config
	for _, name := range presets.Names() {
		s, c, err := loadPreset(name)
		if err == nil && len(c.IDs) <= DefaultLabNodes && len(c.IDs) > len(cfg.IDs) {
			big, cfg = s, c
		}
	}
	cfg.MaxPending = labPending
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	const n = 8
	var lives []*session.Live
	var dashes []*tui.Model
	dir := t.TempDir()
	for i := range n {
		l, err := session.NewLive(big, cfg, session.LiveOptions{Record: filepath.Join(dir, fmt.Sprint(i, ".jsonl")), Speed: DefaultLabSpeed})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		lives = append(lives, l)
		d := tui.New(&viewer{live: l, own: true, speed: DefaultLabSpeed}, tui.Options{})
		d.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		dashes = append(dashes, d)
	}
	time.Sleep(3 * time.Second)
	for _, d := range dashes {
		d.Update(tui.Refresh{})
		d.Render()
	}
	held := (heap() - before) / n
	const sshSide = 3.6 * (1 << 20) // bytes, not a whole number
	est := labWorldBytes(cfg)
	t.Logf("%s (%d nodes) at ×%v: %.1f MB a world's session beside its SSH side; estimate %.1f MB with it", big.Name, len(cfg.IDs), DefaultLabSpeed, float64(held)/(1<<20), float64(est)/(1<<20))
	if float64(held)+sshSide > float64(est) {
		t.Errorf("a private world holds %d B and its SSH side about %.0f; the estimate is %d", held, sshSide, est)
	}
	runtime.KeepAlive(lives)
}
