package model

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// This file is the reference model: plain Go, no actors, no goroutines, no
// clock. It restates DESIGN §3 for a whole registry and predicts, for every
// operation, what each caller gets and at which fake-time instant.

// hangMargin is how long a hanging target takes to notice that its context
// ended: it returns that much later, so its (ignored) late result never ties
// with the event that ended the call.
const hangMargin = time.Millisecond

// targetKind is what the target does with one call.
type targetKind int

const (
	succeed targetKind = iota // returns the call's value after delay
	fail                      // returns errTarget after delay
	panics                    // panics after delay: a worker crashing mid-flight
	hang                      // ignores the call until its context ends
	slow                      // succeed with a delay, only as an operation
	ignored                   // returns errIgnored after delay: Classify may say Ignore
)

func (k targetKind) String() string {
	return [...]string{"succeed", "fail", "panic", "hang", "slow", "ignored"}[k]
}

// behaviour is the target's script for one call. Apart from hang, a function
// target ignores its context: it sleeps delay and then answers, like a slow
// dependency that does not watch its deadline. An actor target answers (or
// panics) delay later without blocking its mailbox; an actor that panics
// never answers the request, so that call times out like a hang.
type behaviour struct {
	kind  targetKind
	delay time.Duration
}

// kind classifies what a caller got back.
type kind int

const (
	pending kind = iota
	gotValue
	gotTargetErr
	gotPanic
	gotOpen
	gotTimeout
	gotRestarted
	gotShutdown
	gotUnknownKey
	gotDuplicateKey
	gotCanceled
	gotTargetDown
	gotOverloaded
	gotNil        // an operation without a value that succeeded
	gotIgnoredErr // errIgnored from the target
	gotOther
)

func (k kind) String() string {
	return [...]string{"pending", "value", "target error", "ErrTargetPanic", "ErrOpen",
		"ErrTimeout", "ErrBreakerRestarted", "ErrShutdown", "ErrUnknownKey",
		"ErrDuplicateKey", "context.Canceled", "ErrTargetDown", "ErrOverloaded", "nil", "ignored error", "other error"}[k]
}

// targetType is what a key's breaker forwards to.
type targetType int

const (
	funcTarget  targetType = iota // a function, run on a pool worker
	actorTarget                   // an actor that replies through an Ask
	deadTarget                    // an actor PID that does not exist
)

func (t targetType) String() string {
	return [...]string{"function", "actor", "dead actor"}[t]
}

// settings are one registration's rules and target.
type settings struct {
	threshold   int
	openTimeout time.Duration
	callTimeout time.Duration
	target      targetType
	// ignoreDown is Settings.IgnoreTargetDown: the breaker does not watch
	// its actor target. A watched dead target opens the circuit as soon as
	// each incarnation of the breaker starts.
	ignoreDown bool
	// idleTimeout is Settings.IdleTimeout (0: never passivate).
	idleTimeout time.Duration
	probes      int // Settings.HalfOpenProbes
	maxInFlight int // Settings.MaxInFlight (0: no bound)

	// window is Settings.Window as a count window (size 0: none, trip on
	// threshold consecutive failures).
	window windowSettings
	// slowCall is Settings.SlowCall (0: off): a success that took longer
	// (not as long: equal is not slow) counts as a failure.
	slowCall time.Duration
	// backoffMax is Settings.Backoff.Max with Multiplier 2 (0: no backoff).
	// Jitter stays 0: the breaker draws it at random, which no model can
	// predict to the nanosecond.
	backoffMax time.Duration
	// classify sets Settings.Classify to one that says Ignore for
	// errIgnored; without it errIgnored is an ordinary failure.
	classify bool
}

// windowSettings is a count window: over the last size outcomes, it trips
// once at least minCalls are recorded and fails/calls >= rate.
type windowSettings struct {
	size, minCalls int
	rate           float64
}

