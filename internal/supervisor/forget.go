package supervisor

import (
	"sync/atomic"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/registry"
)

// forgettable are the keys the supervisor may forget to keep the registry
// within WithMaxKeys: factory-made, passivated, in the order they napped. An
// item is stale once its key woke (Naps moved on) or left: skipped, and
// dropped when they are most of the queue.
type forgettable struct {
	items []napped
	head  int
	live  atomic.Int64 // items not stale; read by callers off the actor
}

type napped struct {
	e   *registry.Entry
	nap uint32
}

// SetMaxKeys bounds the registry's keys at n (0, or below: no bound). Call
// it before the supervisor starts.
func (s *Supervisor) SetMaxKeys(n int) { s.maxKeys = max(n, 0) }

// Forgettable reports how many keys could be forgotten now to make room;
// safe for concurrent use.
func (s *Supervisor) Forgettable() int64 { return s.forget.live.Load() }

// napped records that e has just passivated.
func (s *Supervisor) napped(e *registry.Entry) {
	e.Cell.Naps++
	if s.maxKeys == 0 || !e.Cell.Made {
		return
	}
	f := &s.forget
	f.items = append(f.items, napped{e: e, nap: e.Cell.Naps})
	if live := f.live.Add(1); len(f.items)-f.head > 2*int(live)+1024 {
		f.dropStale()
	}
}

// dropStale keeps only the items not stale, in order.
func (f *forgettable) dropStale() {
	kept := f.items[:0]
	for _, it := range f.items[f.head:] {
		if it.e != nil && it.nap == it.e.Cell.Naps {
			kept = append(kept, it)
		}
	}
	clear(f.items[len(kept):])
	f.items, f.head = kept, 0
}

// woke records that e, passivated, woke up or left the registry.
func (s *Supervisor) woke(e *registry.Entry) {
	if s.maxKeys > 0 && e.Cell.Made {
		s.forget.live.Add(-1)
	}
	e.Cell.Naps++ // its queued item is stale now
}

// makeRoom forgets one key if the registry is at its bound; it reports
// false if it is and no key can be forgotten.
func (s *Supervisor) makeRoom() bool {
	if s.maxKeys == 0 || s.reg.Len() < s.maxKeys {
		return true
	}
	f := &s.forget
	for f.head < len(f.items) {
		it := f.items[f.head]
		f.items[f.head] = napped{}
		f.head++
		if it.nap != it.e.Cell.Naps {
			continue // woke since, or left
		}
		s.reg.Delete(it.e.Key)
		f.live.Add(-1)
		it.e.Cell.Naps++
		it.e.Mailbox.Discard(errs.ErrForgotten)
		f.compact()
		return true
	}
	f.compact()
	return false
}

// compact drops the stale and the taken items once they are most of the
// queue, so it stays within twice the keys it holds.
func (f *forgettable) compact() {
	if f.head < 64 || f.head*2 < len(f.items) {
		return
	}
	n := copy(f.items, f.items[f.head:])
	clear(f.items[n:])
	f.items, f.head = f.items[:n], 0
}
