package task

import (
	"sync"
	"sync/atomic"

	"github.com/tripwire-go/tripwire/internal/borrowed"
)

// idleStack is the pool's idle workers, lock-free: one stack per processor
// (internal/borrowed). A worker goes idle on its processor's stack, and a job
// takes the worker that went idle last on its own processor's, else on
// another's, with one compare-and-swap each (one stack for every core cost
// a hot key 15–20% of its calls/s in cache misses: BENCHMARKS.md).
//
// A worker is named by its slot for life, so a stack's top is one word: the
// top's slot+1 (0: empty) and a tag every change moves on, so a pop that
// read a top since popped (and pushed again) fails and tries again.
type idleStack struct {
	tops  []idleTop                                // one per processor, made by init
	slots atomic.Pointer[[]atomic.Pointer[worker]] // by slot; grown under mu

	mu   sync.Mutex // guards free and the slots' growth: a worker's start and end
	free []uint32
}

// idleTop is the top word of one processor's stack, a cache line of its own.
type idleTop struct {
	top atomic.Uint64
	_   [56]byte
}

// init makes one stack per processor.
func (s *idleStack) init() { s.tops = make([]idleTop, max(1, borrowed.Processors())) }

// here is the stack of the processor the calling goroutine runs on.
func (s *idleStack) here() int {
	p := borrowed.Processor()
	if p >= len(s.tops) {
		p %= len(s.tops) // GOMAXPROCS grew since the pool was made
	}
	return p
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

// push puts w on top of the calling goroutine's processor's stack.
func (s *idleStack) push(w *worker) { s.pushOn(&s.tops[s.here()].top, w) }

func (s *idleStack) pushOn(top *atomic.Uint64, w *worker) {
	for {
		t := top.Load()
		w.next.Store(uint32(t))
		if top.CompareAndSwap(t, retag(t, w.slot+1)) {
			return
		}
	}
}

// pop takes the worker on top of the calling goroutine's processor's
// stack, else of another processor's, or returns nil if there is none.
func (s *idleStack) pop() *worker { return s.popNear(s.here()) }

// popNear is pop from the stack of processor h first.
func (s *idleStack) popNear(h int) *worker {
	for range s.tops {
		if w := s.popFrom(&s.tops[h].top); w != nil {
			return w
		}
		if h++; h == len(s.tops) {
			h = 0
		}
	}
	return nil
}

func (s *idleStack) popFrom(top *atomic.Uint64) *worker {
	for {
		t := top.Load()
		if uint32(t) == 0 {
			return nil
		}
		w := s.at(uint32(t))
		if w == nil {
			continue // it was taken and retired since: the top has moved on
		}
		if top.CompareAndSwap(t, retag(t, w.next.Load())) {
			return w
		}
	}
}

// takeAll empties the stacks and returns their workers, each stack's top
// first.
func (s *idleStack) takeAll() []*worker {
	var all []*worker
	for i := range s.tops {
		all = s.takeFrom(&s.tops[i].top, all)
	}
	return all
}

func (s *idleStack) takeFrom(top *atomic.Uint64, all []*worker) []*worker {
	var t uint64
	for {
		t = top.Load()
		if uint32(t) == 0 {
			return all
		}
		if top.CompareAndSwap(t, retag(t, 0)) {
			break
		}
	}
	for slot1 := uint32(t); slot1 != 0; {
		w := s.at(slot1)
		all = append(all, w)
		slot1 = w.next.Load()
	}
	return all
}

// empty reports whether no worker is on the stacks.
func (s *idleStack) empty() bool {
	for i := range s.tops {
		if uint32(s.tops[i].top.Load()) != 0 {
			return false
		}
	}
	return true
}

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