func (s settings) String() string {
	str := fmt.Sprintf("threshold=%d open=%v call=%v target=%v", s.threshold, s.openTimeout, s.callTimeout, s.target)
	if s.target != funcTarget && s.ignoreDown {
		str += " IgnoreTargetDown"
	}
	if s.idleTimeout > 0 {
		str += fmt.Sprintf(" idle=%v", s.idleTimeout)
	}
	if s.probes > 1 {
		str += fmt.Sprintf(" probes=%d", s.probes)
	}
	if s.maxInFlight > 0 {
		str += fmt.Sprintf(" maxInFlight=%d", s.maxInFlight)
	}
	if s.window.size > 0 {
		str += fmt.Sprintf(" window=%d/min%d/rate%v", s.window.size, s.window.minCalls, s.window.rate)
	}
	if s.slowCall > 0 {
		str += fmt.Sprintf(" slowCall=%v", s.slowCall)
	}
	if s.backoffMax > 0 {
		str += fmt.Sprintf(" backoff=x2,max%v", s.backoffMax)
	}
	if s.classify {
		str += " classify"
	}
	return str
}

// force is a manual override: ForceOpen, ForceClose, or neither (Reset).
type force int

const (
	notForced force = iota
	forcedOpen
	forcedClosed
)

func (f force) String() string { return [...]string{"Reset", "ForceOpen", "ForceClose"}[f] }

// breakerModel is one registered key's breaker.
type breakerModel struct {
	key      string
	s        settings
	state    state.State
	failures int
	// gen changes on every transition and every crash; a call's outcome
	// counts only if the call was admitted in the current gen.
	gen uint64
	// probes are the half-open probes in flight, passed those that
	// succeeded in this half-open period.
	probes, passed int
	forced         force
	openedAt       time.Time
	retryAt        time.Time // the recovery timer is live exactly while state == Open
	restarts       int
	// reopens counts re-opens since the last close: the backoff exponent.
	reopens int
	// outcomes is the count window, oldest first, true = failure; it
	// holds only outcomes recorded while closed and is emptied on a close.
	outcomes []bool

	lastActive time.Time // the last start, admission or end of a call, or target down
	watching   bool      // it watches its actor target
	idleCheck  time.Time // when the next idle check is due; zero: none
	passivated bool      // stopped for being idle; a call wakes it
}

// callModel is one Call and what the model predicts for it.
type callModel struct {
	id      int
	key     string
	beh     behaviour
	start   time.Time
	request bool // made with Request from an actor, so it cannot be cancelled

	b         *breakerModel // the breaker that admitted it; nil if not forwarded
	gen       uint64
	deadline  time.Time
	inFlight  bool      // forwarded and not answered yet
	workerEnd time.Time // when a function target returns; zero while a hang waits for its context
	lateAt    time.Time // when an actor target answers or panics, even if no one listens

	res kind
	at  time.Time // when the caller got res
}

// end is the instant and the way a call in flight ends by itself: the
// target's answer before the deadline, or the deadline.
func (c *callModel) end() (at time.Time, timeout bool) {
	switch {
	case c.b.s.target == deadTarget:
		return c.start, false // protoactor answers with a dead letter at once
	case c.beh.kind == hang,
		c.beh.kind == panics && c.b.s.target == actorTarget,
		!c.start.Add(c.beh.delay).Before(c.deadline):
		return c.deadline, true
	}
	return c.start.Add(c.beh.delay), false
}

// model is the whole registry.
type model struct {
	now      time.Time
	breakers map[string]*breakerModel
	calls    []*callModel
	shutdown bool
	nextGen  uint64
	// ghosts are the instants at which recovery timers of crashed or
	// removed breakers were due: they must change nothing.
	ghosts []time.Time
	// tally counts what happened, to show what a run covered.
	tally map[string]int
}

func newModel(now time.Time) *model {
	return &model{now: now, breakers: map[string]*breakerModel{}, tally: map[string]int{}}
}

