// Package owntest tests students' own modules end to end, outside this
// repository: `clusterlab new` for each family, the module's tests, check, the
// dashboard, planted faults, grade, and the page docs/own-algorithm.md. It has
// no code of its own; its tests build real modules and are skipped in -short
// mode.
package owntest
