package task

import (
	"sync"
	"sync/atomic"
)

// idleStack is the pool's stack of idle workers, without a lock: a job goes
// to the worker that went idle last with one compare-and-swap, and a worker
// goes idle with another. Workers are named by a slot that is theirs for
// their life (slots), so the stack's top is one word: the top's slot+1 (0:
// empty) and a tag that every change moves on, so a pop that read a top
// since popped and pushed again fails and tries again.
type idleStack struct {
	top   atomic.Uint64
	slots atomic.Pointer[[]atomic.Pointer[worker]] // by slot; grown under mu

	mu   sync.Mutex // guards free and the slots' growth: a worker's start and end
	free []uint32
}

// retag is the top word for slot+1 (0: empty), after t.
func retag(t uint64, slot1 uint32) uint64 { return (t>>32+1)<<32 | uint64(slot1) }

// join gives w a slot.
func (s *idleStack) join(w *worker) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var slots []atomic.Pointer[worker]
	if p := s.slots.Load(); p != nil {
		slots = *p
	}
	if n := len(s.free); n > 0 {
		w.slot = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		w.slot = uint32(len(slots))
		if len(slots) == cap(slots) {
			grown := make([]atomic.Pointer[worker], len(slots), max(8, 2*len(slots)))
			for i := range slots {
				grown[i].Store(slots[i].Load())
			}
			slots = grown
		}
		slots = slots[:len(slots)+1]
		s.slots.Store(&slots)
	}
	slots[w.slot].Store(w)
}

// leave frees the slot of w, which is not on the stack.
func (s *idleStack) leave(w *worker) {
	s.mu.Lock()
	defer s.mu.Unlock()
	(*s.slots.Load())[w.slot].Store(nil)
	s.free = append(s.free, w.slot)
}

// at is the worker in slot+1 (slot1), or nil.
func (s *idleStack) at(slot1 uint32) *worker {
	slots := *s.slots.Load()
	if int(slot1) > len(slots) {
		return nil
	}
	return slots[slot1-1].Load()
}

// push puts w on top.
func (s *idleStack) push(w *worker) {
	for {
		t := s.top.Load()
		w.next.Store(uint32(t))
		if s.top.CompareAndSwap(t, retag(t, w.slot+1)) {
			return
		}
	}
}

// pop takes the worker on top, or returns nil if there is none.
func (s *idleStack) pop() *worker {
	for {
		t := s.top.Load()
		if uint32(t) == 0 {
			return nil
		}
		w := s.at(uint32(t))
		if w == nil {
			continue // it was taken and retired since: the top has moved on
		}
		if s.top.CompareAndSwap(t, retag(t, w.next.Load())) {
			return w
		}
	}
}

// takeAll empties the stack and returns its workers, top first.
func (s *idleStack) takeAll() []*worker {
	var t uint64
	for {
		t = s.top.Load()
		if uint32(t) == 0 {
			return nil
		}
		if s.top.CompareAndSwap(t, retag(t, 0)) {
			break
		}
	}
	var all []*worker
	for slot1 := uint32(t); slot1 != 0; {
		w := s.at(slot1)
		all = append(all, w)
		slot1 = w.next.Load()
	}
	return all
}

// empty reports whether no worker is on the stack.
func (s *idleStack) empty() bool { return uint32(s.top.Load()) == 0 }

// each calls fn with every worker that has a slot.
func (s *idleStack) each(fn func(*worker)) {
	p := s.slots.Load()
	if p == nil {
		return
	}
	for i := range *p {
		if w := (*p)[i].Load(); w != nil {
			fn(w)
		}
	}
}
