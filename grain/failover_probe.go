package grain

import (
	"context"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/cluster"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// topologyChanged probes the keys a new topology concerns: those whose
// last call went to a member that left, and, on any change, those whose
// last call found no member to host their grain.
func (f *Failover) topologyChanged(t *cluster.ClusterTopology) {
	if len(t.Left) == 0 && len(t.Joined) == 0 {
		return
	}
	settled(f.cluster)
	now := time.Now()
	var moved []*entry
	f.mu.Lock()
	for _, m := range t.Left {
		addr := m.Address()
		for e := range f.byAddr[addr] {
			moved = append(moved, e)
			e.indexed = nil // the member is gone: its next call places it anew
			e.at.Store(nil)
		}
		delete(f.byAddr, addr)
	}
	for e := range f.byAddr[""] { // they stay there until a call finds the grain
		moved = append(moved, e)
	}
	for _, e := range moved {
		// Its calls out now were sent under the old topology: if their
		// failures open the circuit, it is probed at once, once.
		e.since = now
		e.until = later(now, time.Unix(0, e.latest.Load())).Add(staleGrace)
	}
	f.mu.Unlock()
	for _, e := range moved {
		select {
		case <-f.quit:
			return
		default:
		}
		f.probeIfOpen(e)
	}
}

// probeIfOpen half-opens e's circuit if it is open. One that is open now
// has no call out from before (they belong to an older generation, which
// the breaker no longer counts), so it needs no second probe.
func (f *Failover) probeIfOpen(e *entry) {
	st, err := f.reg.State(e.key)
	switch {
	case errors.Is(err, tripwire.ErrUnknownKey):
		f.forget(e)
		return
	case err != nil || st != state.Open:
		return
	}
	f.mu.Lock()
	e.until = time.Time{}
	f.mu.Unlock()
	_ = f.reg.ProbeNow(context.Background(), e.key) // not open any more, unknown, shut down: nothing to do
}

// reprobe is a key to probe again, for run.
type reprobe string

// opened, the registry's subscriber, queues a probe of a circuit that
// opened with calls from before a topology change, once. Any other
// transition costs it a map lookup.
func (f *Failover) opened(tr state.Transition) {
	if tr.To != state.Open {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.entries[tr.Key]
	if e == nil || e.until.IsZero() || tr.At.Before(e.since) || tr.At.After(e.until) {
		return
	}
	e.until = time.Time{}
	f.postLocked(reprobe(tr.Key))
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
