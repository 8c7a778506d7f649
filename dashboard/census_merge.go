package dashboard

import (
	"errors"
	"time"

	"github.com/tripwire-go/tripwire"
)

// censusKeep returns what a census starting at now keeps, or nil if none is
// due: the registry is down, no one looks (no stream, no list for a
// minute), or the last census was too recent.
func (b *board) censusKeep(now time.Time) func(tripwire.Snapshot) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	looked := len(b.views) > 0 || now.Sub(b.demand) < demandFor
	if b.down || !looked || !censusDue(b.census, b.refresh, now) {
		return nil
	}
	shown := make(map[string]bool, len(b.shown))
	for k := range b.shown {
		shown[k] = true
	}
	marked := make(map[string]bool, len(b.marks))
	for k := range b.marks {
		marked[k] = true
	}
	return func(s tripwire.Snapshot) bool {
		return shown[s.Key] || marked[s.Key] || severityOf(s.State, s.Forced, failingIn(s.Stats)) != Healthy
	}
}

// demandFor is how long a list request keeps the census going without a
// stream.
const demandFor = time.Minute

// merge takes a census in: its key list replaces the last, its snapshots
// update the marks (not those asked since it began), and a mark it found
// healthy goes.
func (b *board) merge(res censusResult) {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer b.readyOnce.Do(func() { close(b.ready) })
	if res.err != nil {
		if errors.Is(res.err, tripwire.ErrShutdown) {
			b.down = true
		}
		return
	}
	start := res.at.UnixNano()
	b.census = res.census
	clear(b.gone)
	for k := range b.late {
		if _, ok := b.census.find(k); ok {
			delete(b.late, k)
		}
	}
	seen := make(map[string]bool, len(res.snaps))
	now := time.Now()
	for _, s := range res.snaps {
		seen[s.Key] = true
		if m := b.marks[s.Key]; m != nil && (m.asked > start || m.since > start) {
			continue
		}
		b.apply(s, start, now, false)
	}
	for k, m := range b.marks {
		if !seen[k] && m.asked < start && m.since < start {
			delete(b.marks, k)
			b.ranked = nil
		}
	}
	b.summary = b.count()
}
