package soak

import (
	"sync"
	"time"
)

// Span is an interval of time.
type Span struct{ From, To time.Time }

// Len is how long the span lasts.
func (s Span) Len() time.Duration { return s.To.Sub(s.From) }

// stalls records when the process was not run: a probe goroutine sleeps 1 ms
// at a time, and every wake-up later than stallMin is an interval in which
// the probe, and so possibly every goroutine, was not run (the OS ran other
// processes, or the runtime stopped the world). On a shared 2-CPU machine
// such gaps of 100 ms and more happen; a caller waiting through one is late
// whatever Tripwire does.
type stalls struct {
	mu   sync.Mutex
	list []Span
}

const (
	// StallMin is the shortest late wake-up of the probe a Report records
	// as a stall; shorter ones are scheduling noise.
	StallMin  = 200 * time.Microsecond
	maxStalls = 1 << 20
)

// probe starts the probe goroutine; stop ends it.
func (s *stalls) probe() (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			default:
			}
			t0 := time.Now()
			time.Sleep(time.Millisecond)
			if now := time.Now(); now.Sub(t0) > time.Millisecond+StallMin {
				s.add(Span{From: t0.Add(time.Millisecond), To: now})
			}
		}
	}()
	return func() { close(quit); <-done }
}

func (s *stalls) add(sp Span) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.list) < maxStalls {
		s.list = append(s.list, sp)
	}
}

func (s *stalls) spans() []Span {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Span(nil), s.list...)
}

// Longest is the longest of spans.
func Longest(spans []Span) time.Duration {
	var d time.Duration
	for _, sp := range spans {
		d = max(d, sp.Len())
	}
	return d
}

// Total is the length of spans added up.
func Total(spans []Span) time.Duration {
	var d time.Duration
	for _, sp := range spans {
		d += sp.Len()
	}
	return d
}
