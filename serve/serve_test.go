package serve

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	_ "github.com/clusterlab/clusterlab/algos/all"
	"github.com/clusterlab/clusterlab/internal/sshtest"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/presets"
)

// class is a server under test on the loopback, and the teacher's key.
type class struct {
	s       *Server
	addr    string
	teacher gossh.Signer
	dir     string
	done    chan error
}

// start serves preset bully on a loopback port, with one teacher, ana.
func start(t testing.TB, o Options) *class { return startWith(t, o, "bully") }

// startWith serves preset (none: a --lab server's menu) on a loopback port, with
// one teacher, ana.
func startWith(t testing.TB, o Options, preset string) *class {
	t.Helper()
	dir := t.TempDir()
	c := &class{teacher: newKey(t), dir: dir, done: make(chan error, 1)}
	keys := filepath.Join(dir, "teachers")
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(c.teacher.PublicKey()))) + " ana\n"
	if err := os.WriteFile(keys, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	if preset != "" {
		s, err := presets.Load(preset)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := s.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		o.Scenario, o.Config = s, cfg
	}
	o.HostKey, o.Teachers, o.Lang = filepath.Join(dir, "host_key"), keys, lang.En
	if o.Speed == 0 {
		o.Speed = 1
	}
	var err error
	c.s, err = New(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.addr = ln.Addr().String()
	go func() { c.done <- c.s.Serve(ln) }()
	t.Cleanup(func() {
		c.s.Close()
		if err := <-c.done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return c
}

// dial logs in as user with auth.
func (c *class) dial(user string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return sshtest.Dial(c.addr, user, c.s.hostKey.PublicKey(), auth...)
}

var newKey, open = sshtest.NewKey, sshtest.Open

// pair opens the dashboards of the teacher, ana, and of a student, closed when
// the test ends.
func (c *class) pair(t *testing.T) (teacher, student *sshtest.Screen) {
	t.Helper()
	tc, err := c.dial(TeacherUser, gossh.PublicKeys(c.teacher))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tc.Close() })
	sc, err := c.dial("student", gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sc.Close() })
	return open(t, tc, nil), open(t, sc, nil)
}

// TestTeacherActsSpectatorsSee: the teacher's crash n2 (typed on the : line)
// reaches the world once, with a marker naming the teacher, and shows on a
// spectator's screen soon after; a spectator's keys act on nothing.
func TestTeacherActsSpectatorsSee(t *testing.T) {
	c := start(t, Options{})
	teacher, student := c.pair(t)
	if !teacher.Wait("bully", 10*time.Second) || !student.Wait("bully", 10*time.Second) {
		t.Fatalf("no dashboard:\n%q", student.Text())
	}
	// Every key a spectator may press that acts: refused with a line, and the
	// world gets nothing.
	for _, k := range []string{" ", "x", "r", "s", "i", "p", "h", "g", "e", "c", "b", ".", "+", "-", "P", "R", ":crash n1\r", "\x1b"} {
		student.In.Write([]byte(k))
		time.Sleep(20 * time.Millisecond)
	}
	if !student.Wait("you are watching", 5*time.Second) {
		t.Errorf("a spectator's action key is not refused with a line:\n%q", student.Text())
	}
	if got := c.s.Live().UserActions(); len(got) > 0 {
		t.Fatalf("a spectator's keys reached the world: %v", got)
	}
	sent := time.Now()
	teacher.In.Write([]byte(":crash n2\r"))
	if !student.Wait("teacher:ana crash n2", 15*time.Second) {
		t.Fatalf("the spectator does not see the teacher's action (the world has %v); its screen:\n%s\nthe teacher's:\n%s", c.s.Live().UserActions(), student.Shown(), teacher.Shown())
	}
	t.Logf("the teacher's crash n2 showed on the spectator's screen %v after the key", time.Since(sent).Round(time.Millisecond))
	var crashes, markers int
	for _, a := range c.s.Live().UserActions() {
		switch a.Action.String() {
		case "crash n2":
			crashes++
		case `marker "teacher:ana crash n2"`:
			markers++
		}
	}
	if crashes != 1 || markers != 1 {
		t.Errorf("recorded %d crash n2 and %d markers, expected one of each: %v", crashes, markers, c.s.Live().UserActions())
	}
}

