package mutex

import (
	"math"
	"math/big"
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

// exactPv is P_v summed with 512-bit floats, term by term: the reference.
func exactPv(n, m int, p float64) *big.Float {
	const prec = 512
	bp := new(big.Float).SetPrec(prec).SetFloat64(p)
	bq := new(big.Float).SetPrec(prec).Sub(new(big.Float).SetPrec(prec).SetInt64(1), bp)
	sum := new(big.Float).SetPrec(prec)
	for k := max(2*m-n, 0); k <= m; k++ {
		c := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Binomial(int64(m), int64(k)))
		for range k {
			c.Mul(c, bp)
		}
		for range m - k {
			c.Mul(c, bq)
		}
		sum.Add(sum, c)
	}
	return sum
}

// log10Big is log₁₀ of a positive big.Float, to float64 precision.
func log10Big(x *big.Float) float64 {
	mant := new(big.Float)
	exp := x.MantExp(mant)
	f, _ := mant.Float64()
	return (math.Log(f) + float64(exp)*math.Ln2) / math.Ln10
}

// TestQuorumPvExact: against the sum with 512-bit floats, for every majority m of
// n up to 60 and P from 10⁻³¹⁰ (a subnormal) to 0.99: log₁₀ P_v within 10⁻¹³.
func TestQuorumPvExact(t *testing.T) {
	for _, p := range []float64{1e-310, 1e-300, 1e-30, 1e-4, 0.01, 0.3, 0.5, 0.7, 0.99} {
		for _, n := range []int{1, 2, 3, 5, 8, 13, 32, 60} {
			for m := n/2 + 1; m <= n; m++ {
				want := log10Big(exactPv(n, m, p))
				if got := QuorumLog10Pv(n, m, p); math.Abs(got-want) > 1e-13*max(1, math.Abs(want)) {
					t.Errorf("log10 P_v(n=%d, m=%d, P=%g) = %.15g, want %.15g", n, m, p, got, want)
				}
			}
		}
	}
}

// TestQuorumPvSubnormal: P = 10⁻³¹⁰ is below float64's normal range; the issue's
// case gave 3.35e-308 where P_v is 3·P − 3·P² + P³ ≈ 3e-310.
func TestQuorumPvSubnormal(t *testing.T) {
	if got, want := QuorumLog10Pv(5, 3, 1e-310), math.Log10(3)-310; math.Abs(got-want) > 1e-12 {
		t.Errorf("log10 P_v(5, 3, 1e-310) = %.15g, want %.15g", got, want)
	}
}

// TestQuorumPvLarge: n = 10⁹ sums only the terms near the mode, in bounded memory;
// P_v of a binomial's upper tail from its mean is about one half.
func TestQuorumPvLarge(t *testing.T) {
	// m = 6·10⁸ of n = 10⁹, P = 0.3: the mode 1.8·10⁸ lies below 2m−n = 2·10⁸,
	// 1,782 standard deviations away. The tail from a = k/m = 1/3 is e^(−m·KL(a‖P))
	// times a factor polynomial in m (a few powers of ten here).
	a, p := 1.0/3, 0.3
	kl := a*math.Log(a/p) + (1-a)*math.Log((1-a)/(1-p))
	if got, chernoff := QuorumLog10Pv(1_000_000_000, 600_000_000, p), -6e8*kl/math.Ln10; !(got < chernoff && got > chernoff-10) {
		t.Errorf("log10 P_v(1e9, 6e8, 0.3) = %v, want just below the Chernoff bound %v", got, chernoff)
	}
	// k from 2m−n = 2·10⁸ with P = 0.5: the mode 3·10⁸ is inside, and the sum is
	// nearly the whole binomial.
	if got := QuorumLog10Pv(1_000_000_000, 600_000_000, 0.5); math.Abs(got) > 1e-12 {
		t.Errorf("log10 P_v(1e9, 6e8, 0.5) = %v, want 0 (P_v ≈ 1)", got)
	}
	// n = m = MaxPvN, P = 1/2: the one term k = m is 2^−m.
	if got, want := QuorumLog10Pv(MaxPvN, MaxPvN, 0.5), -float64(MaxPvN)*math.Log10(2); math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("log10 P_v(MaxPvN, MaxPvN, 0.5) = %v, want %v", got, want)
	}
}

func BenchmarkQuorumPvBillion(b *testing.B) {
	for b.Loop() {
		QuorumLog10Pv(1_000_000_000, 600_000_000, 0.5)
	}
}
