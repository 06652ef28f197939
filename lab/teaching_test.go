package lab

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/clusterlab/clusterlab/internal/sshtest"
	"github.com/clusterlab/clusterlab/serve"
)

// TestTeachingPage runs docs/teaching.md as a teacher would: the key made with
// ssh-keygen, the teachers' file, the server started with the page's command (on
// a loopback port of the system's choosing) and its start line compared with the
// page's; the ssh lines as a Go SSH client with a PTY (the student watches, the
// teacher crashes n2 from the : line and the student sees it); Ctrl-C; then the
// page's verify, replay (parsed) and grade, on the class's recording.
func TestTeachingPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, serves a class and runs docs/teaching.md's commands; skipped in -short mode")
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen is not installed (Debian's openssh-client; .ci/run installs it): docs/teaching.md makes the teacher's key with it")
	}
	page := "../docs/teaching.md"
	dir, bin := buildBinary(t)
	blocks := docBlocks(t, page)
	page, _ = filepath.Abs(page)
	t.Chdir(dir) // the parser checks files from the working folder
	var srv *exec.Cmd
	var addr string
	var host gossh.PublicKey
	var started string
	last := ""
	lab := false                 // the server running is a --lab one
	student := sshtest.NewKey(t) // a --lab student's key, from one line to the next
	for i, b := range blocks {
		switch b.lang {
		case "text":
			if i > 0 && blocks[i-1].lang == "sh" && last != "" {
				fp := regexp.MustCompile(`SHA256:[A-Za-z0-9+/]+`)
				got := strings.ReplaceAll(fp.ReplaceAllString(last, "SHA256:…"), addr, "127.0.0.1:2222")
				if want := strings.TrimSpace(b.text); got != want {
					t.Errorf("%s:%d: the page shows\n%s\nthe server prints\n%s", page, b.line, want, got)
				}
			}
		case "sh":
			for _, line := range strings.Split(b.text, "\n") {
				code, _, _ := strings.Cut(line, "#")
				f := strings.Fields(code)
				if len(f) == 0 {
					continue
				}
				switch f[0] {
				case "ssh-keygen", "cp":
					if out, err := exec.Command("sh", "-c", "cd "+dir+" && "+code).CombinedOutput(); err != nil {
						t.Fatalf("%s: %v\n%s", code, err, out)
					}
				case "ssh":
					if srv == nil {
						t.Fatalf("%s: %s before the server starts", page, code)
					}
					if lab {
						labSession(t, dir, addr, host, student, f)
					} else {
						watch(t, dir, addr, host, f)
					}
				case "clusterlab":
					args := f[1:]
					if args[0] != "serve" && srv != nil {
						stopServer(t, srv) // Ctrl-C: the class ends, its recording kept
						srv = nil
					}
					if args[0] == "grade" {
						// The folder of recordings handed in: the class's and
						// the one a student fetched from the lab.
						os.MkdirAll(filepath.Join(dir, args[1]), 0o755)
						for _, name := range []string{"class.jsonl", "mine.jsonl"} {
							data, err := os.ReadFile(filepath.Join(dir, name))
							if err != nil {
								t.Fatalf("%s: grade before %s is made: %v", page, name, err)
							}
							os.WriteFile(filepath.Join(dir, args[1], name), data, 0o644)
						}
					}
					if _, err := cliParser().Parse(args); err != nil {
						t.Fatalf("%s: clusterlab %s: %v", page, strings.Join(args, " "), err)
					}
					switch args[0] {
					case "serve":
						if srv != nil {
							stopServer(t, srv)
						}
						lab = slices.Contains(args, "--lab")
						srv, addr, started = startServer(t, dir, bin, args)
						last = started
						key, err := serve.HostKey(filepath.Join(dir, "host_key"))
						if err != nil {
							t.Fatal(err)
						}
						host = key.PublicKey()
					case "replay":
						// The dashboard: docs/dashboard.md's tests open it in tmux.
					default:
						if out, code := runCLI(t, dir, bin, args...); code != 0 {
							t.Errorf("%s: clusterlab %s exits %d:\n%s", page, strings.Join(args, " "), code, out)
						}
					}
				}
			}
		}
	}
	if srv != nil {
		stopServer(t, srv)
	}
}

