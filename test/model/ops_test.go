package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"pgregory.net/rapid"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// The operations of the state machine. Each one draws its inputs, runs
// against the real registry, waits until the bubble is idle
// (synctest.Wait), applies the same operation to the model and compares
// what the operation itself returned. Check (registry_test.go) then compares
// everything else.

// modelKeys are the keys operations pick from; a small set, so that
// operations meet on the same breaker.
var modelKeys = []string{"a", "b", "c"}

// errTarget is what a failing target returns.
var errTarget = errors.New("target failed")

// errIgnored is what an ignored target returns; a key drawn with classify
// counts it neither way.
var errIgnored = errors.New("target says: ignore me")

// ignoreClassify is the Settings.Classify of a key drawn with classify.
func ignoreClassify(_ any, err error) state.Verdict {
	switch {
	case errors.Is(err, errIgnored):
		return state.Ignore
	case err != nil:
		return state.Failure
	}
	return state.Success
}

// job is the message of one call: which call it is and what the target does.
type job struct {
	id  int
	beh behaviour
}

// valueOf is what the target answers for call id when it succeeds.
func valueOf(id int) string { return fmt.Sprintf("value-%d", id) }

// realCall is one Call running on its own goroutine, or one Request, and
// what its caller got.
type realCall struct {
	done    chan struct{}
	v       any
	err     error
	at      time.Time
	cancel  context.CancelFunc
	checked bool // its result was compared with the model's
}

// machine is the real registry, the model beside it, and the calls of one case.
type machine struct {
	t0       time.Time
	m        *model
	sys      *actor.ActorSystem
	reg      *tripwire.Registry
	actorPID *actor.PID  // the actor target of every key with one
	calls    []*realCall // by call id, like m.calls

	askerPID *actor.PID // the actor that makes requests

	mu       sync.Mutex
	invoked  map[int]int       // call id -> times the target ran
	requests map[int]*realCall // requests not answered yet
	faults   []string          // what went wrong off the test goroutine
	// updates are the transitions with reason "updated", as Subscribe
	// delivered them.
	updates []state.Transition

	steps             int
	shutdownNotBefore int
	tie               bool // two events of one breaker fell on one instant
}

// target is the function target of every key: it runs the job's script.
func (s *machine) target(ctx context.Context, msg any) (any, error) {
	j := msg.(*job)
	s.count(j.id)
	if j.beh.kind == hang {
		<-ctx.Done()
		time.Sleep(hangMargin)
		return nil, ctx.Err()
	}
	time.Sleep(j.beh.delay) // deaf to ctx, like a slow dependency
	switch j.beh.kind {
	case succeed:
		return valueOf(j.id), nil
	case fail, ignored:
		return nil, reply(j).(error)
	default:
		panic(fmt.Sprintf("call %d: the worker crashed", j.id))
	}
}

// count notes that the target ran for call id.
func (s *machine) count(id int) {
	s.mu.Lock()
	s.invoked[id]++
	s.mu.Unlock()
}

// reply is what the target answers for j when it does not panic.
func reply(j *job) any {
	switch j.beh.kind {
	case fail:
		return fmt.Errorf("call %d: %w", j.id, errTarget)
	case ignored:
		return fmt.Errorf("call %d: %w", j.id, errIgnored)
	}
	return valueOf(j.id)
}

// crashTarget makes the actor target panic delay after a request.
type crashTarget struct{ id int }

// spawnTargetActor spawns the actor target under a parent that restarts it
// whenever it panics, however often.
func (s *machine) spawnTargetActor() *actor.PID {
	spawned := make(chan *actor.PID, 1)
	lenient := actor.NewOneForOneStrategy(math.MaxInt32, time.Second, actor.DefaultDecider)
	s.sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if _, ok := c.Message().(*actor.Started); ok {
			spawned <- c.Spawn(actor.PropsFromFunc(s.receive))
		}
	}, actor.WithSupervisor(lenient)))
	return <-spawned
}

