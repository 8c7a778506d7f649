package dashboard

import (
	"sync"

	"github.com/tripwire-go/tripwire"
)

// journal keeps the last transitions of a registry and hands each new one to
// the event streams that follow it. It holds one subscription to the
// registry for its whole life; a stream joins and leaves without touching
// the registry.
type journal struct {
	unsubscribe func()

	mu        sync.Mutex
	seq       uint64
	recent    []Transition // the last cap(recent), oldest first
	followers map[*follower]struct{}
}

// follower is one event stream's inbox. A stream that falls behind by more
// than its buffer misses transitions; missed counts them so it can say so.
type follower struct {
	ch     chan Transition
	missed uint64 // under journal.mu
}

// Buffers: transitions kept for a page that connects, and transitions a
// slow stream may lag behind before it misses some.
const (
	historySize  = 200
	followBuffer = 256
)

func newJournal(reg *tripwire.Registry) *journal {
	j := &journal{recent: make([]Transition, 0, historySize), followers: map[*follower]struct{}{}}
	j.unsubscribe = reg.Subscribe(j.add)
	return j
}

// add records tr and offers it to every follower without waiting: it runs
// on the registry's delivery goroutine.
func (j *journal) add(tr tripwire.Transition) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	t := transitionOf(j.seq, tr)
	if len(j.recent) == cap(j.recent) {
		copy(j.recent, j.recent[1:])
		j.recent = j.recent[:len(j.recent)-1]
	}
	j.recent = append(j.recent, t)
	for f := range j.followers {
		select {
		case f.ch <- t:
		default:
			f.missed++
		}
	}
}

// history returns the recent transitions, oldest first.
func (j *journal) history() []Transition {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Transition(nil), j.recent...)
}

// follow returns the recent transitions and a follower that gets every later
// one: none is in both, none falls between them.
func (j *journal) follow() ([]Transition, *follower) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f := &follower{ch: make(chan Transition, followBuffer)}
	j.followers[f] = struct{}{}
	return append([]Transition(nil), j.recent...), f
}

// leave stops deliveries to f.
func (j *journal) leave(f *follower) {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.followers, f)
}

// takeMissed returns how many transitions f missed since the last call.
func (j *journal) takeMissed(f *follower) uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := f.missed
	f.missed = 0
	return n
}

// close ends the registry subscription.
func (j *journal) close() { j.unsubscribe() }