// startServer starts the page's serve command on a loopback port of the system's
// choosing, and returns it, its address and its start line.
func startServer(t *testing.T, dir, bin string, args []string) (*exec.Cmd, string, string) {
	t.Helper()
	cmd := exec.Command(bin, append(args, "--listen", "127.0.0.1:0")...)
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no start line: %v", err)
	}
	m := regexp.MustCompile(`on (127\.0\.0\.1:\d+);`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serve's start line names no address: %q", line)
	}
	return cmd, m[1], strings.TrimSpace(line)
}

// stopServer ends the class with Ctrl-C: exit 130, the recording kept.
func stopServer(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Errorf("serve on SIGINT: %v, expected exit 130", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve does not end on SIGINT")
	}
}

// watch does what an ssh line of the page does: a student watches; a teacher
// (teacher@, with the key made on the page) crashes n2 from the : line, which a
// student's screen then shows.
func watch(t *testing.T, dir, addr string, host gossh.PublicKey, f []string) {
	t.Helper()
	user := "student"
	auth := gossh.PublicKeys(sshtest.NewKey(t))
	if strings.HasPrefix(f[len(f)-1], serve.TeacherUser+"@") {
		data, err := os.ReadFile(filepath.Join(dir, "ana"))
		if err != nil {
			t.Fatal(err)
		}
		key, err := gossh.ParsePrivateKey(data)
		if err != nil {
			t.Fatal(err)
		}
		user, auth = serve.TeacherUser, gossh.PublicKeys(key)
	}
	cl, err := sshtest.Dial(addr, user, host, auth)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(f, " "), err)
	}
	s := sshtest.Open(t, cl, nil)
	if !s.Wait("clusterlab", 20*time.Second) {
		t.Fatalf("%s: no dashboard:\n%q", strings.Join(f, " "), s.Text())
	}
	if user == serve.TeacherUser {
		sc, err := sshtest.Dial(addr, "student", host, gossh.PublicKeys(sshtest.NewKey(t)))
		if err != nil {
			t.Fatal(err)
		}
		student := sshtest.Open(t, sc, nil)
		student.Wait("clusterlab", 20*time.Second)
		s.In.Write([]byte(":crash n2\r"))
		if !student.Wait("teacher:ana crash n2", 10*time.Second) {
			t.Errorf("the teacher's crash n2 does not show on a student's screen:\n%q", student.Text())
		}
		sc.Close()
	} else {
		s.In.Write([]byte("c"))
		if !s.Wait("you are watching", 10*time.Second) {
			t.Errorf("a student's c is not refused:\n%q", s.Text())
		}
	}
	cl.Close()
}

// labSession does what an ssh line of the page's --lab section does, with the
// student's key: opens their world, crashes n2 in it from the : line, and quits
// (q, and yes: it is recording); or, for `ssh … record > FILE`, fetches the
// recording of that lab into FILE, which must be what the server kept.
func labSession(t *testing.T, dir, addr string, host gossh.PublicKey, key gossh.Signer, f []string) {
	t.Helper()
	cl, err := sshtest.Dial(addr, "student", host, gossh.PublicKeys(key))
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(f, " "), err)
	}
	defer cl.Close()
	if i := slices.Index(f, "record"); i >= 0 {
		if i+2 >= len(f) || f[i+1] != ">" {
			t.Fatalf("%s: expected record > FILE", strings.Join(f, " "))
		}
		sess, err := cl.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out, err := sess.Output("record")
		if err != nil || len(out) == 0 {
			t.Fatalf("%s: %v, %d bytes", strings.Join(f, " "), err, len(out))
		}
		if !strings.Contains(string(out), `"crash n2"`) {
			t.Errorf("%s: the recording lacks the student's crash n2", strings.Join(f, " "))
		}
		if err := os.WriteFile(filepath.Join(dir, f[i+2]), out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	s := sshtest.Open(t, cl, nil)
	if !s.Wait("clusterlab", 20*time.Second) {
		t.Fatalf("%s: no dashboard:\n%q", strings.Join(f, " "), s.Text())
	}
	s.In.Write([]byte(":crash n2\r"))
	if !s.Wait("crash n2", 10*time.Second) {
		t.Errorf("%s: the student's crash n2 does not show:\n%s", strings.Join(f, " "), s.Shown())
	}
	s.In.Write([]byte("q"))
	time.Sleep(200 * time.Millisecond)
	s.In.Write([]byte("y"))
	select {
	case <-s.Ends:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: q does not end the lab:\n%s", strings.Join(f, " "), s.Shown())
	}
}