// receive is the actor target: it runs the job's script without ever
// blocking its mailbox.
func (s *machine) receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *crashTarget:
		panic(fmt.Sprintf("call %d: the actor target crashed", m.id))
	case *job:
		s.count(m.id)
		switch {
		case m.beh.kind == hang:
		case m.beh.delay == 0 && m.beh.kind == panics:
			panic(fmt.Sprintf("call %d: the actor target crashed", m.id))
		case m.beh.delay == 0:
			c.Respond(reply(m))
		default:
			sys, self, sender := c.ActorSystem(), c.Self(), c.Sender()
			go func() {
				time.Sleep(m.beh.delay)
				if m.beh.kind == panics {
					sys.Root.Send(self, &crashTarget{id: m.id})
				} else {
					sys.Root.Send(sender, reply(m))
				}
			}()
		}
	}
}

// since is a fake-time instant as an offset from the start of the case.
func (s *machine) since(t time.Time) time.Duration { return t.Sub(s.t0) }

// classify turns what an operation returned into a kind.
func classify(err error) kind {
	for _, c := range []struct {
		err  error
		kind kind
	}{
		{errTarget, gotTargetErr},
		{errIgnored, gotIgnoredErr},
		{tripwire.ErrTargetPanic, gotPanic},
		{tripwire.ErrOpen, gotOpen},
		{tripwire.ErrTimeout, gotTimeout},
		{tripwire.ErrBreakerRestarted, gotRestarted},
		{tripwire.ErrShutdown, gotShutdown},
		{tripwire.ErrUnknownKey, gotUnknownKey},
		{tripwire.ErrDuplicateKey, gotDuplicateKey},
		{context.Canceled, gotCanceled},
		{tripwire.ErrTargetDown, gotTargetDown},
		{tripwire.ErrOverloaded, gotOverloaded},
	} {
		if errors.Is(err, c.err) {
			return c.kind
		}
	}
	if err == nil {
		return gotNil
	}
	return gotOther
}

// want fails the case unless an operation's error is of the model's kind.
func want(t *rapid.T, op string, err error, k kind) {
	t.Helper()
	if got := classify(err); got != k {
		t.Fatalf("%s returned %v (%v), the model says %v", op, got, err, k)
	}
}

func drawSettings(t *rapid.T) settings {
	st := settings{
		threshold:   rapid.IntRange(1, 4).Draw(t, "threshold"),
		openTimeout: time.Duration(rapid.IntRange(100, 5000).Draw(t, "openTimeoutMs")) * time.Millisecond,
		callTimeout: time.Duration(rapid.IntRange(100, 3000).Draw(t, "callTimeoutMs")) * time.Millisecond,
		target:      rapid.SampledFrom([]targetType{funcTarget, funcTarget, actorTarget, actorTarget, deadTarget}).Draw(t, "target"),
		probes:      rapid.SampledFrom([]int{1, 1, 1, 2, 3}).Draw(t, "halfOpenProbes"),
		maxInFlight: rapid.SampledFrom([]int{0, 0, 0, 1, 2, 3}).Draw(t, "maxInFlight"),
	}
	if st.target != funcTarget {
		st.ignoreDown = rapid.Bool().Draw(t, "ignoreTargetDown")
	}
	if rapid.IntRange(0, 2).Draw(t, "windowed") == 2 {
		size := rapid.IntRange(2, 6).Draw(t, "windowSize")
		st.window = windowSettings{
			size:     size,
			minCalls: rapid.IntRange(1, size).Draw(t, "windowMinCalls"),
			rate:     rapid.SampledFrom([]float64{0.25, 0.5, 0.75, 1}).Draw(t, "windowFailureRate"),
		}
	}
	if rapid.IntRange(0, 2).Draw(t, "slowCalls") == 2 {
		st.slowCall = time.Duration(rapid.IntRange(1, 3000).Draw(t, "slowCallMs")) * time.Millisecond
	}
	if rapid.IntRange(0, 2).Draw(t, "backsOff") == 2 {
		st.backoffMax = time.Duration(rapid.IntRange(100, 20_000).Draw(t, "backoffMaxMs")) * time.Millisecond
	}
	st.classify = rapid.Bool().Draw(t, "classify")
	if rapid.IntRange(0, 2).Draw(t, "passivates") == 2 {
		// An odd number of nanoseconds, so that idle checks hardly ever
		// fall on the instant a call ends (advanceTo reports it if one does).
		st.idleTimeout = time.Duration(rapid.IntRange(100, 5000).Draw(t, "idleTimeoutMs"))*time.Millisecond + 123_457
	}
	return st
}

