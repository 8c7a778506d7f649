package dashboard

import "github.com/tripwire-go/tripwire/state"

// note takes in a transition: it runs on the registry's delivery goroutine,
// in O(1). A transition older than what the board has seen of the key
// changes nothing.
func (b *board) note(tr state.Transition) {
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
	noteOutage(m, tr)
	if tr.From != state.Closed && tr.To == state.Closed && tr.Reason != state.ReasonReset {
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
