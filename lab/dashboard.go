package lab

import "strings"

// opensPaused reports whether the dashboard opens preset paused at t=0, saying how
// to start, when no speed is asked for: the default demo and the course notes'
// presets, whose first election at ×1 is over before the eye finds it.
func opensPaused(preset string) bool {
	return preset == defaultPreset || strings.HasPrefix(preset, "notes-")
}