func (s *machine) register(t *rapid.T, key string, st settings) {
	target := tripwire.Func(s.target)
	switch st.target {
	case actorTarget:
		target = tripwire.ActorTarget(s.actorPID)
	case deadTarget:
		target = tripwire.ActorTarget(s.sys.NewLocalPID("gone-" + key))
	}
	err := s.reg.Register(context.Background(), key, target, realSettings(st))
	synctest.Wait()
	t.Logf("+%v Register(%q, %v): %v", s.since(time.Now()), key, st, err)
	want(t, "Register", err, s.m.register(key, st))
}

// realSettings are the registry's Settings for the model's.
func realSettings(st settings) tripwire.Settings {
	rs := tripwire.Settings{
		Threshold: st.threshold, OpenTimeout: st.openTimeout, CallTimeout: st.callTimeout,
		IgnoreTargetDown: st.ignoreDown, IdleTimeout: st.idleTimeout,
		HalfOpenProbes: st.probes, MaxInFlight: st.maxInFlight,
		SlowCall: st.slowCall,
	}
	if st.window.size > 0 {
		rs.Window = state.Window{Size: st.window.size, MinCalls: st.window.minCalls, FailureRate: st.window.rate}
	}
	if st.backoffMax > 0 {
		// Jitter stays 0: it is random inside the breaker and cannot be
		// modelled to the nanosecond.
		rs.Backoff = state.Backoff{Multiplier: 2, Max: st.backoffMax}
	}
	if st.classify {
		rs.Classify = ignoreClassify
	}
	return rs
}

// Update changes a key's Threshold, OpenTimeout, CallTimeout and
// HalfOpenProbes at run time (the rest as registered, or drawn for a key
// that is not there); they apply from the next call, the state is kept.
func (s *machine) Update(t *rapid.T) {
	key := rapid.SampledFrom(modelKeys).Draw(t, "key")
	var st settings
	if b := s.m.breakers[key]; b != nil {
		st = b.s
		st.threshold = rapid.IntRange(1, 4).Draw(t, "threshold")
		st.openTimeout = time.Duration(rapid.IntRange(100, 5000).Draw(t, "openTimeoutMs")) * time.Millisecond
		st.callTimeout = time.Duration(rapid.IntRange(100, 3000).Draw(t, "callTimeoutMs")) * time.Millisecond
		st.probes = rapid.SampledFrom([]int{1, 1, 2, 3}).Draw(t, "halfOpenProbes")
	} else {
		st = drawSettings(t)
	}
	s.mu.Lock()
	before := len(s.updates)
	s.mu.Unlock()
	err := s.reg.Update(context.Background(), key, realSettings(st))
	synctest.Wait()
	t.Logf("+%v Update(%q, %v): %v", s.since(s.m.now), key, st, err)
	want(t, "Update", err, s.m.update(key, st))
	// A successful Update is one transition from the state to itself,
	// reason "updated"; a failed one is none.
	s.mu.Lock()
	got := slices.Clone(s.updates[before:])
	s.mu.Unlock()
	var wantTr []string
	if b := s.m.breakers[key]; err == nil && b != nil {
		wantTr = []string{fmt.Sprintf("%s %v->%v at +%v", key, b.state, b.state, s.since(s.m.now))}
	}
	var gotTr []string
	for _, tr := range got {
		gotTr = append(gotTr, fmt.Sprintf("%s %v->%v at +%v", tr.Key, tr.From, tr.To, s.since(tr.At)))
	}
	if !slices.Equal(gotTr, wantTr) {
		t.Fatalf("Update(%q) made the transitions %q (reason updated), the model says %q", key, gotTr, wantTr)
	}
}

