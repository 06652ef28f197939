package lang

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Bad input (a scenario file, an action, a flag) is refused in one line, file:line:col:
// found X, expected Y, written in English where it is made (presets, netsim, algos).
// Error words such a line in the reader's language: the frame ("found", "expected")
// and the phrases these errors are made of, replaced outside the quoted parts and
// outside the scenario's own keys (`to = "n2"` stays `to`), so that what the user
// wrote and must type stays as it is.

// errorPhrases maps an English phrase of the errors to its Portuguese and Spanish.
var errorPhrases = map[string][2]string{
	"found ":                                {"encontrado ", "se encontró "},
	"found":                                 {"encontrado", "se encontró"},
	"from":                                  {"de", "de"},
	"in":                                    {"em", "en"},
	"(did you mean":                         {"(você quis dizer", "(¿quiso decir"},
	"valid TOML":                            {"TOML válido", "TOML válido"},
	", expected ":                           {", esperado ", ", se esperaba "},
	"expected ":                             {"esperado ", "se esperaba "},
	"a probability from 0 to 1":             {"uma probabilidade de 0 a 1", "una probabilidad de 0 a 1"},
	"a positive duration":                   {"uma duração positiva", "una duración positiva"},
	"a duration":                            {"uma duração", "una duración"},
	"a time up to":                          {"um instante até", "un instante hasta"},
	"a time such as":                        {"um instante como", "un instante como"},
	"(the run ends there)":                  {"(a execução termina aí)", "(la ejecución termina ahí)"},
	"another of the scenario's nodes":       {"outro dos nós do cenário", "otro de los nodos del escenario"},
	"one of the scenario's nodes":           {"um dos nós do cenário", "uno de los nodos del escenario"},
	"a scenario node":                       {"um nó do cenário", "un nodo del escenario"},
	"one of the parameters of":              {"um dos parâmetros de", "uno de los parámetros de"},
	"(clusterlab algos lists them)":         {"(clusterlab algos os lista)", "(clusterlab algos los lista)"},
	"one of the top-level keys":             {"uma das chaves do nível superior", "una de las claves del nivel superior"},
	"unknown key":                           {"a chave desconhecida", "la clave desconocida"},
	"one or the other":                      {"um ou outro", "uno u otro"},
	"one of":                                {"um de", "uno de"},
	"has no parameter":                      {"não tem o parâmetro", "no tiene el parámetro"},
	"no parameters":                         {"nenhum parâmetro", "ningún parámetro"},
	"no algorithm":                          {"nenhum algoritmo", "ningún algoritmo"},
	"such as":                               {"como", "como"},
	"without":                               {"sem", "sin"},
	"a finite number":                       {"um número finito", "un número finito"},
	"a whole number":                        {"um número inteiro", "un número entero"},
	"a whole factor from":                   {"um fator inteiro de", "un factor entero de"},
	"a number":                              {"um número", "un número"},
	"an integer":                            {"um inteiro", "un entero"},
	"true or false":                         {"true ou false", "true o false"},
	"the end after":                         {"o fim depois de", "el final después de"},
	"the end":                               {"o fim", "el final"},
	"nothing":                               {"nada", "nada"},
	"an action":                             {"uma ação", "una acción"},
	"an expectation":                        {"uma expectativa", "una expectativa"},
	"an alert kind":                         {"um tipo de alerta", "un tipo de alerta"},
	"a knob":                                {"um ajuste", "un ajuste"},
	"a node":                                {"um nó", "un nodo"},
	"a link between two different nodes":    {"um enlace entre dois nós diferentes", "un enlace entre dos nodos distintos"},
	"two different nodes":                   {"dois nós diferentes", "dos nodos distintos"},
	"a link":                                {"um enlace", "un enlace"},
	"a rate":                                {"uma taxa", "una tasa"},
	"a latency":                             {"uma latência", "una latencia"},
	"a table":                               {"uma tabela", "una tabla"},
	"a quoted text":                         {"um texto entre aspas", "un texto entre comillas"},
	"a quoted string":                       {"um texto entre aspas", "un texto entre comillas"},
	"a connected graph":                     {"um grafo conexo", "un grafo conexo"},
	"needs every node to reach every other": {"precisa que todo nó alcance todos os outros", "necesita que todo nodo alcance a todos los demás"},
	"unreachable from":                      {"inalcançável a partir de", "inalcanzable desde"},
	"over the edges":                        {"pelas arestas", "por las aristas"},
	"an edge with":                          {"uma aresta com", "una arista con"},
	"ends, expected two":                    {"pontas, esperadas duas", "extremos, se esperaban dos"},
	"the edge":                              {"a aresta", "la arista"},
	"a second time":                         {"pela segunda vez", "por segunda vez"},
	"(first at":                             {"(a primeira em", "(la primera en"},
	"distinct ids":                          {"ids distintos", "ids distintos"},
	"at least one id":                       {"pelo menos um id", "al menos un id"},
	"at least":                              {"pelo menos", "al menos"},
	"at most":                               {"no máximo", "como máximo"},
	"an id from":                            {"um id de", "un id de"},
	"for topology":                          {"para a topologia", "para la topología"},
	"a majority of the":                     {"uma maioria dos", "una mayoría de los"},
	"coordinators":                          {"coordenadores", "coordinadores"},
	"(the first k processes)":               {"(os k primeiros processos)", "(los k primeros procesos)"},
	"a list":                                {"uma lista", "una lista"},
	"each node in one group":                {"cada nó num só grupo", "cada nodo en un solo grupo"},
	"twice":                                 {"duas vezes", "dos veces"},
	"a message's id as the trace gives it (its mid)": {"o id de uma mensagem como o trace o dá (o seu mid)", "el id de un mensaje tal como lo da el trace (su mid)"},
	"a device, pipe or directory":                    {"um dispositivo, pipe ou diretório", "un dispositivo, tubería o directorio"},
	"a scenario file":                                {"um arquivo de cenário", "un archivo de escenario"},
	"a file over":                                    {"um arquivo de mais de", "un archivo de más de"},
	"valid TOML (key = value lines and [tables])":    {"TOML válido (linhas chave = valor e [tabelas])", "TOML válido (líneas clave = valor y [tablas])"},
	"bad TOML:":                                      {"TOML inválido:", "TOML no válido:"},
	"above":                                          {"acima de", "por encima de"},
	"below":                                          {"abaixo de", "por debajo de"},
	"(an action)":                                    {"(uma ação)", "(una acción)"},
	"(an expectation)":                               {"(uma expectativa)", "(una expectativa)"},
	"in node order":                                  {"na ordem dos nós", "en el orden de los nodos"},
	"one per node":                                   {"um por nó", "uno por nodo"},
	"sets":                                           {"conjuntos", "conjuntos"},
	"exactly":                                        {"exatamente", "exactamente"},
	"nodes":                                          {"nós", "nodos"},
	"another value":                                  {"outro valor", "otro valor"},
	"or":                                             {"ou", "o"},
	"and":                                            {"e", "y"},
	"with":                                           {"com", "con"},
	"to":                                             {"a", "a"},
}

