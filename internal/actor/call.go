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
	// breaker, and its round. Whoever answers, withdraws or expires the
	// call moves its state (leave, a compare-and-swap), its backstop marks
	// it posted, and its caller starts each round (begin) — and writes it
	// for nothing else, because a caller's backstop may look at a call it
	// watched after the call was reused (it acts only in the round it
	// watched).
	status atomic.Uint64
	// signal, made with the call, carries at most one courier delivery and
	// one answer, so no sender ever blocks; the values themselves are in
	// courier and result (written before the signal, read after it).
	signal chan struct{}

	// Written by its caller only: its backstop, the call's for its life,
	// and the contexts its next uses run with (forFunc). due, when the
	// backstop acts on the round in status, the caller writes before it
	// starts the round, for the backstop to read.
	bs   *backstop
	ctxs []task.Context
	due  atomic.Int64

	request
	scratch
}

// request is a Call but its status, its channel and its caller's own: what
// reuse resets.
type request struct {
	// Written by the caller before it posts the call or admits it (reset,
	// forFunc, holdSlot, admit), read by whoever handles it after. ctx is
	// what a function target runs with: used by this call alone, since the
	// target may keep it after the call (nil for an actor target's call
	// from a Caller, which needs none). sent is when the caller sent it, if
	// it said. cell and limit are the key whose MaxInFlight slot the call
	// holds (holdSlot).
	Ctx      context.Context
	Msg      any
	Deadline time.Time
	sent     time.Time
	ctx      *task.Context
	cell     *Cell
	limit    int
	// Written by a caller that admits the call itself (Caller.admit): the
	// admission of the closed circuit that admitted it (as the key's Cell
	// published it; the breaker clears it, in its turn, if it admits the
	// call instead: see Redirect), the key's mailbox, and the message its
	// deadline posts there.
	admittedIn *admission
	mb         *Mailbox
	expiry     expiry

	// Written by the breaker that admitted the call, in its turns — or by
	// its caller before it sends a call it admitted itself: the generation
	// that admitted it, when, its place in the breaker's deadline heap, and
	// its ask (&asker while the ask is live).
	gen      state.Gen
	admitted time.Time
	index    int
	ask      *task.Ask

	// Written by whoever answers the call (claim) before the signal, read
	// by its caller after it: the answer, and spent — answered by its
	// breaker from its target's outcome, after which nothing but the caller
	// refers to the call (see reusable).
	result Result
	spent  bool

	// Written by several, atomically. courier: the answered ask of an
	// actor target, stored by the reply's goroutine (Deliver), taken by
	// the caller. hold: who still keeps the call in flight for
	// MaxInFlight — its caller until it has its answer, the target until
	// it is done with it; the last to let go frees the key's slot
	// (Release). over: who took the end of a call its caller admitted (its
	// outcome, its deadline or its withdrawal: whichever came first), so
	// that it counts once — a breaker's turn (takeEnd), or its worker
	// (Finish), which hands it to the outcome's turn if it cannot answer.
	courier atomic.Pointer[task.Ask]
	hold    atomic.Int32
	over    atomic.Uint32
}

// scratch is what a call's ask or job is made in, written by whoever
// starts it (the breaker, or the caller that admitted the call): each is
// made whole when it is used (task.Ask.Start, a Job literal), so reset
// leaves them be.
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

// newCall returns a call for msg that must be answered by deadline, sent by
// a caller that read the clock at sent (time.Now, with its monotonic
// reading): the breaker then tells the time from sent with a monotonic read
// only, which on some machines costs half a full clock read. A zero sent
// makes the breaker read the clock in full.
func newCall(ctx context.Context, msg any, deadline, sent time.Time) *Call {
	c := &Call{signal: make(chan struct{}, signals)}
	c.reuse(ctx, msg, deadline, sent)
	c.forFunc()
	return c
}

// forFunc gives the call the context a function target runs with. The
// caller does it before it posts the call. The contexts are made ctxSlab
// at a time, one allocation for as many uses of the call: each is used
// once, since a target may keep its context after the call (a slab is
// collected once none of its contexts is referred to).
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

// Admitted reports, on the worker about to run the target of a call its
// caller admitted, whether the key's circuit is still the closed one that
// admitted it (task.Call).
func (c *Call) Admitted() bool { return c.mb.owner.Cell.admits.Load() == c.admittedIn }

// Who took the end of a call its caller admitted (Call.over).
const (
	endOpen   uint32 = iota // nobody yet
	endTaken                // a breaker's turn, or its worker, which answered it
	endHanded               // its worker, for the turn of its outcome (takeEnd)
)

// Finish takes a target's outcome where it arrives — a function target's
// on its worker, an actor target's reply on its caller — without a turn
// of the key's breaker, when that turn would only count it and answer (see
// hotlane.go): a success of a call its caller admitted, on a key with a
// hot lane, whose circuit is still the closed one that admitted it and
// quiet (Circuit.Quiet: a success changes nothing in it), answered by
// nobody else yet (task.Call). Otherwise it reports false, and the
// worker or the caller posts the outcome. A success counts once the
// breaker's Quiet is published, as if it had ended before a failure that
// the breaker is counting meanwhile.
func (c *Call) Finish(o *task.Completion) bool {
	if o.Failed || o.Ignored || c.admittedIn == nil {
		return false
	}
	cell := &c.mb.owner.Cell
	lane := cell.hot.Load()
	if lane == nil || cell.flags.Load()&flagQuiet == 0 || cell.admits.Load() != c.admittedIn {
		return false
	}
	now := since(c.admitted)
	sh, sl, ok := lane.begin(now)
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
	sh.count(sl, now, now.Sub(c.admitted))
	sl.done()
	c.over.Store(endTaken)
	c.ctx.Cancel(context.Canceled)
	c.spent = true // its worker is done with it: its outcome is the answer
	c.deliver(Result{Value: o.Value, Err: o.Err, Target: true})
	return true
}

