package detector

import (
	"strings"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// Perfect is the perfect failure detector P (Chandra & Toueg, "Unreliable failure
// detectors for reliable distributed systems", JACM 1996: strong completeness and
// strong accuracy), the detector the course notes 002 assume for every election
// ("O detetor de falhas é perfeito"; "Algoritmo do Luís": "um detetor de falhas
// que notifica todos os processos sempre que algum falha").
//
// It sends no message. The world plays the oracle (algos.Spec.CrashNotice): exactly
// `detect` after a process crashes, every live process gets the request
// "crashed nX" and suspects nX; `detect` after it comes back, "recovered nX" and
// trusts it again (a revived process is told who is down). So it never suspects a
// process that is up (accuracy) and suspects every crashed one (completeness), and
// every crash is detected after exactly `detect`, by everyone.
//
// The notes say why such a detector can exist only in a synchronous system with a
// reliable network ("Deteção de falhas": "o sistema seja síncrono … não hajam
// falhas na rede"): a scenario for an algorithm on P with gst other than 0 or with
// loss is refused, with that reason. The oracle is the lab's stand-in for the
// timeouts a synchronous system would use; what the notes compare ("Bully vs
// Luís") is who has to watch whom, which Status.Suspects shows.
type Perfect struct {
	suspects idSet
}

// NewPerfect makes a fresh P (one per incarnation of the host).
func NewPerfect() *Perfect { return &Perfect{} }

// Start does nothing: notices come from the world.
func (d *Perfect) Start(*node.Env) {}

// Handle takes the world's notices "crashed nX" and "recovered nX".
func (d *Perfect) Handle(env *node.Env, ev node.Event) bool {
	if ev.Kind != node.Request {
		return false
	}
	_, who, _ := strings.Cut(ev.Name, " ")
	p, ok := node.ParseID(who)
	switch {
	case !ok:
		return false
	case ev.Name == algos.CrashedRequest(p):
		if d.suspects.add(p) {
			env.Logf("P: %v crashed", p)
		}
	case ev.Name == algos.RecoveredRequest(p):
		if d.suspects.remove(p) {
			env.Logf("P: %v is back", p)
		}
	default:
		return false
	}
	return true
}

// Suspects lists the processes known to be down.
func (d *Perfect) Suspects() []node.ID { return d.suspects }

// Suspected reports whether p is known to be down.
func (d *Perfect) Suspected(p node.ID) bool { return d.suspects.has(p) }

// DetectParam is the parameter of P's notice delay; hosts declare it too.
var DetectParam = algos.Param{Name: "detect", Default: "100ms", Min: "1µs",
	Doc: "P: how long after a crash (or revival) every live process is told of it; the run must be synchronous (gst = \"0s\", no loss)"}

// ReadDetect reads DetectParam, positive by its declared minimum.
func ReadDetect(p algos.Params) (time.Duration, error) { return p.Duration(DetectParam.Name) }

func init() {
	algos.Register(algos.Spec{
		Name:        "perfect",
		Family:      algos.Detector,
		Description: "P, the perfect failure detector: every live process learns of every crash after exactly `detect`; synchronous runs only",
		Source:      `Chandra & Toueg 1996 (P); course notes 002, "Deteção de falhas"`,
		Params:      []algos.Param{DetectParam},
		CrashNotice: ReadDetect,
		Build: func(c algos.Config) (node.Factory, error) {
			if _, err := ReadDetect(c.Params); err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm { return &Monitor{FD: NewPerfect()} }, nil
		},
	})
}