// keyLists are the phrases after which an error lists the user's own keys (axes,
// metrics): the rest of the line stays as the user types it.
var keyLists []string

// errorWords are the phrases, longest first, as patterns that match a whole phrase
// (not the inside of a word) and not a key being assigned (`to = "n2"`).
var errorWords = sync.OnceValue(func() []*regexp.Regexp {
	keys := make([]string, 0, len(errorPhrases))
	for k := range errorPhrases {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	out := make([]*regexp.Regexp, len(keys))
	for i, k := range keys {
		q := regexp.QuoteMeta(k)
		if isWordChar(k[0]) {
			q = `(?:^|\b)` + q
		}
		if isWordChar(k[len(k)-1]) {
			q += `\b`
		}
		out[i] = regexp.MustCompile(q)
	}
	return out
})

// expandDone puts the translated phrases back in place of their runes.
func expandDone(s string, done []string) string {
	var b strings.Builder
	for _, r := range s {
		if k := int(r) - 0xE000; k >= 0 && k < len(done) {
			b.WriteString(done[k])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isWordChar(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// quotedOrKey is what Error leaves alone: a quoted text, a `code` span, a key
// followed by " =", or key=value (a cell's axis): a key is the user's word.
var quotedOrKey = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`|\\b[a-z_][a-z_.0-9\\[\\]]* =|\\b[a-z_][a-z_.0-9]*=[^\\s,]*")

// Error words an English error line in l; English is kept as it is.
func (l Lang) Error(s string) string {
	if l == En || l == "" {
		return s
	}
	i := 0
	if l == Es {
		i = 1
	}
	// A list of the user's keys (axes, metrics) after one of keyLists stays.
	tail := ""
	for _, k := range keyLists {
		if i := strings.Index(s, k); i >= 0 {
			s, tail = s[:i+len(k)], s[i+len(k):]
			break
		}
	}
	// Translate between the parts that stay.
	var b strings.Builder
	last := 0
	for _, m := range quotedOrKey.FindAllStringIndex(s, -1) {
		b.WriteString(l.errorText(s[last:m[0]], i))
		b.WriteString(s[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(l.errorText(s[last:], i))
	return b.String() + tail
}

func (l Lang) errorText(s string, i int) string {
	// Each phrase done becomes a rune of the private use area, which no phrase
	// matches, until all are done.
	var done []string
	for _, re := range errorWords() {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			done = append(done, errorPhrases[m][i])
			return string(rune(0xE000 + len(done) - 1))
		})
	}
	return expandDone(s, done)
}
