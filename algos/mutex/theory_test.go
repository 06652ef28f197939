package mutex

import (
	"math"
	"testing"
)

// TestQuorumPv checks the notes' example (n = 32, m = 0.75n, P = 10⁻⁴ gives
// P_v < 10⁻⁴⁰) and a case small enough to sum by hand.
func TestQuorumPv(t *testing.T) {
	if got := QuorumLog10Pv(32, 24, 1e-4); got >= -40 {
		t.Errorf("log10 P_v(32, 24, 1e-4) = %v, want below -40", got)
	}
	// n = 3, m = 2: k from 1 to 2: C(2,1)P(1−P) + C(2,2)P² = 2P − P².
	p := 0.1
	if got, want := math.Pow(10, QuorumLog10Pv(3, 2, p)), 2*p-p*p; math.Abs(got-want) > 1e-12 {
		t.Errorf("P_v(3, 2, 0.1) = %v, want %v", got, want)
	}
	if !math.IsInf(QuorumLog10Pv(3, 2, 0), -1) {
		t.Error("P = 0 should give P_v = 0")
	}
	// Far below float64's range, log space still answers.
	if got := QuorumLog10Pv(64, 48, 1e-300); math.IsInf(got, 0) || got > -9000 {
		t.Errorf("log10 P_v(64, 48, 1e-300) = %v", got)
	}
}
