package actor

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire/internal/sendhook"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

// Call is one caller's request, posted by the caller to its key's Mailbox. It
// carries its own reply channel; whoever settles it first (the breaker, the
// supervisor, a discarded mailbox, or the caller withdrawing or giving up)
// wins, so the caller gets exactly one answer.
type Call struct {
	// status is the call's state, whether its deadline was posted to its
	// breaker, and its round: moved by whoever answers, withdraws or
	// expires the call (leave), marked posted by its backstop, and written
	// by its caller only to start a round (begin), since a backstop may
	// look at a call after it was reused (it acts in its round alone).
	status atomic.Uint64
	// signal carries at most a courier delivery and an answer, so no
	// sender blocks; courier and result are written before it, read after.
	signal chan struct{}

	// Written by its caller only: its backstop, the contexts its next uses
	// run with (forFunc), and due, when the backstop acts on the round,
	// written before the round starts.
	bs   *backstop
	ctxs []task.Context
	due  atomic.Int64

	request
	scratch
}

// request is what reuse resets of a Call.
type request struct {
	// Written by the caller before it posts or admits the call, read by
	// whoever handles it after: ctx, a function target's (forFunc); sent,
	// when the caller sent it (if it said); cell and limit, the
	// MaxInFlight slot it holds (holdSlot).
	Ctx      context.Context
	Msg      any
	Deadline time.Time
	sent     time.Time
	ctx      *task.Context
	cell     *Cell
	limit    int
	// Written by a caller that admits the call itself (Caller.admit): the
	// closed circuit's admission (cleared by the breaker's turn that admits
	// the call instead: Redirect), the key's mailbox, and the message its
	// deadline posts there.
	admittedIn *admission
	mb         *Mailbox
	expiry     expiry

	// Written by the breaker that admitted the call, in its turns (or by a
	// caller that admitted it, before it sends it): the generation, when,
	// its place in the deadline heap, its ask (&asker while live).
	gen      state.Gen
	admitted time.Time
	index    int
	ask      *task.Ask

	// Written by whoever answers the call (claim) before the signal, read
	// by its caller after: the answer, and spent, set when the answer is
	// its target's outcome and nothing else refers to the call (reusable).
	result Result
	spent  bool

	// Written by several, atomically. courier: an actor target's answered
	// ask, stored by the reply's goroutine (Deliver), taken by the caller.
	// hold: the caller and the target while each keeps the call, the last
	// to let go freeing its slot (Release). over: who took the end of a
	// call its caller admitted, so that it counts once (takeEnd, Finish).
	courier atomic.Pointer[task.Ask]
	hold    atomic.Int32
	over    atomic.Uint32
}

// scratch is where whoever starts a call's ask or job makes it, whole
// (task.Ask.Start, a Job literal): reset leaves it be.
type scratch struct {
	asker task.Ask
	job   task.Job
}

// Result is the answer to a Call.
type Result struct {
	Value any
	Err   error
	// Target is set on the target's own answer (Value and Err as it gave
	// them), not on one Tripwire gave: an error the target returns is its
	// failure, whatever it wraps (another key's ErrOpen, context.Canceled).
	Target bool
}

// A call's status: its state in the low bits, posted, and its round above.
const (
	pending uint64 = iota
	settled
	withdrawn
	expired

	stateBits  = 3
	posted     = 4 // its caller's backstop posted its deadline to its breaker
	roundShift = 3
)

// newCall returns a call for msg due by deadline, sent at sent (time.Now's:
// the breaker then reads only the monotonic clock; zero: the full clock).
func newCall(ctx context.Context, msg any, deadline, sent time.Time) *Call {
	c := &Call{signal: make(chan struct{}, signals)}
	c.reuse(ctx, msg, deadline, sent)
	c.forFunc()
	return c
}

// forFunc gives the call the context a function target runs with, one of
// a slab, each used once (a target may keep its context after the call).
func (c *Call) forFunc() {
	if len(c.ctxs) == 0 {
		c.ctxs = make([]task.Context, ctxSlab)
	}
	x := &c.ctxs[0]
	c.ctxs = c.ctxs[1:]
	x.Start(c.Ctx, c.Deadline)
	c.ctx = x
}

