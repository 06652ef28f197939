package lang

// The texts of `clusterlab calc`.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"calc.err.n": "--n: found %d, expected 1 to %s coordinators",
			"calc.err.m": "--m: found %d, expected a majority of %d: %d to %d",
			"calc.err.p": "--p: found %v, expected a probability from 0 to 1",
		},
		Pt: {
			"calc.err.n": "--n: encontrado %d, esperado de 1 a %s coordenadores",
			"calc.err.m": "--m: encontrado %d, esperada uma maioria de %d: de %d a %d",
			"calc.err.p": "--p: encontrado %v, esperada uma probabilidade de 0 a 1",
		},
		Es: {
			"calc.err.n": "--n: se encontró %d, se esperaban de 1 a %s coordinadores",
			"calc.err.m": "--m: se encontró %d, se esperaba una mayoría de %d: de %d a %d",
			"calc.err.p": "--p: se encontró %v, se esperaba una probabilidad de 0 a 1",
		},
	})
}
