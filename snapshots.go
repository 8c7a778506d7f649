package tripwire

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/registry"
	"github.com/tripwire-go/tripwire/state"
)

// Filter picks the keys Snapshots reports. It is applied to what every key
// publishes without a message — its name and its state — so a registry of
// a million keys asks only the breakers of the keys it picks.
type Filter struct {
	// Prefix keeps the keys that start with it ("": every key).
	Prefix string
	// States keeps the keys in one of them (empty: any state).
	States []state.State
	// Passivated also reports the keys asleep after IdleTimeout, without
	// waking them: closed, Passivated set, zero counts. By default they are
	// left out.
	Passivated bool
	// Address keeps the keys whose target is an actor on the node at this
	// address (its PID's Address, "host:port"; "": any target), for
	// whoever learns that a node is reachable again.
	Address string
}

// snapshotBatch is how many breakers Snapshots asks at once.
const snapshotBatch = 64

// Snapshots calls fn with the snapshot of every key f picks, in no
// particular order, until fn returns false; a key registered or removed
// meanwhile may or may not be reported. Only the picked keys' breakers are
// asked, in batches: at a million keys, finding the dozen open ones takes
// one pass over the key table (about 0.1 s), listing all of them about 4.5 s
// (test/scale), and fn may stop it early. It returns ErrNilContext,
// ErrInvalidOption for a nil fn or a State that is none, ctx's error if ctx
// ends, ErrShutdown, or ErrTimeout if a breaker does not answer within 5
// seconds.
func (r *Registry) Snapshots(ctx context.Context, f Filter, fn func(Snapshot) bool) error {
	if err := r.snapshotsRefused(ctx, f, fn); err != nil {
		return err
	}
	l := lister{r: r, ctx: ctx, fn: fn, reply: make(chan tactor.Report, snapshotBatch)}
	seen := 0
	r.keys.Range(func(e *registry.Entry) bool {
		if seen++; seen%snapshotBatch == 0 && l.ended() {
			return false // (a pass that picks nothing looks at ctx too)
		}
		if !f.picks(e) {
			return true
		}
		if e.Cell.Passivated() {
			return !f.Passivated || l.yield(passivatedSnapshot(e))
		}
		l.batch = append(l.batch, e)
		return len(l.batch) < snapshotBatch || l.flush()
	})
	if l.err == nil && !l.stopped {
		l.flush()
	}
	return l.err
}

// snapshotsRefused is why Snapshots refuses its arguments, if it does.
func (r *Registry) snapshotsRefused(ctx context.Context, f Filter, fn func(Snapshot) bool) error {
	switch {
	case r.unusable():
		return errNoRegistry
	case ctx == nil:
		return ErrNilContext
	case fn == nil:
		return fmt.Errorf("%w: Snapshots with a nil func", ErrInvalidOption)
	case r.closed.Load():
		return ErrShutdown
	case ctx.Err() != nil:
		return ctx.Err()
	}
	for _, s := range f.States {
		if s < state.Closed || s > state.HalfOpen {
			return fmt.Errorf("%w: Filter.States has %d, not a State", ErrInvalidOption, s)
		}
	}
	return nil
}

// picks reports whether f picks e, by what it publishes without a message.
func (f *Filter) picks(e *registry.Entry) bool {
	return strings.HasPrefix(e.Key, f.Prefix) && (len(f.States) == 0 || slices.Contains(f.States, e.Cell.State())) &&
		(f.Address == "" || (e.Target.PID != nil && e.Target.PID.Address == f.Address))
}

// lister asks the breakers of Snapshots a batch at a time.
type lister struct {
	r       *Registry
	ctx     context.Context
	fn      func(Snapshot) bool
	reply   chan tactor.Report
	batch   []*registry.Entry
	err     error
	stopped bool // fn returned false
}

// flush asks every breaker in the batch, then reports their snapshots; it
// returns false to end the listing.
func (l *lister) flush() bool {
	batch := l.batch
	l.batch = l.batch[:0]
	for _, e := range batch {
		e.Mailbox.PostUserMessage(&tactor.SnapshotRequest{Reply: l.reply})
	}
	timeout := time.NewTimer(askTimeout)
	defer timeout.Stop()
	snaps := make([]Snapshot, 0, len(batch))
	for range batch {
		select {
		case rep := <-l.reply:
			if rep.Err == nil { // else the key went away meanwhile
				snaps = append(snaps, snapshotOf(rep.Snapshot, time.Now()))
			}
		case <-l.ctx.Done():
			l.err = l.ctx.Err()
			return false
		case <-l.r.stopping:
			l.err = ErrShutdown
			return false
		case <-timeout.C:
			l.err = fmt.Errorf("%w: a breaker did not answer Snapshots in %v", ErrTimeout, askTimeout)
			return false
		}
	}
	for _, s := range snaps {
		if !l.yield(s) {
			return false
		}
	}
	return true
}

func (l *lister) yield(s Snapshot) bool {
	if l.ended() {
		return false
	}
	if !l.fn(s) {
		l.stopped = true
		return false
	}
	return true
}

// ended reports, and keeps as the listing's error, whether its context has
// ended: fn may cancel it, and is then called no more.
func (l *lister) ended() bool {
	if err := l.ctx.Err(); err != nil {
		l.err = err
		return true
	}
	return false
}

// passivatedSnapshot is the snapshot of a key asleep: closed, zero counts.
func passivatedSnapshot(e *registry.Entry) Snapshot {
	return Snapshot{Key: e.Key, State: state.Closed, Passivated: true, Restarts: e.Cell.Restarts(), Settings: settingsOf(e.Config.Rules())}
}
