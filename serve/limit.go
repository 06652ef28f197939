package serve

import (
	"net"
	"sync"
	"time"
)

// limiter is a token bucket per address: rate new connections a second, burst at
// once. Buckets full again are forgotten, so that the table stays small.
type limiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), now: time.Now, buckets: map[string]*bucket{}}
}

// allow takes a token from addr's bucket, if it has one.
func (l *limiter) allow(addr net.Addr) bool {
	host := addr.String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buckets) > 10_000 {
		for k, b := range l.buckets {
			if b.level(now, l.rate, l.burst) >= l.burst {
				delete(l.buckets, k)
			}
		}
	}
	b, ok := l.buckets[host]
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[host] = b
	}
	b.tokens, b.at = b.level(now, l.rate, l.burst), now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// level is the bucket's tokens at now.
func (b *bucket) level(now time.Time, rate, burst float64) float64 {
	return min(burst, b.tokens+now.Sub(b.at).Seconds()*rate)
}
