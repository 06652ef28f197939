package lang

// The texts of `clusterlab serve`: what a session is told when it is refused,
// and a spectator's answer to the keys that act.
func init() {
	extend(map[Lang]map[string]string{
		En: {
			"help.cmd.serve":      "Serve the dashboard to a class over SSH: one shared world, teachers act, students watch.",
			"help.serve.listen":   "Address to listen on (the loopback unless told otherwise).",
			"help.serve.hostkey":  "The server's host key, created (mode 0600) if absent: keep it, so that students' ssh recognises the server.",
			"help.serve.teachers": "An authorized_keys file of the teachers' keys; a teacher connects as teacher@host.",
			"serve.started":       "serving %s on %s; host key %s (ssh -p PORT HOST to watch, ssh -p PORT teacher@HOST to teach; Ctrl-C ends the class)",
			"serve.watching":      "you are watching: only the teacher's keys act on this world",
			"serve.norecord":      "the server records the class itself (serve --record)",
			"serve.nocommand":     "clusterlab serve runs no commands: connect with ssh -t and no command",
			"serve.nopty":         "clusterlab serve needs a terminal: connect with ssh -t",
			"serve.notteacher":    "this key is not in the teachers' file: connect without teacher@ to watch",
			"serve.full":          "the class is full (%d sessions): try again later",
		},
		Pt: {
			"help.cmd.serve":      "Serve o painel a uma turma por SSH: um mundo compartilhado, os professores agem, os alunos assistem.",
			"help.serve.listen":   "Endereço em que escutar (o loopback, salvo indicação).",
			"help.serve.hostkey":  "A chave do servidor, criada (modo 0600) se não existir: guarde-a, para que o ssh dos alunos reconheça o servidor.",
			"help.serve.teachers": "Um arquivo authorized_keys com as chaves dos professores; um professor conecta como teacher@host.",
			"serve.started":       "servindo %s em %s; chave do servidor %s (ssh -p PORTA HOST para assistir, ssh -p PORTA teacher@HOST para ensinar; Ctrl-C encerra a aula)",
			"serve.watching":      "você está assistindo: só as teclas do professor agem neste mundo",
			"serve.norecord":      "o servidor grava a aula ele mesmo (serve --record)",
			"serve.nocommand":     "clusterlab serve não executa comandos: conecte com ssh -t e sem comando",
			"serve.nopty":         "clusterlab serve precisa de um terminal: conecte com ssh -t",
			"serve.notteacher":    "esta chave não está no arquivo dos professores: conecte sem teacher@ para assistir",
			"serve.full":          "a turma está cheia (%d sessões): tente mais tarde",
		},
		Es: {
			"help.cmd.serve":      "Sirve el panel a una clase por SSH: un mundo compartido, los profesores actúan, los alumnos miran.",
			"help.serve.listen":   "Dirección en la que escuchar (el loopback, salvo indicación).",
			"help.serve.hostkey":  "La clave del servidor, creada (modo 0600) si no existe: guárdala, para que el ssh de los alumnos reconozca el servidor.",
			"help.serve.teachers": "Un archivo authorized_keys con las claves de los profesores; un profesor se conecta como teacher@host.",
			"serve.started":       "sirviendo %s en %s; clave del servidor %s (ssh -p PUERTO HOST para mirar, ssh -p PUERTO teacher@HOST para enseñar; Ctrl-C termina la clase)",
			"serve.watching":      "estás mirando: solo las teclas del profesor actúan en este mundo",
			"serve.norecord":      "el servidor graba la clase él mismo (serve --record)",
			"serve.nocommand":     "clusterlab serve no ejecuta comandos: conéctate con ssh -t y sin comando",
			"serve.nopty":         "clusterlab serve necesita un terminal: conéctate con ssh -t",
			"serve.notteacher":    "esta clave no está en el archivo de los profesores: conéctate sin teacher@ para mirar",
			"serve.full":          "la clase está llena (%d sesiones): inténtalo más tarde",
		},
	})
}
