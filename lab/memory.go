package lab

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/session"
)

// doing says what the command is doing, for the line of a command stopped by the
// memory budget: "while verify re-ran hw.jsonl". Commands set it (setDoing); it
// starts as the command line.
var doing atomic.Pointer[string]

func setDoing(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	doing.Store(&s)
}

// onOverBudget, if set, stops the command in its own way when the watch finds the
// heap over the budget (the dashboard, which must give the terminal back first);
// otherwise the watch removes the command's unfinished outputs, prints one line
// and exits 3 itself.
var onOverBudget atomic.Pointer[func(error)]

// watchMemory sets the memory budget, --max-memory or the machine's default, and
// watches the heap until stop is called (see membudget).
func watchMemory(flag string) (stop func(), err error) {
	budget := membudget.Default()
	if flag != "" {
		if budget, err = membudget.Parse(flag); err != nil {
			return nil, fmt.Errorf("--max-memory: %v", err)
		}
		if budget < membudget.Floor {
			return nil, fmt.Errorf("--max-memory: found %s, expected at least %s", flag, membudget.Bytes(membudget.Floor))
		}
	}
	membudget.Set(budget)
	cmd := "the dashboard"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd = "clusterlab " + args[0]
	}
	setDoing("while %s ran", cmd)
	return membudget.Watch(func() string { return *doing.Load() }, "", overBudget), nil
}

// overBudget is the watch's stop: see onOverBudget.
func overBudget(err *membudget.Exceeded) {
	if f := onOverBudget.Load(); f != nil {
		(*f)(err)
		return
	}
	session.RemovePending()
	fmt.Fprintf(os.Stderr, "clusterlab: %s\n", termtext.Line(err.Error()))
	os.Exit(exitResource)
}
