package sweep

import (
	"fmt"
	"sync/atomic"
)

// write writes the outputs made of the results into the folder, over jobs workers
// (every core for jobs < 1): the plots take as long to draw as a small sweep takes
// to run. Each file is the same bytes for any jobs.
func (p *Plan) write(f *folder, o *outputs, figs []figure, info reportInfo, jobs int) error {
	defer holdGC()()
	file := func(name string, data func() []byte) func() error {
		return func() error { return f.write(name, data()) }
	}
	// The plots first, as they take longest: each PNG in bands, joined and written
	// by the task that draws its last band (while the other workers go on with
	// other files), and the SVG.
	var tasks []func() error
	for _, fig := range figs {
		bands := make([]pngPart, pngBands)
		var left atomic.Int32
		left.Store(pngBands)
		for i := range pngBands {
			tasks = append(tasks, func() (err error) {
				if bands[i], err = fig.pngBand(i); err == nil && left.Add(-1) == 0 {
					var b []byte
					if b, err = joinPNG(bands); err == nil {
						return f.write(fig.file+".png", b)
					}
				}
				if err != nil {
					return fmt.Errorf("plot %s: %v", fig.file, err)
				}
				return nil
			})
		}
		tasks = append(tasks, func() error {
			b, err := fig.svg()
			if err != nil {
				return fmt.Errorf("plot %s: %v", fig.file, err)
			}
			return f.write(fig.file+".svg", b)
		})
	}
	tasks = append(tasks,
		file(SweepFile, func() []byte { return p.Source }),
		file(ScenarioFile, func() []byte { return p.base }),
		file(SeedsFile, p.seedsText),
		file(CommandFile, func() []byte { return []byte(p.command + "\n") }),
		file(ReportFile, func() []byte { return p.report(o, figs, info) }))
	errs := make([]error, len(tasks))
	each(jobs, len(tasks), func(i int) { errs[i] = tasks[i]() })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