// Redirect hands a call whose circuit moved between its caller's admission
// and its worker to the key's breaker, which admits it as it admits any
// other (task.Call): the target has not run.
func (c *Call) Redirect() {
	c.Release() // the target's hold: the breaker takes it again if it forwards
	c.mb.PostUserMessage(c)
}

// holdSlot makes the call occupy one of cell's MaxInFlight slots (limit, as
// Cell.Admit counted it) until both its caller has released it and its
// target is done with it: a target that outlives its call's answer (a crash
// of the breaker, a deadline the target ignores) keeps its slot, so the calls
// running in a target never exceed MaxInFlight.
func (c *Call) holdSlot(cell *Cell, limit int) {
	if limit > 0 {
		c.cell, c.limit = cell, limit
		c.hold.Store(1)
	}
}

// Release lets go of the call, once by its caller after the answer and once
// by the data plane when the target is done with it (task.Call).
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

// reusable reports, once the caller has taken the answer, whether nothing
// but the caller refers to c any more, so that Reuse may ready it for
// another request: its breaker answered it from its target's outcome — an
// actor target's reply (the breaker's table and the reply router have let
// go of it, and the target was given a sender PID of the ask's own) or a
// function target's return (its worker has let go of it, and the context
// the target may keep is an allocation of its own) — and its channel is
// drained.
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

// begin starts the call's next round, which its backstop acts on at due
// (Caller.dueOf). due is written first, so that the backstop, reading the
// round and then when it is due, never takes an earlier round's due for
// it, and everything the caller wrote before begin (the request, its
// admission) is there for the backstop that sees the round.
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

// post marks a call pending in round r as having its deadline posted to
// its breaker (its caller then never reuses it); it fails if the call has
// been answered, reused, or marked already.
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

// since is now, as t plus the monotonic time elapsed since t: one monotonic
// clock read instead of a wall and a monotonic one. t must carry a
// monotonic reading (it came from time.Now).
func since(t time.Time) time.Time { return t.Add(time.Since(t)) }

// signals is the room in a call's channel: a courier delivery and the
// answer, so that no sender ever blocks.
const signals = 2

// signaled receives once for a courier outcome and once for the answer; after
// each receive, Take says which it was.
func (c *Call) signaled() <-chan struct{} { return c.signal }

// got is what one receive from Signal brought.
type got int

const (
	// gotAnswer: the call's answer.
	gotAnswer got = iota
	// reply: the answered ask of an actor target, whose Completion the
	// caller must post to its key's mailbox.
	reply
)

// take returns, after a receive from Signal, what that receive brought: the
// call's answer, or the ask of an actor target whose Completion the caller must
// post to its key's mailbox.
func (c *Call) take() (got got, answer Result, courier *task.Ask) {
	if o := c.courier.Swap(nil); o != nil {
		return reply, Result{}, o
	}
	return gotAnswer, c.result, nil
}

// Owner is the key's mailbox for a call its caller admitted, whose ask
// a breaker finds among the router's waiting asks (task.Call), else nil.
func (c *Call) Owner() task.Inbox {
	if c.mb == nil {
		return nil
	}
	return c.mb
}

// Deliver hands the answered ask of an actor target to the caller, whose
// goroutine then makes its Completion and sends it to the breaker; it runs at
// most once per call.
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

// claim reserves the right to answer the call; whoever claims it must
// deliver. The breaker claims, updates and publishes the circuit, then
// delivers, so a caller that got its answer sees the state it caused.
func (c *Call) claim() bool { return c.leave(settled, anyRound) }

func (c *Call) deliver(r Result) {
	c.result = r
	if sendhook.On {
		sendhook.Sent(c.Msg) // before the send, after which the caller may reuse c
	}
	c.signal <- struct{}{}
}

// withdraw marks the call as abandoned by a caller whose context was
// cancelled, and cancels the target's context. It fails if an answer was
// already given.
func (c *Call) withdraw() bool {
	if !c.leave(withdrawn, anyRound) {
		return false
	}
	c.ctx.Cancel(context.Canceled)
	return true
}

// expire marks the call as given up by its caller at deadline plus grace,
// in round r only (or anyRound), and answers it with err. It fails if an
// answer was already given.
func (c *Call) expire(err error, r uint64) bool {
	if !c.leave(expired, r) {
		return false
	}
	c.ctx.Cancel(context.DeadlineExceeded)
	c.deliver(Result{Err: err})
	return true
}

// abandon frees what the data plane holds for the call's ask; a late reply
// is then ignored.
func (c *Call) abandon() {
	if c.ask != nil {
		c.ask.Abandon()
		c.ask = nil
	}
}

// wasWithdrawn reports whether the caller withdrew the call (it then counts
// neither as success nor failure).
func (c *Call) wasWithdrawn() bool { return c.status.Load()&stateBits == withdrawn }
