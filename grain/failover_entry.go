package grain

import (
	"context"
	"sync/atomic"
	"time"
)

// entry is what a Failover knows of one key: where its last call was sent,
// and the latest deadline of its calls. Its calls update it on their
// worker; an unchanged address costs them one atomic load.
type entry struct {
	f      *Failover
	key    string
	at     atomic.Pointer[string] // the address of its last call ("": no member hosted the grain); nil: none known
	latest atomic.Int64           // the latest deadline of its calls so far, Unix ns

	// Guarded by f.mu.
	indexed      *string   // the byAddr set it is in; nil: none
	since, until time.Time // an Open transition in [since, until] is probed, once; zero until: none
	unseen       bool      // its key was not registered at the last sweep
}

// started records the deadline of a call that starts. A nil entry (a
// target without failover) records nothing.
func (e *entry) started(ctx context.Context) {
	if e == nil {
		return
	}
	d, ok := ctx.Deadline()
	if !ok {
		return
	}
	ns := d.UnixNano()
	for {
		cur := e.latest.Load()
		if ns <= cur || e.latest.CompareAndSwap(cur, ns) {
			return
		}
	}
}

// placed records that a call is sent to the grain at addr, or ("") that
// the cluster found no member to host it.
func (e *entry) placed(addr string) {
	if e == nil {
		return
	}
	if p := e.at.Load(); p != nil && *p == addr {
		return
	}
	e.f.index(e, addr)
}

// index moves e to the set of the keys whose last call went to addr.
func (f *Failover) index(e *entry, addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.unindex(e)
	set := f.byAddr[addr]
	if set == nil {
		set = map[*entry]bool{}
		f.byAddr[addr] = set
	}
	set[e] = true
	e.indexed = &addr
	e.at.Store(&addr)
}

// unindex takes e out of its address's set. f.mu is held.
func (f *Failover) unindex(e *entry) {
	if e.indexed == nil {
		return
	}
	if set := f.byAddr[*e.indexed]; set != nil {
		delete(set, e)
		if len(set) == 0 {
			delete(f.byAddr, *e.indexed)
		}
	}
	e.indexed = nil
	e.at.Store(nil)
}

// forget drops e: its key is not registered (any more).
func (f *Failover) forget(e *entry) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.unindex(e)
	if f.entries[e.key] == e {
		delete(f.entries, e.key)
	}
}
