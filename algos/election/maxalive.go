package election

import (
	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/algos/detector"
	"github.com/clusterlab/clusterlab/node"
)

// The "Algoritmo do Luís" of the course notes 002: a perfect failure detector
// notifies every process of every crash, and each process outputs the highest id
// among the processes it believes active.
//
//	on initialisation:      active ← {p0 … pn}; leader ← max(active); output(leader)
//	when pi is notified:    active ← active ∖ {pi}; leader ← max(active); output(leader)
//
// It is Ω's criterion "max of the alive" (detector.Omega with max) composed with the
// perfect detector P (detector.Perfect) instead of ◊P: no composition is copied.
// It sends no message at all; its whole cost is in detection, which the notes'
// comparison with Bully points out ("menos eficiente pois obriga a detetar falhas
// em processos que não são candidatos"): every process must learn of every crash,
// where a Bully process watches only the higher ids. The new leader is known by
// everyone exactly `detect` after the crash. The world plays P's oracle, so the run
// must be synchronous (gst = "0s", no loss) and any other is refused.
//
// Departure from the notes: they assume processes never come back. Here P also
// announces a revival after `detect` (and tells the revived process who is down),
// so a revived higher id takes the lead back, as a bully would.
func newMaxAlive() node.Algorithm { return detector.NewOmega(detector.NewPerfect(), true) }

func init() {
	algos.Register(algos.Spec{
		Name:        "max-alive",
		Family:      algos.Election,
		Description: "the notes' \"Algoritmo do Luís\": on the perfect detector P, the leader is the highest id not known to have crashed; no messages",
		Source:      `course notes 002, "Algoritmo do Luís"; Chandra & Toueg 1996 (P)`,
		Params:      []algos.Param{detector.DetectParam},
		CrashNotice: detector.ReadDetect,
		Build: func(c algos.Config) (node.Factory, error) {
			if _, err := detector.ReadDetect(c.Params); err != nil {
				return nil, err
			}
			return func(node.ID) node.Algorithm { return newMaxAlive() }, nil
		},
	})
}