// Register adds a key with drawn settings (ErrDuplicateKey if it is there).
func (s *machine) Register(t *rapid.T) {
	s.register(t, rapid.SampledFrom(modelKeys).Draw(t, "key"), drawSettings(t))
}

// Unregister removes a key: its calls in flight get ErrShutdown.
func (s *machine) Unregister(t *rapid.T) {
	key := rapid.SampledFrom(modelKeys).Draw(t, "key")
	err := s.reg.Unregister(context.Background(), key)
	synctest.Wait()
	t.Logf("+%v Unregister(%q): %v", s.since(time.Now()), key, err)
	want(t, "Unregister", err, s.m.unregister(key))
}

// Crash crashes a key's breaker 1 to 12 times in a row; more than 10 in 10 s
// make protoactor stop it, and the supervisor then respawns it.
func (s *machine) Crash(t *rapid.T) {
	key := rapid.SampledFrom(modelKeys).Draw(t, "key")
	n := rapid.SampledFrom([]int{1, 1, 1, 2, 11, 12}).Draw(t, "crashes")
	for i := range n {
		err := tripwiretest.Crash(context.Background(), s.reg, key)
		synctest.Wait()
		t.Logf("+%v Crash(%q) #%d: %v", s.since(time.Now()), key, i+1, err)
		want(t, "Crash", err, s.m.crash(key))
		if i == 10 && err == nil {
			s.m.tally["11 crashes in a row"]++
		}
		if b := s.m.breakers[key]; err == nil && (b.s.target != deadTarget || b.s.ignoreDown) {
			// A crashed breaker is back closed with 0 failures at once
			// (unless it watches a dead target: then it opens at once).
			snap, err := s.reg.Snapshot(context.Background(), key)
			if err != nil || snap.State != state.Closed || snap.Failures != 0 {
				t.Fatalf("after Crash(%q): %v with %d failures (%v), want closed with 0",
					key, snap.State, snap.Failures, err)
			}
		}
	}
}

// Force calls ForceOpen, ForceClose or Reset on a key.
func (s *machine) Force(t *rapid.T) {
	key := rapid.SampledFrom(modelKeys).Draw(t, "key")
	f := rapid.SampledFrom([]force{forcedOpen, forcedClosed, notForced}).Draw(t, "force")
	op := map[force]func(context.Context, string) error{
		forcedOpen: s.reg.ForceOpen, forcedClosed: s.reg.ForceClose, notForced: s.reg.Reset,
	}[f]
	err := op(context.Background(), key)
	synctest.Wait()
	t.Logf("+%v %v(%q): %v", s.since(s.m.now), f, key, err)
	want(t, f.String(), err, s.m.force(key, f))
}

// Shutdown shuts the registry down; every later operation gets ErrShutdown.
// It is tried only after shutdownNotBefore steps, so that most cases run a
// while first.
func (s *machine) Shutdown(t *rapid.T) {
	if s.steps < s.shutdownNotBefore {
		t.Skip("not yet")
	}
	err := s.reg.Shutdown(context.Background())
	returned := time.Now()
	synctest.Wait()
	t.Logf("+%v Shutdown: %v, returned at +%v", s.since(s.m.now), err, s.since(returned))
	k, done := s.m.shutdownAll()
	want(t, "Shutdown", err, k)
	// Shutdown returns once every target still running has returned.
	if !returned.Equal(done) {
		t.Fatalf("Shutdown returned at +%v, the model says +%v", s.since(returned), s.since(done))
	}
	s.m.advanceTo(returned)
}

// CallSucceeds calls a target that answers at once.
func (s *machine) CallSucceeds(t *rapid.T) { s.call(t, succeed, false) }

// CallIsSlow calls a target that answers after a drawn delay.
func (s *machine) CallIsSlow(t *rapid.T) { s.call(t, slow, false) }