// TestRefused: a password, a teacher's login with a key not in the teachers'
// file, a command, a session without a terminal, and a flood of connections from
// one address.
func TestRefused(t *testing.T) {
	c := start(t, Options{Burst: 3})
	if _, err := c.dial("student", gossh.Password("secret")); err == nil {
		t.Error("a password logged in")
	}
	if _, err := c.dial(TeacherUser, gossh.PublicKeys(newKey(t))); err == nil {
		t.Error("an unknown key logged in as the teacher")
	}
	cl, err := c.dial("student", gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for _, c := range []struct {
		name string
		run  func(*gossh.Session) error
		want string
	}{
		{"a command", func(s *gossh.Session) error { return s.Run("ls") }, "runs no commands"},
		{"no terminal", func(s *gossh.Session) error { return s.Run("") }, "needs a terminal"},
		{"a subsystem", func(s *gossh.Session) error { return s.RequestSubsystem("sftp") }, ""},
	} {
		sess, err := cl.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out := &sshtest.Screen{} // stdout and stderr are copied by two goroutines
		sess.Stdout, sess.Stderr = out, out
		err = c.run(sess)
		if c.want == "" {
			if err == nil {
				if werr := sess.Wait(); werr == nil {
					t.Errorf("%s: served", c.name)
				}
			}
			sess.Close()
			continue
		}
		var exit *gossh.ExitError
		if !errors.As(err, &exit) || exit.ExitStatus() != 1 || !strings.Contains(out.Text(), c.want) {
			t.Errorf("%s: %v, %q; expected exit 1 with %q", c.name, err, out.Text(), c.want)
		}
		sess.Close()
	}
	// The flood: 100 connections at once from one address; the burst gets in.
	var ok int
	for range 100 {
		if cl, err := c.dial("student", gossh.PublicKeys(newKey(t))); err == nil {
			ok++
			cl.Close()
		}
	}
	if ok > 3+2 {
		t.Errorf("%d of 100 connections at once got in, expected the burst of 3 (and a token or two of the time it took)", ok)
	}
}

// TestHostKeyKept: the host key file is created 0600 once, and gives the same
// fingerprint on every start.
func TestHostKeyKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host_key")
	var prints []string
	for range 3 {
		k, err := HostKey(path)
		if err != nil {
			t.Fatal(err)
		}
		prints = append(prints, gossh.FingerprintSHA256(k.PublicKey()))
	}
	if prints[0] != prints[1] || prints[1] != prints[2] || !strings.HasPrefix(prints[0], "SHA256:") {
		t.Errorf("fingerprints across restarts: %v", prints)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("host key mode %v (%v), expected 0600", fi.Mode().Perm(), err)
	}
	os.WriteFile(path, []byte("not a key"), 0o600)
	if _, err := HostKey(path); err == nil || !strings.Contains(err.Error(), "found no private key") {
		t.Errorf("a file that holds no key: %v", err)
	}
}

// TestSessionsLeave: once every session leaves, the server's goroutines are back
// to where they were (±5).
func TestSessionsLeave(t *testing.T) {
	c := start(t, Options{Rate: 1000, Burst: 100})
	time.Sleep(200 * time.Millisecond)
	base := runtime.NumGoroutine()
	var clients []*gossh.Client
	for i := range 10 {
		user := "student"
		auth := gossh.PublicKeys(newKey(t))
		if i == 0 {
			user, auth = TeacherUser, gossh.PublicKeys(c.teacher)
		}
		cl, err := c.dial(user, auth)
		if err != nil {
			t.Fatal(err)
		}
		s := open(t, cl, nil)
		if !s.Wait("bully", 10*time.Second) {
			t.Fatalf("session %d: no dashboard", i)
		}
		clients = append(clients, cl)
	}
	if n := c.s.Sessions(); n != 10 {
		t.Errorf("%d sessions open, expected 10", n)
	}
	for _, cl := range clients {
		cl.Close()
	}
	left := time.Now()
	end := left.Add(10 * time.Second)
	for time.Now().Before(end) && (runtime.NumGoroutine() > base+5 || c.s.Sessions() > 0) {
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("%d goroutines %v after the sessions left (%d before they came)", runtime.NumGoroutine(), time.Since(left).Round(time.Millisecond), base)
	if n := runtime.NumGoroutine(); n > base+5 || c.s.Sessions() > 0 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after every session left, %d before; %d sessions:\n%s", n, base, c.s.Sessions(), buf[:runtime.Stack(buf, true)])
	}
}

// TestLanguage: a client's LANG picks its dashboard's language.
func TestLanguage(t *testing.T) {
	c := start(t, Options{})
	cl, err := c.dial("aluno", gossh.PublicKeys(newKey(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	s := open(t, cl, map[string]string{"LANG": "pt_BR.UTF-8"})
	if !s.Wait("bully", 10*time.Second) {
		t.Fatal("no dashboard")
	}
	s.In.Write([]byte("c"))
	if !s.Wait("você está assistindo", 5*time.Second) {
		t.Errorf("LANG=pt_BR: no Portuguese refusal:\n%q", s.Text())
	}
}

// TestIdle: an idle spectator is dropped, an idle teacher demoted (measured in
// the dashboard: its screen is written all the time).
func TestIdle(t *testing.T) {
	c := start(t, Options{IdleSpectator: 500 * time.Millisecond, IdleTeacher: 500 * time.Millisecond})
	teacher, student := c.pair(t)
	select {
	case <-student.Ends:
	case <-time.After(10 * time.Second):
		t.Error("an idle spectator was not dropped")
	}
	if !teacher.Wait("bully", 5*time.Second) {
		t.Fatal("no dashboard")
	}
	time.Sleep(time.Second)
	teacher.In.Write([]byte("c"))
	if !teacher.Wait("you are watching", 5*time.Second) {
		t.Error("an idle teacher still acts")
	}
	select {
	case <-teacher.Ends:
		t.Error("an idle teacher was dropped, expected demoted")
	default:
	}
	if got := c.s.Live().UserActions(); len(got) > 0 {
		t.Errorf("a demoted teacher's key reached the world: %v", got)
	}
}
