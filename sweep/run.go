package sweep

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/netsim"
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
	Passed   bool
	Hash     string
	Values   map[string]float64
	Failures []string      // expectations that did not hold, the scenario's and the sweep's
	Wall     time.Duration // not in results.csv: it differs between machines
	// theory is the textbook's figures for the run, by metric, kept from the run
	// so that the outputs need not resolve it again; nil for a result read back
	// from results.csv.
	theory map[string][]algos.Theory
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

// Plan is a sweep ready to run: its cells, the metric columns, and the runs.
type Plan struct {
	*Sweep
	Cells   []Cell
	Columns []string
	Runs    []Run
}

// NewPlan builds every cell and lists the runs of the shard (all for a zero Shard).
func NewPlan(s *Sweep, shard Shard) (*Plan, error) {
	cells := s.checked
	s.checked = nil // a plan's cells are its own
	if cells == nil {
		var err error
		if cells, err = s.Cells(); err != nil {
			return nil, err
		}
	}
	var specs []algos.Spec
	for _, c := range cells {
		spec, _ := algos.Lookup(c.Scenario.Algorithm)
		if !slices.ContainsFunc(specs, func(x algos.Spec) bool { return x.Name == spec.Name }) {
			specs = append(specs, spec)
		}
	}
	p := &Plan{Sweep: s, Cells: cells, Columns: columns(specs)}
	for _, c := range cells {
		for si, seed := range s.SeedList {
			i := c.Index*len(s.SeedList) + si
			if shard.K == 0 || i%shard.K == shard.I-1 {
				p.Runs = append(p.Runs, Run{Index: i, Cell: c.Index, Seed: seed})
			}
		}
	}
	return p, nil
}

// resolve makes the run's configuration and the textbook's figures for it.
func (p *Plan) resolve(r Run) (netsim.Config, map[string][]algos.Theory, error) {
	sc := *p.Cells[r.Cell].Scenario
	sc.Seed = r.Seed
	cfg, err := sc.Resolve()
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

// Execute runs the plan's runs over jobs workers (every core for jobs < 1). done is
// called after each run, from one goroutine at a time. The results come back in run
// order whatever the order they finished in.
func (p *Plan) Execute(jobs int, done func(finished int, r Result)) []Result {
	// The biggest worlds first: a sweep's cost grows with the node count, and a big
	// run started last would keep one worker busy while the others idle.
	nodes := make([]int, len(p.Cells))
	for i, c := range p.Cells {
		nodes[i] = len(c.Scenario.NodeIDs())
	}
	order := make([]int, len(p.Runs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return nodes[p.Runs[b].Cell] - nodes[p.Runs[a].Cell] })
	defer holdGC()()
	out := make([]Result, len(p.Runs))
	var mu sync.Mutex
	finished := 0
	// Jobs that fill the cores hash their traces themselves: a hashing goroutine
	// pays only where a core would otherwise idle, as beside a single job.
	inline := min(workers(jobs), len(order)) >= runtime.GOMAXPROCS(0)
	each(jobs, len(order), func(k int) {
		i := order[k]
		out[i] = p.execute(p.Runs[i], inline)
		mu.Lock()
		defer mu.Unlock()
		finished++
		tuneGC()
		if done != nil {
			done(finished, out[i])
		}
	})
	return out
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

// execute runs r; inline hashes its trace in the caller's goroutine.
func (p *Plan) execute(r Run, inline bool) Result {
	start := time.Now()
	res := Result{Run: r}
	cfg, th, err := p.resolve(r)
	res.theory = th
	if err == nil {
		var w *netsim.World
		c := newCollector(cfg.IDs, inline)
		// The parallelism of a sweep is across runs: each world hands its
		// processes one event at a time, which makes the same trace (the
		// determinism tests prove it) for 2–3× less CPU than parallel windows on
		// these small worlds, and leaves the other cores to the other jobs.
		cfg.Sequential = true
		if w, err = netsim.New(cfg, c); err == nil {
			w.RunUntil(cfg.Until)
			w.Finish()
			sum := w.Summary()
			w.Close()
			// As written to results.csv and read back: a summary made from merged
			// shards then equals one made in a single process.
			res.Values = roundTrip(measure(p.Columns, c, sum))
			res.Hash = c.hash.Sum()
			res.Failures = failures(sum)
		}
	}
	if err != nil {
		res.Failures = []string{"the run did not start: " + err.Error()}
	}
	for _, ch := range p.Checks {
		if res.Values == nil {
			break
		}
		got, ok := res.Values[ch.metric]
		if !ok {
			got = nan
		}
		if msg := ch.eval(got, theoryValue(th, ch.metric)); msg != "" {
			res.Failures = append(res.Failures, msg)
		}
	}
	res.Passed = len(res.Failures) == 0
	res.Wall = time.Since(start)
	return res
}

// Describe names a run for messages: its cell and seed.
func (p *Plan) Describe(r Run) string {
	return strings.TrimSpace(p.Label(p.Cells[r.Cell]) + fmt.Sprintf(" seed=%d", r.Seed))
}
