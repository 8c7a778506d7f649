package load

import (
	"fmt"
	"sort"
	"sync"
	"time"
)

// span is an interval of time.
type span struct{ from, to time.Time }

// stalls records when the process was not run: a probe goroutine sleeps 1 ms
// at a time, and every wake-up later than stallMin is an interval in which
// the probe, and so possibly every goroutine, was not run (the OS ran other
// processes, or the runtime stopped the world). On a shared 2-CPU machine
// such gaps of 100 ms and more happen; a caller waiting through one is late
// whatever Tripwire does.
type stalls struct {
	mu   sync.Mutex
	list []span
}

const (
	stallMin  = 200 * time.Microsecond // shorter wake-up delays are not recorded
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
			if now := time.Now(); now.Sub(t0) > time.Millisecond+stallMin {
				s.add(span{from: t0.Add(time.Millisecond), to: now})
			}
		}
	}()
	return func() { close(quit); <-done }
}

func (s *stalls) add(sp span) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.list) < maxStalls {
		s.list = append(s.list, sp)
	}
}

func (s *stalls) spans() []span {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]span(nil), s.list...)
}

func longest(spans []span) time.Duration {
	var d time.Duration
	for _, sp := range spans {
		d = max(d, sp.to.Sub(sp.from))
	}
	return d.Round(time.Microsecond)
}

func total(spans []span) time.Duration {
	var d time.Duration
	for _, sp := range spans {
		d += sp.to.Sub(sp.from)
	}
	return d.Round(time.Microsecond)
}

// lateAnswer is an answer that came more than lateSlack after its deadline.
type lateAnswer struct {
	outcome       outcome
	deadline, end time.Time
}

func (l lateAnswer) String() string {
	return fmt.Sprintf("%v %v late", l.outcome, l.end.Sub(l.deadline).Round(time.Microsecond))
}

// excused reports whether the process was not run, between the call's
// deadline and its answer, for at least as long as the answer is late beyond
// lateSlack. spans are in time order and disjoint, as the probe records them.
func (l lateAnswer) excused(spans []span) bool {
	var idle time.Duration
	first := sort.Search(len(spans), func(i int) bool { return spans[i].to.After(l.deadline) })
	for _, sp := range spans[first:] {
		if !sp.from.Before(l.end) {
			break
		}
		idle += earlier(sp.to, l.end).Sub(later(sp.from, l.deadline))
	}
	return l.end.Sub(l.deadline)-lateSlack <= idle
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
