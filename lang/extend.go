package lang

// extend adds a feature's texts to the catalogs. A feature with many texts keeps
// them in its own file (explore.go, grade.go, …) and calls extend from an init
// function, instead of growing en.go, pt.go and es.go: one file per feature keeps
// each change to the catalogs in one place. A key given twice is a bug, and panics
// at start-up, where every test sees it.
func extend(texts map[Lang]map[string]string) {
	for l, m := range texts {
		c := catalogs[l]
		for k, v := range m {
			if _, dup := c[k]; dup {
				panic("lang: key " + k + " is defined twice in " + string(l))
			}
			c[k] = v
		}
	}
}
