package actor

import (
	"container/heap"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// IdleTimers are the idle checks and deadline ticks of every breaker of a
// registry, on one timer: a timer per breaker would cost each key with an
// IdleTimeout about 160 bytes for as long as it lives, and a runtime timer
// per deadline tick starts a goroutine each time one fires — a hundred
// thousand keys called once start a hundred thousand together, CallTimeout
// later. A message due is posted to its key's mailbox; the breaker that
// armed it takes it (any other ignores it, and a key with no breaker drops
// it). The zero value is ready to use.
type IdleTimers struct {
	mu      sync.Mutex
	base    time.Time // the clock's origin: due times are durations since it
	due     idleHeap
	timer   *time.Timer
	of      *idleRef      // what timer's func holds of t
	firesAt time.Duration // when timer fires, if armed
	armed   bool
	stopped bool
}

// idleRef is the timers as their runtime timer's func holds them, cleared
// by Stop: the runtime keeps a stopped timer, and its func, in its heap
// until the time it was due (a CallTimeout or an IdleTimeout later), and t
// is part of its registry's Shared, which a shut-down registry is to let
// go of at once.
type idleRef struct{ t atomic.Pointer[IdleTimers] }

type idleDue struct {
	at  time.Duration
	mb  *Mailbox
	tk  *ticket // instead of mb: a check whose key may go away first
	msg timer
}

// ticket names the mailbox of a check that must not keep its key alive: a
// key unregistered before the check is due clears it, and the heap then
// keeps 16 bytes of it, not the key. A ticket is in the heap at most once
// for rearm: pos is its place there plus one (0: not in it), kept under the
// timers' lock.
type ticket struct {
	mb  atomic.Pointer[Mailbox]
	pos int
}

type idleHeap []idleDue

func (h idleHeap) Len() int           { return len(h) }
func (h idleHeap) Less(i, j int) bool { return h[i].at < h[j].at }
func (h idleHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h.placed(i)
	h.placed(j)
}
func (h *idleHeap) Push(x any) {
	*h = append(*h, x.(idleDue))
	h.placed(len(*h) - 1)
}
func (h *idleHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = idleDue{}
	*h = old[:len(old)-1]
	if x.tk != nil {
		x.tk.pos = 0
	}
	return x
}

// placed records where entry i's ticket is.
func (h idleHeap) placed(i int) {
	if tk := h[i].tk; tk != nil {
		tk.pos = i + 1
	}
}

// arm posts msg to mb after d.
func (t *IdleTimers) arm(d time.Duration, mb *Mailbox, msg timer) {
	t.push(d, idleDue{mb: mb, msg: msg})
}

// armTicket posts msg to tk's mailbox after d, if tk still has one.
func (t *IdleTimers) armTicket(d time.Duration, tk *ticket, msg timer) {
	t.push(d, idleDue{tk: tk, msg: msg})
}

// rearm posts msg to tk's mailbox after d, if tk still has one, instead of
// what tk was armed with if that has not come yet: a ticket stays in the
// heap once however often it is armed (a breaker's deadline tick moves
// earlier with each call whose deadline is sooner).
func (t *IdleTimers) rearm(d time.Duration, tk *ticket, msg timer) {
	t.mu.Lock()
	if tk.pos == 0 || t.stopped {
		t.mu.Unlock()
		t.push(d, idleDue{tk: tk, msg: msg})
		return
	}
	defer t.mu.Unlock()
	at := t.after(d)
	i := tk.pos - 1
	t.due[i].at, t.due[i].msg = at, msg
	heap.Fix(&t.due, i)
	t.schedule(at)
}

func (t *IdleTimers) push(d time.Duration, due idleDue) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	if t.base.IsZero() {
		t.base = time.Now()
	}
	at := t.after(d)
	due.at = at
	heap.Push(&t.due, due)
	t.schedule(at)
}

// after is the time d from now, since base; d near math.MaxInt64 (a call
// with no timeout, a huge IdleTimeout) saturates at math.MaxInt64, where
// it would wrap to the past, and the timer, armed 292 years away, would
// never be brought forward again for the registry's other checks; mu held.
func (t *IdleTimers) after(d time.Duration) time.Duration {
	now := time.Since(t.base)
	if d > 0 && now > math.MaxInt64-d {
		return math.MaxInt64
	}
	return now + d
}

// schedule makes the timer fire by at; mu held.
func (t *IdleTimers) schedule(at time.Duration) {
	if t.armed && t.firesAt <= at {
		return
	}
	d := at - time.Since(t.base)
	if t.timer == nil {
		of := new(idleRef)
		of.t.Store(t)
		t.of = of
		t.timer = time.AfterFunc(d, func() {
			if t := of.t.Load(); t != nil {
				t.fire()
			}
		})
	} else {
		t.timer.Reset(d)
	}
	t.firesAt, t.armed = at, true
}

// fire posts every check that is due, then arms the timer for the next.
func (t *IdleTimers) fire() {
	t.mu.Lock()
	t.armed = false
	now := time.Since(t.base)
	var ready []idleDue
	for len(t.due) > 0 && t.due[0].at <= now {
		ready = append(ready, heap.Pop(&t.due).(idleDue))
	}
	if len(t.due) > 0 && !t.stopped {
		t.schedule(t.due[0].at)
	}
	if len(t.due) == 0 {
		t.due = nil // a heap that emptied gives its memory back
	}
	t.mu.Unlock()
	for i := range ready {
		mb := ready[i].mb
		if tk := ready[i].tk; tk != nil {
			if mb = tk.mb.Load(); mb == nil {
				continue // its key went away
			}
		}
		mb.PostUserMessage(ready[i].msg)
	}
}

// Stop ends the timers: no check is posted after it returns, but one being
// posted at that moment.
func (t *IdleTimers) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped, t.due = true, nil
	if t.timer != nil {
		t.timer.Stop()
		t.of.t.Store(nil)
	}
}
