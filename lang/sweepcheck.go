package lang

// The progress line of a sweep's check of its cells (every cell is built once
// before any run, which takes seconds for a big grid): with its bar, at most 79
// columns at 100,000 cells, so that it never wraps on an 80-column terminal.
func init() {
	extend(map[Lang]map[string]string{
		En: {"sweep.progress.check": "checking cells %d/%d · %.0f/s · ETA %v"},
		Pt: {"sweep.progress.check": "verificando células %d/%d · %.0f/s · faltam %v"},
		Es: {"sweep.progress.check": "comprobando celdas %d/%d · %.0f/s · faltan %v"},
	})
}