// CallFails calls a target that fails after a drawn delay.
func (s *machine) CallFails(t *rapid.T) { s.call(t, fail, false) }

// CallPanics calls a target that panics after a drawn delay. Workers are
// pooled goroutines that recover a panicking target, so "a worker crashes
// mid-flight" is exactly this: the call fails with ErrTargetPanic, counts as
// a failure, and nothing else is disturbed.
func (s *machine) CallPanics(t *rapid.T) { s.call(t, panics, false) }

// CallHangs calls a target that waits until its context ends.
func (s *machine) CallHangs(t *rapid.T) { s.call(t, hang, false) }

// CallIgnored calls a target that returns errIgnored after a drawn delay.
func (s *machine) CallIgnored(t *rapid.T) { s.call(t, ignored, false) }

// drawDelay draws how long a target takes: at once (unless first is 1), a
// whole number of milliseconds, 1ns either side of the key's call timeout,
// or exactly its SlowCall or 1ns more.
func (s *machine) drawDelay(t *rapid.T, key string, first int) time.Duration {
	ct, slowCall := time.Second, time.Duration(0)
	if b := s.m.breakers[key]; b != nil {
		ct, slowCall = b.s.callTimeout, b.s.slowCall
	}
	last := 3
	if slowCall > 0 {
		last = 5
	}
	switch rapid.IntRange(first, last).Draw(t, "delayKind") {
	case 4:
		return slowCall
	case 5:
		return slowCall + time.Nanosecond
	case 0:
		return 0
	case 1:
		return time.Duration(rapid.IntRange(1, 3500).Draw(t, "delayMs")) * time.Millisecond
	case 2:
		return ct - time.Nanosecond
	default:
		return ct + time.Nanosecond
	}
}

// Request makes a call with Registry.Request from an actor, which gets the
// outcome as one *tripwire.Reply.
func (s *machine) Request(t *rapid.T) {
	s.call(t, rapid.SampledFrom([]targetKind{succeed, slow, fail, panics, hang, ignored}).Draw(t, "target"), true)
}

// drawBehaviour draws what the target does with a call to key.
func (s *machine) drawBehaviour(t *rapid.T, key string, k targetKind) behaviour {
	beh := behaviour{kind: k}
	switch k {
	case slow:
		beh.kind = succeed
		beh.delay = s.drawDelay(t, key, 1)
	case fail, panics, ignored:
		beh.delay = s.drawDelay(t, key, 0)
	}
	return beh
}

// call starts a call on its own goroutine (or, for a request, in the asker
// actor), so that it can stay in flight while other steps run. slow is
// succeed with a delay that is never 0. A Call's context sometimes has a
// deadline of its own, which may come before the call timeout.
func (s *machine) call(t *rapid.T, k targetKind, request bool) {
	key := rapid.SampledFrom(modelKeys).Draw(t, "key")
	beh := s.drawBehaviour(t, key, k)
	var ctxTimeout time.Duration
	if !request && rapid.IntRange(0, 3).Draw(t, "ctxDeadline") == 3 {
		ctxTimeout = time.Duration(rapid.IntRange(1, 3000).Draw(t, "ctxTimeoutMs")) * time.Millisecond
	}
	if s.m.admits(key) && s.m.wouldTie(key, beh, ctxTimeout) {
		t.Skip("the call would end at the same instant as another call of its breaker")
	}
	id := len(s.calls)
	ctx, cancel := context.WithCancel(context.Background())
	if ctxTimeout > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), ctxTimeout)
	}
	rc := &realCall{done: make(chan struct{}), cancel: cancel}
	s.calls = append(s.calls, rc)
	j := &job{id: id, beh: beh}
	if request {
		s.mu.Lock()
		s.requests[id] = rc
		s.mu.Unlock()
		s.sys.Root.Send(s.askerPID, &askFor{key: key, job: j, rc: rc})
	} else {
		go func() {
			defer close(rc.done)
			rc.v, rc.err = s.reg.Call(ctx, key, j)
			rc.at = time.Now()
		}()
	}
	synctest.Wait()
	c := s.m.call(id, key, beh, ctxTimeout, request)
	t.Logf("+%v %s #%d %q %v after %v (context timeout %v): forwarded=%v",
		s.since(s.m.now), map[bool]string{false: "Call", true: "Request"}[request],
		id, key, k, beh.delay, ctxTimeout, c.b != nil)
}

