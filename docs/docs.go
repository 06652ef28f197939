// Package docs embeds the guides (this folder's pages, and the student's and the
// teacher's in Portuguese and Spanish) for `clusterlab help TOPIC`.
package docs

import "embed"

// Pages holds every page: NAME.md, pt/NAME.md, es/NAME.md.
//
//go:embed *.md pt/*.md es/*.md
var Pages embed.FS
