package soak

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// asker is an actor caller: it keeps AskDepth reg.Request calls in flight on
// random keys and checks that each request gets exactly one *tripwire.Reply.
// Unlike a Call, a Request can be answered twice or never, so here that is
// observable.
type asker struct {
	h        *harness
	rng      *rand.Rand
	pending  map[int64]sent
	stopping bool
	drained  *actor.PID // who waits for the last reply
	waiting  int        // askAgain messages still to come
	tally    callerTally
}

// sent is a request in flight.
type sent struct {
	key   int
	start time.Time
}

// Messages to an asker, from the run.
type (
	startAsking struct{}
	askAgain    struct{} // from the asker's own timer: the backoff after ErrOpen is over
	stopAsking  struct{} // send no more requests
	drainQuery  struct{} // answered (true) once stopped with no request in flight
	tallyQuery  struct{} // answered with the asker's callerTally
)

func newAsker(h *harness, i int) *asker {
	return &asker{h: h, rng: h.rng(11, uint64(i)), pending: map[int64]sent{}}
}

func (a *asker) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case startAsking:
		for range AskDepth {
			a.ask(ctx)
		}
	case *tripwire.Reply:
		a.reply(m)
		switch {
		case a.stopping:
		case errors.Is(m.Err, tripwire.ErrOpen):
			// Back off like the goroutine callers (see think).
			self, root := ctx.Self(), ctx.ActorSystem().Root
			a.waiting++
			time.AfterFunc(a.h.think().After(a.rng, m.Err), func() { root.Send(self, askAgain{}) })
		default:
			a.ask(ctx)
		}
	case askAgain:
		a.waiting--
		if !a.stopping {
			a.ask(ctx)
		}
	case stopAsking:
		a.stopping = true
	case drainQuery:
		a.drained = ctx.Sender()
	case tallyQuery:
		t := a.tally
		t.missing = int64(len(a.pending))
		ctx.Respond(t)
		return
	}
	if a.stopping && a.drained != nil && len(a.pending) == 0 && a.waiting == 0 {
		ctx.Send(a.drained, true)
		a.drained = nil
	}
}

func (a *asker) ask(ctx actor.Context) {
	k := a.rng.IntN(len(a.h.keys))
	id := callIDs.Add(1)
	start := time.Now()
	if err := a.h.reg.Request(ctx, a.h.keys[k], id); err != nil {
		a.tally.refused++ // no Reply will come
		a.tally.unexpected("Request: " + err.Error())
		return
	}
	a.tally.start(a.h.live)
	a.pending[id] = sent{key: k, start: start}
}

func (a *asker) reply(r *tripwire.Reply) {
	id, _ := r.Request.(int64)
	s, ok := a.pending[id]
	if !ok {
		a.tally.dups++ // a second reply, or one for a request never made
		return
	}
	delete(a.pending, id)
	if r.Key != a.h.keys[s.key] {
		a.tally.crossed++
	}
	got, _ := r.Value.(int64)
	a.tally.answered(a.h.live, s.key, id, r.Err, s.start, time.Now(), settings.CallTimeout, got == id)
}

// awaitDrained waits until the asker has every answer to its requests.
func (h *harness) awaitDrained(a *actor.PID) {
	if _, err := h.sys.Root.RequestFuture(a, drainQuery{}, drainDeadline).Result(); err != nil {
		h.problem("asker %s still has requests in flight %v after the run: %v", a.Id, drainDeadline, err)
	}
}

// askerTally returns the asker's tally.
func (h *harness) askerTally(a *actor.PID) callerTally {
	v, err := h.sys.Root.RequestFuture(a, tallyQuery{}, drainDeadline).Result()
	if err != nil {
		h.problem("asker %s tally: %v", a.Id, err)
		return callerTally{}
	}
	return v.(callerTally)
}