// askFor tells the asker actor to Request j from key.
type askFor struct {
	key string
	job *job
	rc  *realCall
}

// asker is an actor that makes requests and records the one reply each gets.
func (s *machine) asker(c actor.Context) {
	switch m := c.Message().(type) {
	case *askFor:
		if err := s.reg.Request(c, m.key, m.job); err != nil {
			m.rc.err, m.rc.at = err, time.Now()
			close(m.rc.done)
		}
	case *tripwire.Reply:
		j, _ := m.Request.(*job)
		if j == nil {
			s.note("a reply to an unknown request: %+v", m)
			return
		}
		s.mu.Lock()
		rc := s.requests[j.id]
		delete(s.requests, j.id)
		s.mu.Unlock()
		if rc == nil {
			s.note("a second reply to request #%d: %v, %v", j.id, m.Value, m.Err)
			return
		}
		rc.v, rc.err, rc.at = m.Value, m.Err, time.Now()
		close(rc.done)
	}
}

// note records a fault seen off the test goroutine; Check reports it.
func (s *machine) note(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, fmt.Sprintf(format, args...))
}

// Cancel cancels the context of a call in flight.
func (s *machine) Cancel(t *rapid.T) {
	var ids []int
	for _, c := range s.m.calls {
		if c.inFlight && !c.request {
			ids = append(ids, c.id)
		}
	}
	if len(ids) == 0 {
		t.Skip("no call in flight")
	}
	id := rapid.SampledFrom(ids).Draw(t, "call")
	s.calls[id].cancel()
	synctest.Wait()
	t.Logf("+%v Cancel call #%d", s.since(s.m.now), id)
	s.m.cancel(s.m.calls[id])
}

// AdvanceToEvent lets fake time run to an instant at which something is
// due (a call's answer or deadline, a recovery timer, a stale timer), or
// 1ns before or after it.
func (s *machine) AdvanceToEvent(t *rapid.T) {
	ts := s.m.upcoming()
	if len(ts) == 0 {
		t.Skip("nothing is due")
	}
	at := ts[rapid.IntRange(0, len(ts)-1).Draw(t, "event")]
	to := at.Add(rapid.SampledFrom([]time.Duration{-time.Nanosecond, 0, time.Nanosecond}).Draw(t, "offset"))
	if !to.After(s.m.now) {
		to = at
	}
	s.advance(t, to.Sub(s.m.now))
}

// AdvanceBy lets fake time run for a drawn number of milliseconds, up to
// 12 s (past the workers' idle timeout and the restart window).
func (s *machine) AdvanceBy(t *rapid.T) {
	s.advance(t, time.Duration(rapid.IntRange(1, 12_000).Draw(t, "ms"))*time.Millisecond)
}

func (s *machine) advance(t *rapid.T, d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
	t.Logf("+%v advanced by %v", s.since(s.m.now.Add(d)), d)
	to := s.m.now.Add(d)
	if slices.ContainsFunc(s.m.ghosts, to.Equal) {
		s.m.tally["stale timer instant"]++
	}
	if s.m.advanceTo(to) {
		s.tie = true // Check discards the case
	}
}

// Snapshot reads a key's snapshot, which wakes a passivated breaker; Check
// reads only State of a key the model says is passivated, so that calls
// and crashes meet passivated keys too.
func (s *machine) Snapshot(t *rapid.T) {
	key := rapid.SampledFrom(modelKeys).Draw(t, "key")
	if b := s.m.breakers[key]; b != nil && !s.m.shutdown {
		s.m.wake(b)
	}
	t.Logf("+%v Snapshot(%q)", s.since(s.m.now), key)
	s.checkKey(t, key, true)
}
