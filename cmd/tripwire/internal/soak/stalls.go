package soak

import (
	"runtime"
	"slices"
	"sync"
	"time"
)

// Span is an interval of time.
type Span struct{ From, To time.Time }

// Len is how long the span lasts.
func (s Span) Len() time.Duration { return s.To.Sub(s.From) }

// stalls records when the process was not run: probe goroutines sleep 1 ms
// at a time, and every wake-up later than StallMin is an interval in which
// that probe, and so possibly every goroutine, was not run (the OS ran other
// processes, or the runtime stopped the world). On a shared 2-CPU machine
// such gaps of 100 ms and more happen; a caller waiting through one is late
// whatever Tripwire does.
//
// There are two probes a processor (GOMAXPROCS): a sleeping goroutine's
// timer is in the heap of the processor it slept on, and it wakes there, so
// one probe sees only the stalls of the processor it keeps to. When the OS
// thread of the other one is not run, that processor's timers (the
// callers' backstops among them) and its run queue wait with it, unless the
// processor still running goes idle and steals them, which a loaded one
// does not; the one probe saw nothing (the soak's run 14: timeouts 108 ms
// late together while the probe's longest gap was 31 ms). The spans are the
// union of what the probes saw: a time in which some processor was not run.
type stalls struct {
	mu      sync.Mutex
	byProbe map[int][]Span // each probe's, in time order and disjoint
	n       int            // spans kept, at most maxStalls
}

const (
	// StallMin is the shortest late wake-up of the probe a Report records
	// as a stall; shorter ones are scheduling noise.
	StallMin  = 200 * time.Microsecond
	maxStalls = 1 << 20
)

// probe starts the probe goroutines, two a processor; stop ends them.
func (s *stalls) probe() (stop func()) {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 2 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				select {
				case <-quit:
					return
				default:
				}
				t0 := time.Now()
				time.Sleep(time.Millisecond)
				if now := time.Now(); now.Sub(t0) > time.Millisecond+StallMin {
					s.add(i, Span{From: t0.Add(time.Millisecond), To: now})
				}
			}
		})
	}
	return func() { close(quit); wg.Wait() }
}

func (s *stalls) add(probe int, sp Span) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == maxStalls {
		return
	}
	if s.byProbe == nil {
		s.byProbe = map[int][]Span{}
	}
	s.byProbe[probe] = append(s.byProbe[probe], sp)
	s.n++
}

// spans is the union of the probes' spans, in time order and disjoint.
func (s *stalls) spans() []Span {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []Span
	for _, sp := range s.byProbe {
		all = append(all, sp...)
	}
	return union(all)
}

// alone reports whether the spans of some one probe explain l by
// themselves, as the one probe the soak had before would have.
func (s *stalls) alone(l LateAnswer) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sp := range s.byProbe {
		if l.excused(sp) {
			return true
		}
	}
	return false
}

// union is the union of spans, in time order and disjoint: the spans that
// overlap or touch made one.
func union(spans []Span) []Span {
	sorted := slices.Clone(spans)
	slices.SortFunc(sorted, func(a, b Span) int { return a.From.Compare(b.From) })
	var out []Span
	for _, sp := range sorted {
		if n := len(out); n > 0 && !sp.From.After(out[n-1].To) {
			out[n-1].To = later(out[n-1].To, sp.To)
			continue
		}
		out = append(out, sp)
	}
	return out
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