// ctxSlab is how many contexts a call makes at once: 896 B.
const ctxSlab = 16

// expiry is the deadline of a call its caller admitted, posted by the
// caller's timer to the breaker, which counts the timeout and answers it.
type expiry struct{ call *Call }

// Admitted reports, before the target of a call its caller admitted runs,
// whether the circuit is still the closed one that admitted it (task.Call).
func (c *Call) Admitted() bool { return c.mb.owner.Cell.admits.Load() == c.admittedIn }

// Who took the end of a call its caller admitted (Call.over).
const (
	endOpen   uint32 = iota // nobody yet
	endTaken                // a breaker's turn, or its worker, which answered it
	endHanded               // its worker, for the turn of its outcome (takeEnd)
)

// Finish takes, where it arrives, a hot key's success of a call its caller
// admitted, while the closed circuit that admitted it is quiet, without a
// turn of the breaker (hotlane.go); otherwise false: it is posted.
func (c *Call) Finish(o *task.Completion) bool {
	if o.Failed || o.Ignored || c.admittedIn == nil {
		return false
	}
	cell := &c.mb.owner.Cell
	lane := cell.hot.Load()
	if lane == nil || cell.flags.Load()&flagQuiet == 0 || cell.admits.Load() != c.admittedIn {
		return false
	}
	now := monoNow()
	sh, sl, ok := lane.begin(time.Duration(now))
	if !ok {
		return false
	}
	if !c.over.CompareAndSwap(endOpen, endHanded) {
		sl.done() // its deadline or its withdrawal: a turn took the end
		return false
	}
	if !c.claim() {
		sl.done() // answered already: the outcome's turn counts it, as it would have
		return false
	}
	sh.count(sl, now, now.sub(monoOf(c.admitted)))
	sl.done()
	c.over.Store(endTaken)
	c.ctx.Cancel(context.Canceled)
	c.spent = true // its worker is done with it: its outcome is the answer
	c.deliver(Result{Value: o.Value, Err: o.Err, Target: true})
	return true
}

// Redirect hands a call whose circuit moved before its target ran to the
// key's breaker, which admits it as any other (task.Call).
func (c *Call) Redirect() {
	c.Release() // the target's hold: the breaker takes it again if it forwards
	c.mb.PostUserMessage(c)
}

// holdSlot makes the call hold one of cell's MaxInFlight slots (limit)
// until its caller and its target are both done with it.
func (c *Call) holdSlot(cell *Cell, limit int) {
	if limit > 0 {
		c.cell, c.limit = cell, limit
		c.hold.Store(1)
	}
}

// Release lets go of the call: its caller's hold or its target's (task.Call).
func (c *Call) Release() {
	if c.cell != nil && c.hold.Add(-1) == 0 {
		c.cell.Done(c.limit)
	}
}

// engage counts the target's hold on a call the breaker forwards.
func (c *Call) engage() {
	if c.cell != nil {
		c.hold.Add(1)
	}
}

// reusable reports, once the caller has its answer, whether nothing else
// refers to c: the answer was its target's outcome, and the channel is drained.
func (c *Call) reusable() bool {
	return c.spent && len(c.signal) == 0 && c.status.Load()&posted == 0
}

// reuse readies a reusable call for a new request, keeping its channel, in
// a round of its own.
func (c *Call) reuse(ctx context.Context, msg any, deadline, sent time.Time) {
	c.reset(ctx, msg, deadline, sent)
	c.begin(c.due.Load())
}

// reset readies the call for a new request; begin then starts its round.
// Until then its backstop sees the last round, answered, and leaves it.
func (c *Call) reset(ctx context.Context, msg any, deadline, sent time.Time) {
	c.request = request{Ctx: ctx, Msg: msg, Deadline: deadline, sent: sent, index: -1}
}

// begin starts the call's next round, due at due (Caller.dueOf), written
// first: a backstop that sees the round sees it, and all written before.
func (c *Call) begin(due int64) {
	c.due.Store(due)
	c.status.Store((c.round() + 1) << roundShift)
}

// round is the call's round, as its caller reads it.
func (c *Call) round() uint64 { return c.status.Load() >> roundShift }

