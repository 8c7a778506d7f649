// Package timers is one runtime timer for every check a registry's breakers
// arm (idle, deadline, drain), posted when due to its key's mailbox: a timer
// per breaker would cost a key ~160 bytes, and one per tick a goroutine.
package timers

import (
	"container/heap"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Inbox is a pointer to where a check is posted when it is due: a key's
// mailbox.
type Inbox[M any] interface {
	*M
	PostUserMessage(msg any)
}

// Timers are the checks armed, posted to their inboxes (P, pointers to M)
// when due. The zero value is ready to use.
type Timers[M any, P Inbox[M]] struct {
	mu      sync.Mutex
	base    time.Time // the clock's origin: due times are durations since it
	due     dueHeap[M]
	timer   *time.Timer
	of      *ref[M, P]    // what timer's func holds of t
	firesAt time.Duration // when timer fires, if armed
	armed   bool
	stopped bool
}

// ref is the timers as their runtime timer's func holds them, cleared by
// Stop: the runtime keeps a stopped timer's func until it was due, and the
// timers are part of a registry that is to be let go of at once.
type ref[M any, P Inbox[M]] struct{ t atomic.Pointer[Timers[M, P]] }

// A check armed.
type check[M any] struct {
	at  time.Duration
	to  *M
	tk  *Ticket[M] // instead of to: a check whose key may go away first
	msg any
}

// Ticket names the inbox of a check that must not keep its key alive (a
// key that goes away voids it). It is in the heap at most once: pos is its
// place there plus one (0: not in it), under the timers' lock.
type Ticket[M any] struct {
	to  atomic.Pointer[M]
	pos int
}

// NewTicket returns a ticket naming to.
func NewTicket[M any](to *M) *Ticket[M] {
	tk := new(Ticket[M])
	tk.to.Store(to)
	return tk
}

// Void makes tk name nothing: what is armed with it is dropped when due.
func (tk *Ticket[M]) Void() { tk.to.Store(nil) }

type dueHeap[M any] []check[M]

func (h dueHeap[M]) Len() int           { return len(h) }
func (h dueHeap[M]) Less(i, j int) bool { return h[i].at < h[j].at }
func (h dueHeap[M]) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h.placed(i)
	h.placed(j)
}
func (h *dueHeap[M]) Push(x any) {
	*h = append(*h, x.(check[M]))
	h.placed(len(*h) - 1)
}
func (h *dueHeap[M]) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = check[M]{}
	*h = old[:len(old)-1]
	if x.tk != nil {
		x.tk.pos = 0
	}
	return x
}

// placed records where entry i's ticket is.
func (h dueHeap[M]) placed(i int) {
	if tk := h[i].tk; tk != nil {
		tk.pos = i + 1
	}
}

// Arm posts msg to to after d.
func (t *Timers[M, P]) Arm(d time.Duration, to P, msg any) {
	t.push(d, check[M]{to: to, msg: msg})
}

// ArmTicket posts msg to tk's inbox after d, unless tk is void by then.
func (t *Timers[M, P]) ArmTicket(d time.Duration, tk *Ticket[M], msg any) {
	t.push(d, check[M]{tk: tk, msg: msg})
}

// Rearm is ArmTicket instead of what tk was armed with, if that has not
// come yet: a ticket stays in the heap once however often it is armed (a
// breaker's deadline tick moves earlier with each call whose deadline is
// sooner).
func (t *Timers[M, P]) Rearm(d time.Duration, tk *Ticket[M], msg any) {
	t.mu.Lock()
	if tk.pos == 0 || t.stopped {
		t.mu.Unlock()
		t.push(d, check[M]{tk: tk, msg: msg})
		return
	}
	defer t.mu.Unlock()
	at := t.after(d)
	i := tk.pos - 1
	t.due[i].at, t.due[i].msg = at, msg
	heap.Fix(&t.due, i)
	t.schedule(at)
}

func (t *Timers[M, P]) push(d time.Duration, c check[M]) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	if t.base.IsZero() {
		t.base = time.Now()
	}
	c.at = t.after(d)
	heap.Push(&t.due, c)
	t.schedule(c.at)
}

// after is the time d from now, since base, saturating at math.MaxInt64 (a
// call with no timeout would wrap to the past, and the timer would never
// come forward for the other checks again); mu held.
func (t *Timers[M, P]) after(d time.Duration) time.Duration {
	now := time.Since(t.base)
	if d > 0 && now > math.MaxInt64-d {
		return math.MaxInt64
	}
	return now + d
}

// schedule makes the timer fire by at; mu held.
func (t *Timers[M, P]) schedule(at time.Duration) {
	if t.armed && t.firesAt <= at {
		return
	}
	d := at - time.Since(t.base)
	if t.timer == nil {
		of := new(ref[M, P])
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
func (t *Timers[M, P]) fire() {
	t.mu.Lock()
	t.armed = false
	now := time.Since(t.base)
	var ready []check[M]
	for len(t.due) > 0 && t.due[0].at <= now {
		ready = append(ready, heap.Pop(&t.due).(check[M]))
	}
	if len(t.due) > 0 && !t.stopped {
		t.schedule(t.due[0].at)
	}
	if len(t.due) == 0 {
		t.due = nil // a heap that emptied gives its memory back
	}
	t.mu.Unlock()
	for i := range ready {
		to := ready[i].to
		if tk := ready[i].tk; tk != nil {
			if to = tk.to.Load(); to == nil {
				continue // its key went away
			}
		}
		P(to).PostUserMessage(ready[i].msg)
	}
}

// Len is how many checks are armed.
func (t *Timers[M, P]) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.due)
}

// Stop ends the timers: no check is posted after it returns, but one being
// posted at that moment.
func (t *Timers[M, P]) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped, t.due = true, nil
	if t.timer != nil {
		t.timer.Stop()
		t.of.t.Store(nil)
	}
}
