package dashboard

import (
	"time"

	"github.com/tripwire-go/tripwire"
)

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
	fresh := m.since <= s.Since.UnixNano()
	if fresh {
		m.state, m.forced, m.since = s.State, s.Forced, s.Since.UnixNano()
	} else {
		r.State, r.Forced = m.state, m.forced
		r.Severity = severityOf(r.State, r.Forced, failingIn(s.Stats))
	}
	b.outage(&r, m, s, fresh)
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
