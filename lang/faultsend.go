package lang

// The texts of the scenario key faults.end, where every fault ends: the comment a
// liveness finding's scenario carries above it, and the story's clause for it.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"explore.story.restore": "every fault ends at %s: the network heals, every node down recovers, GST holds",
			"explore.toml.end":      "When every fault ends: the network heals, every node down recovers, slow nodes run at speed, loss and duplication return to [network]'s, and GST holds. It belongs to the property (liveness is judged after it), not to the finding's actions.",
		},
		Pt: {
			"explore.story.restore": "toda falha termina em %s: a rede se recupera, todo nó caído se recupera, vale o GST",
			"explore.toml.end":      "Quando toda falha termina: a rede se recupera, todo nó caído se recupera, os nós lentos voltam à velocidade normal, perda e duplicação voltam aos valores de [network], e vale o GST. Faz parte da propriedade (a vivacidade é julgada depois), não das ações do achado.",
		},
		Es: {
			"explore.story.restore": "toda falla termina en %s: la red se recupera, todo nodo caído se recupera, rige el GST",
			"explore.toml.end":      "Cuando toda falla termina: la red se recupera, todo nodo caído se recupera, los nodos lentos vuelven a su velocidad, la pérdida y la duplicación vuelven a los valores de [network], y rige el GST. Pertenece a la propiedad (la vivacidad se juzga después), no a las acciones del hallazgo.",
		},
	})
}
