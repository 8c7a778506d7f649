package dashboard

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire"
)

// board is the dashboard's picture of a registry, kept so that an update
// costs what the pages show and the keys in trouble, not the registry's
// size: marks of the keys not healthy (from transitions, as they come, and
// from looks at their breakers), the rows of the keys pages show (asked
// every refresh), and a census of the key list now and then.
type board struct {
	reg     registry
	refresh time.Duration

	mu     sync.Mutex
	marks  map[string]*mark
	ranked []string // the marked keys, worst first then by key; nil: to sort again
	rows   map[string]*Row
	shown  map[string]bool // the keys the streams' views picked at the last tick
	views  map[*view]struct{}
	census census
	// late are keys seen since the census (a transition, a look) that it
	// did not list; gone are keys it listed that the registry no longer has.
	late    map[string]struct{}
	gone    map[string]struct{}
	summary Summary
	down    bool      // the registry has shut down
	demand  time.Time // of the last list request

	ticks     atomic.Int64  // refreshes done, which the tests count asks by
	wake      chan struct{} // someone looks: a census may be due
	ready     chan struct{} // closed once the first census is in (or failed)
	readyOnce sync.Once
}

func newBoard(reg registry, refresh time.Duration) *board {
	return &board{reg: reg, refresh: refresh, marks: map[string]*mark{}, rows: map[string]*Row{},
		shown: map[string]bool{}, views: map[*view]struct{}{}, late: map[string]struct{}{}, gone: map[string]struct{}{},
		wake: make(chan struct{}, 1), ready: make(chan struct{})}
}

// note takes in a transition: it runs on the registry's delivery goroutine,
// in O(1). A transition older than what the board has seen of the key
// changes nothing.
func (b *board) note(tr tripwire.Transition) {
	b.mu.Lock()
	defer b.mu.Unlock()
	at := tr.At.UnixNano()
	m := b.marks[tr.Key]
	if m == nil {
		m = &mark{}
		if r := b.rows[tr.Key]; r != nil {
			m.forced, m.since, m.last = r.Forced, r.Since.UnixNano(), r.Latency
		}
	} else if at <= m.since {
		return
	}
	before := m.severity()
	m.state, m.forced, m.since = tr.To, forcedBy(tr.Reason, m.forced), at
	if tr.From != tripwire.Closed && tr.To == tripwire.Closed && tr.Reason != tripwire.ReasonReset {
		m.failing = true // its window still has what opened it; the next look says
	}
	b.seen(tr.Key)
	b.keep(tr.Key, m, before)
}

// keep stores m as key's mark, or drops it once the key is healthy.
func (b *board) keep(key string, m *mark, before Severity) {
	if m.healthy() {
		if _, ok := b.marks[key]; ok {
			delete(b.marks, key)
			b.ranked = nil
		}
		return
	}
	if b.marks[key] != m || m.severity() != before {
		b.ranked = nil
	}
	b.marks[key] = m
}

// apply takes in a snapshot asked at asked (UnixNano) and returns the key's
// row, which it keeps if store and a page shows the key. A transition the
// board has seen since the breaker answered keeps its state.
func (b *board) apply(s tripwire.Snapshot, asked int64, now time.Time, store bool) Row {
	m := b.marks[s.Key]
	var last Latency
	switch prev := b.rows[s.Key]; {
	case m != nil:
		last = m.last
	case prev != nil:
		last = prev.Latency
	}
	last.Stale = false
	r := rowOf(s, last, now)
	before := Healthy
	if m == nil {
		m = &mark{}
	} else {
		before = m.severity()
	}
	if m.since > s.Since.UnixNano() {
		r.State, r.Forced = m.state, m.forced
		r.Severity = severityOf(r.State, r.Forced, failingIn(s.Stats))
	} else {
		m.state, m.forced, m.since = s.State, s.Forced, s.Since.UnixNano()
	}
	m.failing, m.asked = failingIn(s.Stats), asked
	if !r.Latency.Stale && r.Latency.Calls > 0 {
		m.last = r.Latency
	}
	b.seen(s.Key)
	b.keep(s.Key, m, before)
	if store && b.shown[s.Key] {
		b.rows[s.Key] = &r
	}
	return r
}

// forget drops a key the registry no longer has.
func (b *board) forget(key string) {
	if _, ok := b.marks[key]; ok {
		delete(b.marks, key)
		b.ranked = nil
	}
	delete(b.rows, key)
	delete(b.late, key)
	if _, ok := b.census.find(key); ok {
		b.gone[key] = struct{}{}
	}
}

// seen records key as registered: late if the census did not list it.
func (b *board) seen(key string) {
	if b.census.at.IsZero() {
		return
	}
	if _, ok := b.census.find(key); !ok {
		b.late[key] = struct{}{}
	}
	delete(b.gone, key)
}

// isDown reports whether the board has seen the registry shut down.
func (b *board) isDown() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.down
}
