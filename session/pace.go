package session

import "time"

// pacer measures how fast virtual time really passes, over windows of rateWindow
// of wall time, so that the dashboard can say when the world cannot keep up with
// the speed asked for ("×0.13 of ×1, behind") instead of claiming it does.
type pacer struct {
	w0 time.Time     // the window's start, wall
	v0 time.Duration // the world's clock then
	// rate is virtual seconds per wall second over the last whole window, or 0
	// before the first one; behind says that it fell short of the speed asked
	// for. Both change only at the end of a window, with some hysteresis, so
	// that the header does not flicker.
	rate   float64
	behind bool
}

// restart starts a new window at wall time now and virtual time v: after a pause,
// which is not time the world failed to use.
func (p *pacer) restart(now time.Time, v time.Duration) {
	p.w0, p.v0 = now, v
	p.rate, p.behind = 0, false
}

// frame notes the world's clock v at wall time now, at speed (0: as fast as
// possible), and ends the window once it is rateWindow long. lag is what the
// world still owes to the speed: a world that owes nothing is not behind, even
// if the window measured a little less (the first frame of a window is late).
func (p *pacer) frame(now time.Time, v time.Duration, speed float64, lag time.Duration) {
	if p.w0.IsZero() {
		p.restart(now, v)
		return
	}
	wall := now.Sub(p.w0)
	if wall < rateWindow {
		return
	}
	p.rate = (v - p.v0).Seconds() / wall.Seconds()
	p.w0, p.v0 = now, v
	switch {
	case speed <= 0:
		p.behind = false
	case p.rate < 0.9*speed && lag > time.Duration(float64(frame)*speed):
		p.behind = true
	case p.rate >= 0.97*speed || lag <= time.Duration(float64(frame)*speed):
		p.behind = false
	}
}