// anyRound is the round leave and expire are given to act in whichever
// round the call is in: no round is ever numbered so.
const anyRound = ^uint64(0)

// leave moves a pending call to state to, in round r only (or anyRound);
// it reports whether it did.
func (c *Call) leave(to, r uint64) bool {
	for {
		s := c.status.Load()
		if s&stateBits != pending || (r != anyRound && s>>roundShift != r) {
			return false
		}
		if c.status.CompareAndSwap(s, s&^stateBits|to) {
			return true
		}
	}
}

// post marks a call pending in round r as posted to its breaker (it is
// then never reused); false if it has an answer, another round, or the mark.
func (c *Call) post(r uint64) bool {
	for {
		s := c.status.Load()
		if s&stateBits != pending || s>>roundShift != r || s&posted != 0 {
			return false
		}
		if c.status.CompareAndSwap(s, s|posted) {
			return true
		}
	}
}

// now is the time, read from sent if the caller gave it.
func (c *Call) now() time.Time {
	if c.sent.IsZero() {
		return time.Now()
	}
	return since(c.sent)
}

// since is now, as t (with a monotonic reading) plus the monotonic time
// since: one clock read instead of two.
func since(t time.Time) time.Time { return t.Add(time.Since(t)) }

// signals is the room in a call's channel: a courier delivery and the answer.
const signals = 2

// take returns what a receive from the signal brought: an actor target's
// answered ask, whose Completion the caller posts, or (nil) the answer.
func (c *Call) take() (*task.Ask, Result) {
	if a := c.courier.Swap(nil); a != nil {
		return a, Result{}
	}
	return nil, c.result
}

// Owner is the key's mailbox for a call its caller admitted, whose ask
// a breaker finds among the router's waiting asks (task.Call), else nil.
func (c *Call) Owner() task.Inbox {
	if c.mb == nil {
		return nil
	}
	return c.mb
}

// Deliver hands an actor target's answered ask to the caller, which makes
// its Completion and posts it; at most once a call.
func (c *Call) Deliver(a *task.Ask) {
	c.courier.Store(a)
	c.signal <- struct{}{}
}

// Settle answers the call unless it was already answered, withdrawn or
// expired; it reports whether this answer was the one delivered.
func (c *Call) Settle(r Result) bool {
	if !c.claim() {
		return false
	}
	c.deliver(r)
	return true
}

// conclude ends the call's target context and answers it with res, unless
// it has an answer; ended by its outcome, it is spent (reusable).
func (c *Call) conclude(res Result, by endedBy) {
	c.ctx.Cancel(context.Canceled)
	if c.claim() {
		c.spent = by == byOutcome
		c.deliver(res)
	}
}

// claim reserves the right to answer the call, for whoever claims it to
// deliver (a breaker publishes the circuit between the two).
func (c *Call) claim() bool { return c.leave(settled, anyRound) }

func (c *Call) deliver(r Result) {
	c.result = r
	if sendhook.On {
		sendhook.Sent(c.Msg) // before the send, after which the caller may reuse c
	}
	c.signal <- struct{}{}
}

// withdraw marks the call abandoned by a caller whose context was
// cancelled, and cancels the target's; false if it has an answer.
func (c *Call) withdraw() bool {
	if !c.leave(withdrawn, anyRound) {
		return false
	}
	c.ctx.Cancel(context.Canceled)
	return true
}

// expire answers the call with err, given up by its caller at its
// deadline plus grace, in round r (or anyRound); false if it has an answer.
func (c *Call) expire(err error, r uint64) bool {
	if !c.leave(expired, r) {
		return false
	}
	c.ctx.Cancel(context.DeadlineExceeded)
	c.deliver(Result{Err: err})
	return true
}

// abandon lets go of the call's ask (a late reply is then ignored) and
// ends its target's context with cause.
func (c *Call) abandon(cause error) {
	if c.ask != nil {
		c.ask.Abandon()
		c.ask = nil
	}
	c.ctx.Cancel(cause)
}

// wasWithdrawn reports whether the caller withdrew the call (it then counts
// neither as success nor failure).
func (c *Call) wasWithdrawn() bool { return c.status.Load()&stateBits == withdrawn }
