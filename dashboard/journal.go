package dashboard

import (
	"slices"
	"strings"
	"sync"

	"github.com/tripwire-go/tripwire/state"
)

// journal keeps the last transitions of a registry and hands each new one
// to the event streams that follow it (those whose prefix it has).
type journal struct {
	mu        sync.Mutex
	seq       uint64
	recent    []Transition // the last cap(recent), oldest first
	followers map[*follower]struct{}
}

// follower is one event stream's inbox. A stream that falls behind by more
// than its buffer misses transitions; missed counts them so it can say so.
type follower struct {
	prefix string
	ch     chan Transition
	missed uint64 // under journal.mu
}

// Buffers: transitions kept for a page that connects, and transitions a
// slow stream may lag behind before it misses some.
const (
	historySize  = 200
	followBuffer = 256
)

func newJournal() *journal {
	return &journal{recent: make([]Transition, 0, historySize), followers: map[*follower]struct{}{}}
}

// add records tr and offers it to every follower without waiting: it runs
// on the registry's delivery goroutine.
func (j *journal) add(tr state.Transition) {
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
		if !strings.HasPrefix(t.Key, f.prefix) {
			continue
		}
		select {
		case f.ch <- t:
		default:
			f.missed++
		}
	}
}

// history returns the recent transitions that f admits (f.pick), oldest
// first.
func (j *journal) history(f filter) []Transition {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Transition, 0, min(len(j.recent), f.limit))
	for i := len(j.recent) - 1; i >= 0 && len(out) < f.limit; i-- {
		if t := j.recent[i]; f.pick(t) {
			out = append(out, t)
		}
	}
	slices.Reverse(out)
	return out
}

// pick reports whether a transition is one f's history shows: of a key
// with its prefix, to one of its states (none: any).
func (f filter) pick(t Transition) bool {
	return strings.HasPrefix(t.Key, f.prefix) && f.admits(t.To)
}

func (j *journal) historyLocked(prefix string) []Transition {
	out := make([]Transition, 0, len(j.recent))
	for _, t := range j.recent {
		if strings.HasPrefix(t.Key, prefix) {
			out = append(out, t)
		}
	}
	return out
}

// follow returns the recent transitions of the keys with prefix and a
// follower that gets every later one: none is in both, none falls between.
func (j *journal) follow(prefix string) ([]Transition, *follower) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f := &follower{prefix: prefix, ch: make(chan Transition, followBuffer)}
	j.followers[f] = struct{}{}
	return j.historyLocked(prefix), f
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
