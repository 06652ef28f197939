package membudget

import (
	"os"
	"os/exec"
	"testing"
)

// TestBuildsOnEveryOS: the lab builds for Windows and macOS as well as Linux,
// so that a student's `go run .` works on their laptop (the address-space limit,
// read with getrlimit, kept it from building for Windows).
func TestBuildsOnEveryOS(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the whole program: skipped with -short")
	}
	for _, goos := range []string{"windows", "darwin"} {
		cmd := exec.Command("go", "build", "-o", os.DevNull, "github.com/clusterlab/clusterlab")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=%s go build: %v\n%s", goos, err, out)
		}
	}
}
