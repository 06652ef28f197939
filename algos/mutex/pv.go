package mutex

import "math"

// The notes' probability of losing mutual exclusion to amnesia, for `clusterlab
// calc pv` and quorumTheory, computed in log space: P_v itself may lie far below
// the smallest float64 (10⁻³⁰⁸), and P may too (a subnormal such as 10⁻³¹⁰).

// MaxPvN is the largest n QuorumLog10Pv is asked for (calc pv refuses more): the
// sum is taken over the terms within e⁻⁶⁰ of the largest, about 22 standard
// deviations of the binomial, so the work grows as √n: n = 10¹² is about eight
// million terms, well under a second.
const MaxPvN = 1_000_000_000_000

// pvCutoff is how far below the largest term, in natural log, a term is left out:
// a term e⁻⁶⁰ smaller, and every one beyond it (they shrink at least
// geometrically: the binomial's terms are log-concave), changes no digit of a
// float64.
const pvCutoff = -60

// QuorumLog10Pv is log₁₀ of the notes' P_v = Σ_{k=2m−n}^{n} C(m,k) P^k (1−P)^{m−k}:
// the probability that enough of the m coordinators that granted a request forget it
// for a second quorum to form. Terms with k > m are zero (C(m,k) = 0) and are
// skipped. It is -Inf when P_v is 0.
//
// Each term is a binomial probability, computed in log space by Loader's
// saddle-point method (C. Loader, "Fast and accurate computation of binomial
// probabilities", 2000), which keeps its relative error near 10⁻¹⁵ however large m
// is, where the difference of three log-gamma values of size m·log m would lose
// digits. The terms are summed outward from the largest one (the binomial's mode,
// or 2m−n when the mode lies below it) until they fall e⁻⁶⁰ below it, so the work
// does not depend on n, but on the spread of the binomial around its mode. n is at
// most MaxPvN.
func QuorumLog10Pv(n, m int, p float64) float64 {
	lo, hi := max(2*m-n, 0), min(n, m)
	switch {
	case p <= 0 || lo > hi || math.IsNaN(p):
		return math.Inf(-1)
	case p >= 1:
		if hi == m {
			return 0 // only k = m is not zero, and it is 1
		}
		return math.Inf(-1)
	}
	b := newBinomial(m, p)
	mode := min(max(int(math.Floor(float64(m+1)*p)), lo), hi)
	top := b.logTerm(mode)
	sum := 1.0
	for k := mode + 1; k <= hi; k++ {
		d := b.logTerm(k) - top
		if d < pvCutoff {
			break
		}
		sum += math.Exp(d)
	}
	for k := mode - 1; k >= lo; k-- {
		d := b.logTerm(k) - top
		if d < pvCutoff {
			break
		}
		sum += math.Exp(d)
	}
	return (top + math.Log(sum)) / math.Ln10
}

// binomial is Binomial(m, p) for its log probabilities.
type binomial struct {
	m            float64
	p, q         float64
	lp, lq       float64 // log p, log q
	lmp, lmq     float64 // log(m·p), log(m·q)
	stirM, halfM float64 // stirlerr(m), log(m/2π)/2
}

func newBinomial(m int, p float64) *binomial {
	b := &binomial{m: float64(m), p: p, q: 1 - p, lp: logOf(p)}
	if p < 0.5 {
		b.lq = math.Log1p(-p)
	} else {
		b.lq = logOf(b.q) // 1 − p is exact for p ≥ 0.5
	}
	lm := math.Log(b.m)
	b.lmp, b.lmq = lm+b.lp, lm+b.lq
	b.stirM, b.halfM = stirlerr(b.m), 0.5*(lm-math.Log(2*math.Pi))
	return b
}

// logTerm is log P(X = k) = log C(m,k) + k·log p + (m−k)·log q.
func (b *binomial) logTerm(k int) float64 {
	x := float64(k)
	switch {
	case k == 0:
		return b.m * b.lq
	case x == b.m:
		return b.m * b.lp
	}
	y := b.m - x
	return b.stirM - stirlerr(x) - stirlerr(y) - bd0(x, b.m*b.p, b.lmp) - bd0(y, b.m*b.q, b.lmq) +
		b.halfM - 0.5*(math.Log(x)+math.Log(y))
}

// logOf is log x for x > 0, subnormals included: Go's math.Log reads a subnormal
// as a far larger number on amd64 (log(1e-310) comes out as −709.09, not −713.80),
// so the exponent is taken apart first.
func logOf(x float64) float64 {
	frac, exp := math.Frexp(x)
	return math.Log(frac) + float64(exp)*math.Ln2
}

// stirlerr is the error of Stirling's formula, log(x!) − (x+½)·log x + x − log √(2π),
// for x ≥ 1: from log-gamma for small x, where it is exact enough, and from its
// asymptotic series (1/12x − 1/360x³ + 1/1260x⁵ − 1/1680x⁷ + 1/1188x⁹) beyond.
func stirlerr(x float64) float64 {
	if x <= 15 {
		lg, _ := math.Lgamma(x + 1)
		return lg - (x+0.5)*math.Log(x) + x - 0.5*math.Log(2*math.Pi)
	}
	const s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
	x2 := x * x
	return (s0 - (s1-(s2-(s3-s4/x2)/x2)/x2)/x2) / x
}

// bd0 is x·log(x/mu) + mu − x, the deviance term, without the cancellation of its
// direct form when x is near mu (then by its series in v = (x−mu)/(x+mu)). lmu is
// log mu, given apart because mu may be subnormal.
func bd0(x, mu, lmu float64) float64 {
	if math.Abs(x-mu) < 0.1*(x+mu) {
		v := (x - mu) / (x + mu)
		s := (x - mu) * v
		ej := 2 * x * v
		v2 := v * v
		for j := 3.0; j < 1000; j += 2 {
			ej *= v2
			s1 := s + ej/j
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*(math.Log(x)-lmu) + mu - x
}