func (m *model) newGen() uint64 {
	m.nextGen++
	return m.nextGen
}

// keys returns the registered keys, sorted.
func (m *model) keys() []string {
	ks := make([]string, 0, len(m.breakers))
	for k := range m.breakers {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (m *model) register(key string, s settings) kind {
	switch {
	case m.shutdown:
		return gotShutdown
	case m.breakers[key] != nil:
		return gotDuplicateKey
	}
	b := &breakerModel{key: key, s: s, state: state.Closed, gen: m.newGen()}
	m.breakers[key] = b
	m.started(b)
	return gotNil
}

func (m *model) unregister(key string) kind {
	switch {
	case m.shutdown:
		return gotShutdown
	case m.breakers[key] == nil:
		return gotUnknownKey
	}
	m.retire(m.breakers[key], gotShutdown)
	delete(m.breakers, key)
	return gotNil
}

// crash models Registry.Crash: the breaker comes back closed with 0
// failures; its calls in flight carry over to it and get their targets'
// answers (or time out) as before, but those outcomes, and its old timer,
// change nothing.
func (m *model) crash(key string) kind {
	switch {
	case m.shutdown:
		return gotShutdown
	case m.breakers[key] == nil:
		return gotUnknownKey
	}
	b := m.breakers[key]
	m.wake(b)
	if b.state == state.Open && !b.retryAt.IsZero() {
		m.ghosts = append(m.ghosts, b.retryAt)
	}
	b.state, b.failures, b.probes, b.passed, b.forced = state.Closed, 0, 0, 0, notForced
	b.openedAt, b.retryAt = time.Time{}, time.Time{}
	b.reopens, b.outcomes = 0, nil
	b.gen = m.newGen()
	b.restarts++
	m.tally["crash"]++
	m.started(b)
	return gotNil
}

// started is a new incarnation of b starting (registered, restarted after a
// crash, or woken): it is active now, arms its idle check and watches its
// actor target.
func (m *model) started(b *breakerModel) {
	b.passivated, b.lastActive = false, m.now
	if b.s.idleTimeout > 0 {
		b.idleCheck = m.now.Add(b.s.idleTimeout)
	}
	m.watch(b)
}

// watch is the breaker watching its actor target (unless IgnoreTargetDown).
// protoactor answers the watch of a dead target at once, and the breaker
// then opens (target down) and stops watching until it forwards a call.
func (m *model) watch(b *breakerModel) {
	if b.s.target == funcTarget || b.s.ignoreDown {
		return
	}
	b.watching = true
	if b.s.target == deadTarget {
		m.targetDown(b)
	}
}

// targetDown opens b at once, failures unchanged, unless it is open or
// forced; its dead target has no call waiting for a reply.
func (m *model) targetDown(b *breakerModel) {
	b.watching, b.lastActive = false, m.now
	if b.state != state.Open && b.forced == notForced {
		if b.state == state.HalfOpen {
			b.reopens++
		} else {
			b.reopens = 0
		}
		m.trip(b, m.now)
		m.tally["target down"]++
	}
}

// shutdown models Registry.Shutdown and returns when it returns: once every
// target still running has returned.
func (m *model) shutdownAll() (kind, time.Time) {
	if m.shutdown {
		return gotNil, m.now
	}
	for _, k := range m.keys() {
		m.retire(m.breakers[k], gotShutdown)
	}
	m.breakers = map[string]*breakerModel{}
	m.shutdown = true
	m.tally["shutdown"]++
	done := m.now
	for _, c := range m.calls {
		if c.workerEnd.After(done) {
			done = c.workerEnd
		}
	}
	return gotNil, done
}

// retire answers every call b has in flight with res now and remembers the
// instants its timers were due.
func (m *model) retire(b *breakerModel, res kind) {
	if b.state == state.Open && !b.retryAt.IsZero() {
		m.ghosts = append(m.ghosts, b.retryAt)
	}
	for _, c := range m.calls {
		if c.inFlight && c.b == b {
			m.answer(c, res)
		}
	}
}

// answer ends c now with res, without an outcome for the circuit.
func (m *model) answer(c *callModel, res kind) {
	c.inFlight, c.res, c.at = false, res, m.now
	if c.beh.kind == hang && c.b.s.target == funcTarget {
		c.workerEnd = m.now.Add(hangMargin) // its context was cancelled now
	}
}

// admits reports whether a call to key now would be forwarded.
func (m *model) admits(key string) bool {
	b := m.breakers[key]
	return !m.shutdown && b != nil && !b.rejecting()
}

// rejecting reports whether b answers a call with ErrOpen now: open, or
// half-open with all its probes taken. With no probe out it always admits
// one, even if passed reaches a HalfOpenProbes that Update lowered.
func (b *breakerModel) rejecting() bool {
	switch b.state {
	case state.Open:
		return true
	case state.HalfOpen:
		return b.probes > 0 && b.probes+b.passed >= b.s.probes
	}
	return false
}

// wouldTie reports whether a call to key with beh, forwarded now, would end
// at the same instant as another call of that breaker, or as its next idle
// check, in a way whose order the model cannot know (two timeouts at once
// are fine: both are failures).
func (m *model) wouldTie(key string, beh behaviour, ctxTimeout time.Duration) bool {
	b := m.breakers[key]
	probe := &callModel{beh: beh, start: m.now, b: b, deadline: m.deadline(b, ctxTimeout)}
	at, timeout := probe.end()
	if beh.kind != hang && m.now.Add(beh.delay).Equal(probe.deadline) && b.s.target != deadTarget {
		return true // the answer and the deadline at one instant
	}
	for _, c := range m.calls {
		if c.inFlight && c.b == b {
			if cat, ctimeout := c.end(); cat.Equal(at) && !(timeout && ctimeout) {
				return true
			}
		}
	}
	return b.idleCheck.Equal(at) // the next idle check; later ones advanceTo catches
}

// deadline is the deadline of a call to b made now whose context times out
// after ctxTimeout (0: no deadline): the earlier of that and the call timeout.
func (m *model) deadline(b *breakerModel, ctxTimeout time.Duration) time.Time {
	if ctxTimeout > 0 && ctxTimeout < b.s.callTimeout {
		return m.now.Add(ctxTimeout)
	}
	return m.now.Add(b.s.callTimeout)
}

// call models Registry.Call, or Registry.Request, made now with a context
// that times out after ctxTimeout (0: no deadline).
func (m *model) call(id int, key string, beh behaviour, ctxTimeout time.Duration, request bool) *callModel {
	c := &callModel{id: id, key: key, beh: beh, start: m.now, request: request}
	m.calls = append(m.calls, c)
	b := m.breakers[key]
	switch {
	case m.shutdown:
		c.res, c.at = gotShutdown, m.now
	case b == nil:
		c.res, c.at = gotUnknownKey, m.now
	case !m.admits(key):
		c.res, c.at = gotOpen, m.now // the target is not called
		m.tally["ErrOpen"]++
	case b.s.maxInFlight > 0 && m.held(b) >= b.s.maxInFlight:
		c.res, c.at = gotOverloaded, m.now
		m.tally["ErrOverloaded"]++
	default:
		// The call goes to the breaker, waking a passivated key first; a
		// woken breaker that finds its actor target dead opens at once and
		// rejects the call itself.
		m.wake(b)
		b.lastActive = m.now
		if b.rejecting() {
			c.res, c.at = gotOpen, m.now
			m.tally["ErrOpen from a woken breaker"]++
			return c
		}
		if b.state == state.HalfOpen {
			b.probes++
			m.tally["probe"]++
		}
		c.b, c.gen, c.inFlight = b, b.gen, true
		c.deadline = m.deadline(b, ctxTimeout)
		switch {
		case b.s.target == funcTarget && beh.kind != hang:
			c.workerEnd = m.now.Add(beh.delay)
		case b.s.target == actorTarget && beh.kind != hang:
			c.lateAt = m.now.Add(beh.delay)
		}
		if !b.watching {
			// Forwarding watches the target again first: a dead one opens
			// the circuit before the call's own ErrTargetDown comes back.
			m.watch(b)
		}
		if at, _ := c.end(); at.Equal(m.now) {
			m.finish(c)
		}
	}
	return c
}

// cancel models the caller cancelling c's context: the caller gets
// context.Canceled at once and the call counts neither way, but a withdrawn
// half-open probe frees the probe permit.
func (m *model) cancel(c *callModel) {
	b := c.b
	m.answer(c, gotCanceled)
	b.lastActive = m.now
	m.tally["cancel"]++
	if c.gen == b.gen && b.state == state.HalfOpen && b.probes > 0 {
		b.probes--
		m.tally["probe withdrawn"]++
	}
}

// finish ends the call c in flight at its end instant.
func (m *model) finish(c *callModel) {
	at, timeout := c.end()
	c.inFlight, c.at = false, at
	switch {
	case c.b.s.target == deadTarget:
		c.res = gotTargetDown
	case timeout:
		c.res = gotTimeout
		if c.beh.kind == hang && c.b.s.target == funcTarget {
			c.workerEnd = at.Add(hangMargin)
		}
	case c.beh.kind == succeed:
		c.res = gotValue
	case c.beh.kind == fail:
		c.res = gotTargetErr
	case c.beh.kind == ignored:
		c.res = gotIgnoredErr
	default:
		c.res = gotPanic
	}
	m.tally[c.res.String()]++
	c.b.lastActive = at // an answer or a timeout
	o := failed
	switch {
	case c.res == gotIgnoredErr && c.b.s.classify:
		o = ignoredOutcome
	case c.res == gotValue && c.b.s.slowCall > 0 && at.Sub(c.start) > c.b.s.slowCall:
		m.tally["slow call"]++
	case c.res == gotValue:
		o = succeeded
	}
	m.record(c.b, c.gen, o, at)
}

// outcome is how a call's result counts for its breaker.
type outcome int

const (
	succeeded outcome = iota
	failed
	ignoredOutcome // Classify said Ignore: counts neither way
)

// record is the outcome of a call admitted in gen: DESIGN §3.2–3.5.
func (m *model) record(b *breakerModel, gen uint64, o outcome, now time.Time) {
	if gen != b.gen {
		m.tally["stale outcome"]++
		return // admitted before the last transition or crash
	}
	if o == ignoredOutcome {
		m.tally["ignored outcome"]++
	}
	switch b.state {
	case state.Closed:
		if o == ignoredOutcome {
			return
		}
		if o == succeeded {
			b.failures = 0
		} else {
			b.failures++
		}
		if w := b.s.window; w.size > 0 {
			// The window is checked after every recorded outcome.
			b.outcomes = append(b.outcomes, o == failed)
			if len(b.outcomes) > w.size {
				b.outcomes = b.outcomes[1:]
			}
			fails := 0
			for _, f := range b.outcomes {
				if f {
					fails++
				}
			}
			calls := len(b.outcomes)
			if b.forced == notForced && calls >= w.minCalls && float64(fails)/float64(calls) >= w.rate {
				b.reopens = 0
				m.tally["window tripped"]++
				m.trip(b, now)
			}
			return
		}
		if o == failed && b.failures >= b.s.threshold && b.forced == notForced {
			b.reopens = 0
			m.trip(b, now)
		}
	case state.HalfOpen:
		if b.probes == 0 {
			return
		}
		b.probes--
		switch o {
		case ignoredOutcome:
			m.tally["ignored probe"]++ // frees its permit
		case succeeded:
			b.passed++
			if b.passed >= b.s.probes {
				b.failures, b.reopens = 0, 0
				m.close(b)
				m.tally["probes closed it"]++
			}
		default:
			b.failures++
			b.reopens++
			m.tally["probe reopened it"]++
			m.trip(b, now)
		}
	}
}

// trip opens b at now and starts its recovery timer, stretched by the
// backoff of b.reopens re-opens: min(Max, OpenTimeout*2^reopens).
func (m *model) trip(b *breakerModel, now time.Time) {
	m.moveTo(b, state.Open)
	after := b.s.openTimeout
	if b.s.backoffMax > 0 {
		for range b.reopens {
			if after >= b.s.backoffMax {
				break
			}
			after *= 2
		}
		if after > b.s.backoffMax {
			after = b.s.backoffMax
		}
		if b.reopens > 0 {
			m.tally["backed off"]++
		}
	}
	b.openedAt, b.retryAt = now, now.Add(after)
	m.tally["trip"]++
}

// close closes b (failures as they are) and empties its window.
func (m *model) close(b *breakerModel) {
	m.moveTo(b, state.Closed)
	b.openedAt, b.retryAt = time.Time{}, time.Time{}
	b.outcomes = nil
}

// moveTo is a transition: a new gen, and no probes. A recovery timer still
// armed from before changes nothing any more.
func (m *model) moveTo(b *breakerModel, to state.State) {
	if b.state == state.Open && !b.retryAt.IsZero() {
		m.ghosts = append(m.ghosts, b.retryAt)
	}
	b.state, b.probes, b.passed = to, 0, 0
	b.gen = m.newGen()
}

// force models ForceOpen, ForceClose and Reset.
func (m *model) force(key string, f force) kind {
	b := m.breakers[key]
	switch {
	case m.shutdown:
		return gotShutdown
	case b == nil:
		return gotUnknownKey
	}
	m.wake(b)
	m.tally[f.String()]++
	switch f {
	case forcedOpen:
		b.forced = forcedOpen
		m.moveTo(b, state.Open)
		b.openedAt, b.retryAt = m.now, time.Time{} // no recovery timer
	case forcedClosed:
		b.forced, b.reopens = forcedClosed, 0
		m.close(b) // failures still count, but never open it
	default:
		b.forced, b.failures, b.reopens = notForced, 0, 0
		m.close(b)
	}
	return gotNil
}

// update models Registry.Update: the new rules apply from the next call;
// state, counts, window, re-opens and a recovery timer already armed are
// kept. It wakes a passivated breaker, like Snapshot.
func (m *model) update(key string, s settings) kind {
	b := m.breakers[key]
	switch {
	case m.shutdown:
		return gotShutdown
	case b == nil:
		return gotUnknownKey
	}
	b.s = s
	m.wake(b)
	m.tally["Update"]++
	return gotNil
}

// advanceTo runs every event up to and including t in time order. Events of
// different breakers are independent; events of one breaker at one instant
// are only timeouts of calls admitted together, or a recovery timer and the
// late outcomes of calls admitted before the circuit opened, whose order
// does not matter. An idle check at the instant a call of its breaker ends
// is a tie whose order does matter: advanceTo reports it, and the case is
// discarded.
func (m *model) advanceTo(t time.Time) (tie bool) {
	for {
		var (
			next  time.Time
			call  *callModel
			timer *breakerModel
			idle  *breakerModel
		)
		earlier := func(at time.Time) bool {
			return !at.After(t) && (call == nil && timer == nil && idle == nil || at.Before(next))
		}
		for _, c := range m.calls {
			if !c.inFlight {
				continue
			}
			if at, _ := c.end(); earlier(at) {
				next, call = at, c
			}
		}
		for _, k := range m.keys() {
			b := m.breakers[k]
			if b.state == state.Open && b.forced != forcedOpen && earlier(b.retryAt) {
				next, call, timer, idle = b.retryAt, nil, b, nil
			}
			if !b.idleCheck.IsZero() && earlier(b.idleCheck) {
				next, call, timer, idle = b.idleCheck, nil, nil, b
			}
		}
		switch {
		case timer != nil:
			m.now = next
			m.moveTo(timer, state.HalfOpen)
			m.tally["half-open"]++
		case idle != nil:
			m.now = next
			for _, c := range m.calls {
				if c.b == idle && idle.s.maxInFlight > 0 && c.workerEnd.Equal(next) {
					tie = true // its slot given back at the idle check's instant
				}
				if !c.inFlight || c.b != idle {
					continue
				}
				if at, _ := c.end(); at.Equal(next) {
					tie = true
				}
			}
			m.checkIdle(idle)
		case call != nil:
			m.now = next
			if call.b.idleCheck.Equal(next) {
				tie = true
			}
			m.finish(call)
		default:
			m.now = t
			return tie
		}
	}
}

// checkIdle is b's idle check, due now: a closed breaker with nothing in
// flight, no MaxInFlight slot held by a target still running, and no
// admission or outcome for IdleTimeout stops (passivates); otherwise it
// checks again when that could first be true.
func (m *model) checkIdle(b *breakerModel) {
	idleFor := m.now.Sub(b.lastActive)
	slots := b.s.maxInFlight == 0 || m.held(b) == 0 // no target still runs a call answered already
	if b.state == state.Closed && b.forced == notForced && m.inFlight(b) == 0 && slots && idleFor >= b.s.idleTimeout {
		b.passivated, b.idleCheck = true, time.Time{}
		m.tally["passivated"]++
		return
	}
	wait := b.s.idleTimeout - idleFor
	if wait <= 0 {
		wait = b.s.idleTimeout
	}
	b.idleCheck = m.now.Add(wait)
}

// wake starts a breaker for a passivated key, as a call, a Snapshot or a
// Crash does: a new incarnation, closed with 0 failures.
func (m *model) wake(b *breakerModel) {
	if !b.passivated {
		return
	}
	b.failures, b.probes, b.passed = 0, 0, 0
	b.reopens, b.outcomes = 0, nil
	b.gen = m.newGen()
	m.tally["woken"]++
	m.started(b)
}

// upcoming returns the instants after now at which something happens or
// must not happen: what Advance aims at, ±1ns.
func (m *model) upcoming() []time.Time {
	var ts []time.Time
	add := func(t time.Time) {
		if t.After(m.now) {
			ts = append(ts, t)
		}
	}
	for _, c := range m.calls {
		if c.inFlight {
			at, _ := c.end()
			add(at)
		}
		if c.b != nil {
			add(c.deadline) // the breaker's deadline timer may still be armed there
			add(c.workerEnd)
			add(c.lateAt)
		}
	}
	for _, b := range m.breakers {
		if b.state == state.Open && b.forced != forcedOpen {
			add(b.retryAt)
		}
		add(b.idleCheck)
	}
	for _, g := range m.ghosts {
		add(g)
	}
	slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
	return slices.CompactFunc(ts, time.Time.Equal)
}

// held is the number of calls that occupy one of b's MaxInFlight slots:
// forwarded and not answered, or answered while their function target is
// still running (a call the target outlives keeps its slot until it
// returns; an actor target's call ends with its reply or its deadline).
func (m *model) held(b *breakerModel) int {
	n := 0
	for _, c := range m.calls {
		if c.b == b && (c.inFlight || b.s.target == funcTarget && c.workerEnd.After(m.now)) {
			n++
		}
	}
	return n
}

// inFlight is the number of calls b has forwarded and not answered.
func (m *model) inFlight(b *breakerModel) int {
	n := 0
	for _, c := range m.calls {
		if c.inFlight && c.b == b {
			n++
		}
	}
	return n
}
