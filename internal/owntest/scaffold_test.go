package owntest

import (
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/internal/clitest"
)

// The scaffold end to end, as a student meets it: `clusterlab new` writes a
// module per family outside this repository, which builds with the lab, passes
// its own data-driven test (100 runs of 100 under -race) and `check`, and opens
// in the dashboard; then planted faults are caught by check, each named with
// its file and line or its first differing event, and `grade` gives a folder of
// recordings, three of them forged, the right verdicts. Each module is built
// once; the module cache and the build cache are the machine's own.

// edit replaces old by new in file once, and fails if old is not there; it
// returns the line (from 1) where new starts.
func edit(t *testing.T, file, old, new string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), old)
	if i < 0 {
		t.Fatalf("%s has no %q: the template changed, fix this test", file, old)
	}
	text := string(data[:i]) + new + string(data[i+len(old):])
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data[:i]), "\n") + 1
}

// lineOf is the line (from 1) of the first occurrence of s in file.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	data, _ := os.ReadFile(file)
	i := strings.Index(string(data), s)
	if i < 0 {
		t.Fatalf("%s has no %q", file, s)
	}
	return strings.Count(string(data[:i]), "\n") + 1
}

func TestScaffold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three Go modules outside the repository and runs their tests, check and the dashboard; skipped in -short mode")
	}
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	_, lab := clitest.BuildBinary(t, checkout)
	root := t.TempDir()
	names := map[algos.Family]string{algos.Election: "mybully", algos.Mutex: "mymutex", algos.Detector: "mydetector"}
	bins := map[string]string{}
	for _, fam := range []algos.Family{algos.Election, algos.Mutex, algos.Detector} {
		name := names[fam]
		t.Run(string(fam), func(t *testing.T) {
			out := clitest.Must(t, root, lab, "new", string(fam), name, "--lab", checkout)
			if !strings.Contains(out, "go run . check "+name) {
				t.Errorf("new does not say what to do next:\n%s", out)
			}
			mod := filepath.Join(root, name)
			if fam == algos.Election { // the templates are alike: one vet shows they are clean
				clitest.Must(t, mod, "go", "vet", "./...")
			}
			// The data-driven test: the election's 100 times under the race
			// detector (one race build is enough to show it), the others once.
			testArgs := []string{"test", "./..."}
			if fam == algos.Election {
				testArgs = []string{"test", "-race", "-count=100", "./..."}
			}
			out = clitest.Must(t, mod, "go", testArgs...)
			if !strings.Contains(out, "ok  \t"+name+"/"+name) {
				t.Fatalf("go %s:\n%s", strings.Join(testArgs, " "), out)
			}
			bins[name] = filepath.Join(mod, name+".bin")
			clitest.Must(t, mod, "go", "build", "-o", bins[name], ".")
			out, code := clitest.Run(t, mod, 5*time.Minute, bins[name], "check", name)
			if code != 0 {
				t.Fatalf("check %s exits %d:\n%s", name, code, out)
			}
			for _, want := range []string{"ok    determinism", "ok    rules", "ok    properties", "explore"} {
				if !strings.Contains(out, want) {
					t.Errorf("check %s does not say %q:\n%s", name, want, out)
				}
			}
			if fam == algos.Mutex && !strings.Contains(out, "ok    counts") {
				t.Errorf("check %s does not measure its Theory (3 messages per entry):\n%s", name, out)
			}
			// The scenario's expectations pass, and the dashboard opens with the
			// algorithm running.
			clitest.Must(t, mod, bins[name], "sim", "--file", "scenarios/"+name+".toml")
			if _, err := exec.LookPath("tmux"); err != nil {
				t.Log("tmux is not installed: the dashboard is not opened (apt-get install tmux)")
				return
			}
			screen := clitest.OpenDashboard(t, mod, bins[name], []string{"run", "--file", "scenarios/" + name + ".toml"})
			if !strings.Contains(screen, name) {
				t.Errorf("the dashboard does not show %s:\n%s", name, screen)
			}
		})
	}
	if t.Failed() {
		return
	}

	// Homework: nine recordings made by mybully as new wrote it.
	mod := filepath.Join(root, "mybully")
	hw := filepath.Join(root, "hw")
	os.Mkdir(hw, 0o755)
	for seed := 1; seed <= 9; seed++ {
		clitest.Must(t, mod, bins["mybully"], "sim", "--file", "scenarios/mybully.toml", "--seed", fmt.Sprint(seed), "--record", filepath.Join(hw, fmt.Sprintf("s%d.jsonl", seed)))
	}

	// Planted faults, each in a package of its own beside mybully, all built
	// into one binary. mybully itself is changed too (a longer heartbeat), so
	// that this binary's recordings are made by other code.
	algo := filepath.Join(mod, "mybully", "mybully.go")
	clitest.Must(t, root, lab, "new", "mutex", "plantlease", "--dir", "lease-src", "--lab", checkout)
	plant := func(name string, fam algos.Family) string {
		var src []byte
		if fam == algos.Mutex {
			src, _ = os.ReadFile(filepath.Join(root, "lease-src", "plantlease", "plantlease.go"))
		} else {
			data, _ := os.ReadFile(algo)
			src = []byte(strings.ReplaceAll(string(data), "mybully", name))
		}
		dir := filepath.Join(mod, name)
		os.Mkdir(dir, 0o755)
		file := filepath.Join(dir, name+".go")
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		edit(t, filepath.Join(mod, "main.go"), `_ "mybully/mybully"`, `_ "mybully/mybully"`+"\n\t_ \"mybully/"+name+"\"")
		return file
	}
	clock := plant("plantclock", algos.Election)
	clockLine := edit(t, clock, "\tswitch ev.Kind {\n\tcase node.Start, node.Recover: // a process starts", "\tif time.Now().IsZero() {\n\t\treturn\n\t}\n\tswitch ev.Kind {\n\tcase node.Start, node.Recover: // a process starts")
	goFile := plant("plantgo", algos.Election)
	goLine := edit(t, goFile, "\tswitch ev.Kind {\n\tcase node.Start, node.Recover: // a process starts", "\tgo e.Status()\n\tswitch ev.Kind {\n\tcase node.Start, node.Recover: // a process starts")
	mapFile := plant("plantmap", algos.Election)
	edit(t, mapFile, "\tfor _, p := range env.Neighbors() {\n\t\tenv.Send(p, m)",
		"\tset := map[node.ID]bool{}\n\tfor _, p := range env.Neighbors() {\n\t\tset[p] = true\n\t}\n\tfor p := range set {\n\t\tenv.Send(p, m)")
	mapLine := lineOf(t, mapFile, "for p := range set {")
	// Two leaders: a leader, once elected, listens to nobody, so an election
	// decided too early (slow links) leaves two.
	deaf := plant("plantdeaf", algos.Election)
	edit(t, deaf, "func (e *Election) onElection(env *node.Env, from node.ID, m node.Message) {\n",
		"func (e *Election) onElection(env *node.Env, from node.ID, m node.Message) {\n\tif e.leader == e.self {\n\t\treturn\n\t}\n")
	edit(t, deaf, "func (e *Election) onLeader(env *node.Env, m node.Message) {\n",
		"func (e *Election) onLeader(env *node.Env, m node.Message) {\n\tif e.leader == e.self {\n\t\treturn\n\t}\n")
	// Two inside: the coordinator takes its grant back after 60ms, taking the
	// holder for gone; a GRANT slower than 10ms and 50ms inside overlap it.
	lease := plant("plantlease", algos.Mutex)
	edit(t, lease, "\tenv.Send(p, node.Message{Type: msgGrant})\n", "\tenv.Send(p, node.Message{Type: msgGrant})\n\tenv.After(60*time.Millisecond, \"lease\")\n")
	edit(t, lease, "\t\tcase timerLeave:\n", "\t\tcase \"lease\":\n\t\t\tm.onRelease(env, m.holder)\n\t\tcase timerLeave:\n")
	edit(t, algo, `Default: "100ms", Min: "1ms", Doc: "how often the leader sends ALIVE"`, `Default: "150ms", Min: "1ms", Doc: "how often the leader sends ALIVE"`)
	planted := filepath.Join(mod, "planted.bin")
	clitest.Must(t, mod, "go", "build", "-o", planted, ".")
	clitest.Must(t, mod, planted, "sim", "--file", "scenarios/mybully.toml", "--seed", "10", "--record", filepath.Join(hw, "s10.jsonl"))

	// The faults the source shows need no search: those checks run one size and
	// no explore, to keep this test short.
	quick := []string{"--sizes", "3", "--explore", "0"}
	for _, tc := range []struct {
		name  string
		flags []string
		want  []string
	}{
		{"plantclock", quick, []string{"FAIL  rules", fmt.Sprintf("plantclock/plantclock.go:%d: time.Now reads the wall clock", clockLine)}},
		{"plantgo", quick, []string{"FAIL  rules", fmt.Sprintf("plantgo/plantgo.go:%d: a go statement starts a goroutine", goLine)}},
		{"plantmap", quick, []string{"FAIL  rules", fmt.Sprintf("plantmap/plantmap.go:%d: ranging over set gives its keys in another order at every run, and the order reaches env.Send", mapLine),
			"FAIL  determinism", "the runs differ first at event", `"ev":"send"`}},
		{"plantdeaf", []string{"--explore", "0"}, []string{"ok    rules", "FAIL  properties", "2 live leaders at the end"}},
		{"plantlease", []string{"--sizes", "3-5", "--explore", "20"}, []string{"ok    rules", "FAIL  properties", "two processes in the critical section at once at",
			"FAIL  explore", "mutual exclusion violated", "replay --at-alert "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			save := filepath.Join(root, "failing-"+tc.name)
			out, code := clitest.Run(t, mod, 5*time.Minute, planted, append([]string{"check", tc.name, "--save", save}, tc.flags...)...)
			if code != 1 {
				t.Errorf("check %s exits %d, want 1", tc.name, code)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("check %s does not say %q:\n%s", tc.name, w, out)
				}
			}
			// A failing property run is saved as a scenario that runs again.
			if saved, _ := filepath.Glob(filepath.Join(save, "*.toml")); strings.Contains(out, "FAIL  properties") {
				if len(saved) == 0 || !strings.Contains(out, "run it again: run --file "+save) {
					t.Fatalf("check --save wrote %v:\n%s", saved, out)
				}
				clitest.Must(t, mod, planted, "sim", "--file", saved[0])
			}
		})
	}

	// Grading: the nine recordings of mybully, two of them then cut and edited,
	// and the one made by the changed mybully, graded by the binary of the code
	// handed in.
	data, _ := os.ReadFile(filepath.Join(hw, "s8.jsonl"))
	os.WriteFile(filepath.Join(hw, "s8.jsonl"), data[:len(data)/2], 0o644)
	data, _ = os.ReadFile(filepath.Join(hw, "s9.jsonl"))
	os.WriteFile(filepath.Join(hw, "s9.jsonl"), []byte(strings.Replace(string(data), `"leader":"n5"`, `"leader":"n4"`, 1)), 0o644)
	out, code := clitest.Run(t, root, 5*time.Minute, bins["mybully"], "grade", hw, "--out", filepath.Join(root, "grades.csv"))
	if code != 1 {
		t.Errorf("grade exits %d, want 1 (three files fail):\n%s", code, out)
	}
	f, err := os.Open(filepath.Join(root, "grades.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"s8.jsonl": "cut", "s9.jsonl": "edited", "s10.jsonl": "foreign"}
	for _, r := range rows[1:] {
		v := want[r[0]]
		if v == "" {
			v = "pass"
		}
		if r[1] != v || r[3] != "mybully" {
			t.Errorf("grades.csv: %s is %s (%s), scenario %q; want %s", r[0], r[1], r[2], r[3], v)
		}
	}
	if len(rows) != 11 {
		t.Errorf("grades.csv has %d rows, want a header and 10", len(rows))
	}
	if _, err := os.Stat(filepath.Join(root, "grades.md")); err != nil {
		t.Errorf("no summary beside grades.csv: %v", err)
	}
	// The teacher's side: verify in the module names both codes.
	out, _ = clitest.Run(t, mod, time.Minute, bins["mybully"], "verify", filepath.Join(hw, "s10.jsonl"))
	if !strings.Contains(out, "recorded by other code") || strings.Count(out, "mybully/mybully") < 2 {
		t.Errorf("verify of a recording made by other code:\n%s", out)
	}
}
