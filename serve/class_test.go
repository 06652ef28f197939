package serve

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/clusterlab/clusterlab/internal/race"
	"github.com/clusterlab/clusterlab/internal/sshtest"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/presets"
)

// childEnv makes the test binary a server of its own (TestMain), so that its CPU
// time and memory are measured apart from the 50 clients'.
const childEnv = "CLUSTERLAB_SERVE_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		os.Exit(child(dir))
	}
	os.Exit(m.Run())
}

// child serves preset bully from dir (host_key, teachers) on a loopback port,
// which it prints, until its standard input closes.
func child(dir string) int {
	s, err := presets.Load("bully")
	if err != nil {
		fmt.Println(err)
		return 2
	}
	cfg, err := s.Resolve()
	if err != nil {
		fmt.Println(err)
		return 2
	}
	srv, err := New(Options{HostKey: filepath.Join(dir, "host_key"), Teachers: filepath.Join(dir, "teachers"), Scenario: s, Config: cfg,
		Speed: 1, Lang: lang.En, Rate: 1000, Burst: 1000})
	if err != nil {
		fmt.Println(err)
		return 2
	}
	ln, err := listen()
	if err != nil {
		fmt.Println(err)
		return 2
	}
	fmt.Println(ln.Addr().String())
	go srv.Serve(ln)
	bufio.NewReader(os.Stdin).ReadString('\n')
	srv.Close()
	return 0
}

// procStat is a process's CPU time (user and system) and resident set.
func procStat(t *testing.T, pid int) (time.Duration, int64) {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	var rss int64
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			rss, _ = strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	const hz = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / hz, rss << 10
}

// frames counts a screen's frames: writes after a pause of more than 20 ms (a
// frame split into several packets arrives at once; frames are 100 ms apart).
type frames struct {
	mu    sync.Mutex
	last  time.Time
	count int
	bytes int
}

func (f *frames) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	if now.Sub(f.last) > 20*time.Millisecond {
		f.count++
	}
	f.last, f.bytes = now, f.bytes+len(p)
	return len(p), nil
}

func (f *frames) n() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.count
}

// TestClassOf50: 50 spectators with PTYs watch one world served by another
// process. Each gets at least 5 frames a second; the server stays within 1.5
// cores and 300 MB, at most 4 MB a session beyond the first. Skipped under the
// race detector (which multiplies memory) and in -short mode; .ci/run's plain
// pass runs it.
func TestClassOf50(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("50 SSH sessions against a server process; skipped in -short mode and under -race (.ci/run runs it in its plain pass)")
	}
	const n = 50
	dir := t.TempDir()
	teacherKey := newKey(t)
	os.WriteFile(filepath.Join(dir, "teachers"), []byte(strings.TrimSpace(string(gossh.MarshalAuthorizedKey(teacherKey.PublicKey())))+" ana\n"), 0o600)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	addr = strings.TrimSpace(addr)
	host, err := HostKey(filepath.Join(dir, "host_key"))
	if err != nil {
		t.Fatal(err)
	}
	var screens []*frames
	var shown []*sshtest.Screen
	var sessions []*gossh.Session
	var rss1 int64
	for i := range n {
		cl, err := sshtest.Dial(addr, "student", host.PublicKey(), gossh.PublicKeys(newKey(t)))
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		defer cl.Close()
		sess, err := cl.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		f := &frames{}
		sc := sshtest.NewScreen(sess)
		sess.Stdout = io.MultiWriter(f, sc)
		if _, err := sess.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		screens, shown, sessions = append(screens, f), append(shown, sc), append(sessions, sess)
		if i == 0 {
			time.Sleep(2 * time.Second)
			_, rss1 = procStat(t, cmd.Process.Pid)
		}
	}
	time.Sleep(2 * time.Second) // every dashboard drawn and running
	before := make([]int, n)
	for i, f := range screens {
		before[i] = f.n()
	}
	cpu0, _ := procStat(t, cmd.Process.Pid)
	const window = 10 * time.Second
	time.Sleep(window)
	cpu1, rss := procStat(t, cmd.Process.Pid)
	least, most := 1<<30, 0
	for i, f := range screens {
		d := f.n() - before[i]
		least, most = min(least, d), max(most, d)
	}
	cores := (cpu1 - cpu0).Seconds() / window.Seconds()
	perSession := float64(rss-rss1) / (n - 1) / (1 << 20)
	t.Logf("%d spectators over %v: %.1f to %.1f frames/s each; server %.2f cores, RSS %.0f MB (%.0f MB with one session, %.2f MB per extra session)",
		n, window, float64(least)/window.Seconds(), float64(most)/window.Seconds(), cores, float64(rss)/(1<<20), float64(rss1)/(1<<20), perSession)
	if fps := float64(least) / window.Seconds(); fps < 5 {
		t.Errorf("a spectator got %.1f frames/s, expected at least 5", fps)
	}
	if cores > 1.5 {
		t.Errorf("the server took %.2f cores, expected at most 1.5", cores)
	}
	if rss > 300<<20 || perSession > 4 {
		t.Errorf("the server's RSS is %d MB, %.2f MB per extra session; expected at most 300 MB and 4 MB", rss>>20, perSession)
	}
	// The teacher crashes n2: how long until each spectator's screen shows it.
	tc, err := sshtest.Dial(addr, TeacherUser, host.PublicKey(), gossh.PublicKeys(teacherKey))
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	teacher := sshtest.Open(t, tc, nil)
	if !teacher.Wait("clusterlab", 20*time.Second) {
		t.Fatal("the teacher's dashboard does not open")
	}
	sent := time.Now()
	teacher.In.Write([]byte(":crash n2\r"))
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	for i, sc := range shown {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat[i] = -1
			if sc.Wait("teacher:ana crash n2", 20*time.Second) {
				lat[i] = time.Since(sent)
			}
		}()
	}
	wg.Wait()
	slices.Sort(lat)
	t.Logf("the teacher's crash n2 on the %d spectators' screens after %v (first), %v (median), %v (last)", n, lat[0].Round(time.Millisecond), lat[n/2].Round(time.Millisecond), lat[n-1].Round(time.Millisecond))
	if lat[0] < 0 {
		t.Errorf("%d spectators never showed the teacher's action", n-len(slices.DeleteFunc(slices.Clone(lat), func(d time.Duration) bool { return d < 0 })))
	}
	for _, s := range sessions {
		s.Close()
	}
}

// listen listens on a loopback port of the system's choosing.
func listen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }
