package sweep

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
)

// Run is one run of the grid: a cell and a seed. Index numbers the runs cell by cell,
// seed by seed; it is what shards split on and what orders results.csv.
type Run struct {
	Index int
	Cell  int
	Seed  uint64
}

// Result is what one run measured.
type Result struct {
	Run
	Passed bool
	// Completed is false when the run ended (at until) before its algorithm
	// finished: see Sweep.Completed.
	Completed bool
	Hash      string
	Values    map[string]float64
	Failures  []string      // expectations that did not hold, the scenario's and the sweep's
	Wall      time.Duration // not in results.csv: it differs between machines
	// theory is the textbook's figures for the run, by metric, kept from the run
	// so that the outputs need not resolve it again; nil for a result read back
	// from results.csv.
	theory map[string][]algos.Theory
	// interrupted: a signal stopped the run before its end; it is left out.
	interrupted bool
}

// Shard is a deterministic slice of the runs: the runs whose index is I−1 modulo K.
type Shard struct{ I, K int }

// ParseShard reads "i/k".
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.I, &sh.K); err != nil || sh.K < 1 || sh.I < 1 || sh.I > sh.K || fmt.Sprintf("%d/%d", sh.I, sh.K) != s {
		return Shard{}, fmt.Errorf("--shard: found %q, expected i/k with 1 <= i <= k, such as 2/3", s)
	}
	return sh, nil
}

// Plan is a sweep ready to run: the metric columns, and the runs of a shard. The
// runs are not listed: run k of the shard is computed when it is taken, so that a
// grid of 100,000 cells × 100,000 seeds plans in no memory.
type Plan struct {
	*Sweep
	Columns []string
	Shard   Shard
	// Program names the program in the header a recording of a run would have
	// ("clusterlab dev"): trace_hash is that recording's hash.
	Program string
	// DPI is the PNG plots' resolution (0: DefaultDPI).
	DPI int

	ui      lang.Lang // of report.md and what is printed
	command string    // the canonical command (see canonical)
}

// NewPlan makes the plan of the shard's runs (all for a zero Shard).
func NewPlan(s *Sweep, shard Shard) (*Plan, error) {
	var specs []algos.Spec
	for _, a := range s.algorithms {
		spec, ok := algos.Lookup(a)
		if !ok {
			return nil, fmt.Errorf("no algorithm %q", a) // the cells were checked: unreachable
		}
		specs = append(specs, spec)
	}
	return &Plan{Sweep: s, Columns: columns(specs), Shard: shard}, nil
}

// Total is the number of runs of the whole grid.
func (p *Plan) Total() int { return p.CellCount() * len(p.SeedList) }

// Runs is the number of runs of the plan's shard.
func (p *Plan) Runs() int {
	n := p.Total()
	if p.Shard.K == 0 {
		return n
	}
	if n < p.Shard.I {
		return 0
	}
	return (n-p.Shard.I)/p.Shard.K + 1
}

// Run is run k of the shard.
func (p *Plan) Run(k int) Run {
	i := k
	if p.Shard.K > 0 {
		i = k*p.Shard.K + p.Shard.I - 1
	}
	seeds := len(p.SeedList)
	return Run{Index: i, Cell: i / seeds, Seed: p.SeedList[i%seeds]}
}

// resolve makes the run's configuration and the textbook's figures for it.
func (p *Plan) resolve(r Run) (netsim.Config, map[string][]algos.Theory, error) {
	sc, cfg, err := p.Reproduce(r)
	if err != nil {
		return cfg, nil, err
	}
	figures, err := sc.Theory(cfg)
	if err != nil {
		return cfg, nil, err
	}
	th := map[string][]algos.Theory{}
	for _, t := range figures {
		th[t.Metric] = append(th[t.Metric], t)
	}
	return cfg, th, nil
}

// theoryValue is the first (primary) figure for metric, NaN without one.
func theoryValue(th map[string][]algos.Theory, metric string) float64 {
	if ts := th[metric]; len(ts) > 0 {
		return ts[0].Value
	}
	return nan
}

// dispatchChunk is how many consecutive runs are started biggest world first; the
// results wait for those before them in at most two chunks' room.
const dispatchChunk = 1024

// Execute runs the plan's runs over jobs workers (every core for jobs < 1) and
// hands each result to sink in run order, from one goroutine at a time. When ctx
// is cancelled no run starts any more and the runs under way stop and are left
// out: sink has had every run that ended. It returns how many did.
func (p *Plan) Execute(ctx context.Context, jobs int, sink func(Result)) int {
	n := p.Runs()
	if n == 0 {
		return 0
	}
	defer holdGC()()
	// The biggest worlds of each chunk first: a sweep's cost grows with the node
	// count, and a big run started last would keep one worker busy while the
	// others idle.
	var mu sync.Mutex
	next, order := 0, []int(nil)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= n || ctx.Err() != nil {
			return 0, false
		}
		if next%dispatchChunk == 0 {
			order = order[:0]
			for k := next; k < min(next+dispatchChunk, n); k++ {
				order = append(order, k)
			}
			slices.SortStableFunc(order, func(a, b int) int {
				return cmp.Compare(p.nodes[p.Run(b).Cell], p.nodes[p.Run(a).Cell])
			})
		}
		k := order[next%dispatchChunk]
		next++
		return k, true
	}
	room := make(chan struct{}, 2*dispatchChunk) // a token per run taken and not yet handed on
	results := make(chan Result, workers(jobs))
	// Jobs that fill the cores hash their traces themselves: a hashing goroutine
	// pays only where a core would otherwise idle, as beside a single job.
	inline := min(workers(jobs), n) >= runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for range min(workers(jobs), n) {
		wg.Go(func() {
			for {
				select {
				case room <- struct{}{}:
				case <-ctx.Done():
					return
				}
				k, ok := take()
				if !ok {
					<-room
					return
				}
				r := p.execute(ctx, p.Run(k), inline)
				r.Index = k // the position in the shard until handed on
				results <- r
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	pending := map[int]Result{}
	want, ended := 0, 0
	hand := func(r Result) {
		<-room
		if r.interrupted {
			return
		}
		r.Index = p.Run(r.Index).Index
		ended++
		tuneGC()
		sink(r)
	}
	for r := range results {
		pending[r.Index] = r
		for {
			r, ok := pending[want]
			if !ok {
				break
			}
			delete(pending, want)
			want++
			hand(r)
		}
	}
	// Stopped early: what ended after a run that never started.
	ks := make([]int, 0, len(pending))
	for k := range pending {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	for _, k := range ks {
		hand(pending[k])
	}
	return ended
}

// each calls f(0), f(1), …, f(n−1), in that order, from jobs goroutines (every
// core for jobs < 1), and returns when every call has. A worker takes the next
// index itself, so that no call waits for a goroutine to be woken to hand it over.
func each(jobs, n int, f func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers(jobs), n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		})
	}
	wg.Wait()
}

// workers is how many goroutines jobs asks for: every core for jobs < 1.
func workers(jobs int) int {
	if jobs < 1 {
		return runtime.NumCPU()
	}
	return jobs
}

// header is the header line a recording of the run would start with: the trace
// hash covers it, as a recording's does.
func (p *Plan) header(cfg netsim.Config) []byte {
	line, _ := json.Marshal(trace.Header{Format: trace.Format, Version: trace.Version, Program: p.Program, Scenario: cfg.Scenario})
	return line
}

// execute runs r; inline hashes its trace in the caller's goroutine.
func (p *Plan) execute(ctx context.Context, r Run, inline bool) Result {
	start := time.Now()
	res := Result{Run: r}
	cfg, th, err := p.resolve(r)
	res.theory = th
	var sum *netsim.Summary
	if err == nil {
		var w *netsim.World
		c := newCollector(cfg.IDs, inline)
		c.hash.Header(p.header(cfg))
		// The parallelism of a sweep is across runs: each world hands its
		// processes one event at a time, which makes the same trace (the
		// determinism tests prove it) for 2–3× less CPU than parallel windows on
		// these small worlds, and leaves the other cores to the other jobs.
		cfg.Sequential = true
		if w, err = netsim.New(cfg, c); err == nil {
			stop := context.AfterFunc(ctx, w.Halt)
			w.RunUntil(cfg.Until)
			stop()
			if ctx.Err() != nil {
				w.Close()
				res.interrupted = true
				return res
			}
			if err = w.Err(); err == nil {
				w.Finish()
				sum = w.Summary()
				// As written to results.csv and read back: a summary made from
				// merged shards then equals one made in a single process.
				res.Values = roundTrip(measure(p.Columns, c, sum))
				res.Hash = c.hash.Sum()
				res.Failures = failures(sum)
			}
			w.Close()
		}
	}
	if err != nil {
		res.Failures = []string{lang.En.F("sweep.fail.start", err.Error())}
	}
	if res.Values != nil {
		for _, ch := range p.Checks {
			if msg := ch.eval(metric(res.Values, ch.metric), theoryValue(th, ch.metric)); msg != "" {
				res.Failures = append(res.Failures, msg)
			}
		}
		sc := p.Cell(r.Cell).Scenario
		res.Completed = p.finished(sc.Params, sum, res.Values, th)
		if !res.Completed && !p.AllowIncomplete {
			res.Failures = append(res.Failures, lang.En.F("sweep.fail.cut", cfg.Until.String(), p.finishWhat(lang.En, sc.Algorithm)))
		}
	}
	res.Passed = len(res.Failures) == 0
	res.Wall = time.Since(start)
	return res
}

// metric is a run's value of m, NaN when it has none.
func metric(values map[string]float64, m string) float64 {
	if v, ok := values[m]; ok {
		return v
	}
	return nan
}

// Describe names a run for messages: its cell and seed.
func (p *Plan) Describe(r Run) string {
	return strings.TrimSpace(p.label(p.values(r.Cell), " ") + fmt.Sprintf(" seed=%d", r.Seed))
}
