package tripwiretest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Func is the shape of an untyped function target: tripwire.Func takes one.
type Func = func(ctx context.Context, msg any) (any, error)

// Script decides the fate of each call to the targets built from it. The
// zero value is a healthy script with a random seed; New takes options.
// Setters replace the previous setting (FailNext(2) then FailNext(5) fails
// the next 5 calls, not 7). A Script is safe for concurrent use.
//
// A call's fate is decided when it arrives, in this order:
//
//  1. after Die: the call fails with an error wrapping ErrDown at once (an
//     actor target also stops itself);
//  2. after Hang, or with probability HangRate: the call hangs, ignoring its
//     context, until Release; then it goes on as a healthy call would;
//  3. while PanicNext has calls left: the target panics;
//  4. while FailNext has calls left, or with probability FailRate: the call
//     fails with an error wrapping ErrInjected;
//  5. otherwise it succeeds: the call carries out its Op if its message is
//     one, or else the inner function answers.
//
// Latency delays the answer of every call that is not down (a hung call
// waits for it after Release).
type Script struct {
	mu        sync.Mutex
	rng       *rand.Rand
	calls     int64
	failNext  int
	panicNext int
	failRate  float64
	hangRate  float64
	latency   time.Duration
	hangAll   bool
	dead      bool
	gate      chan struct{} // closed by Release; nil while no call hangs
	parked    []func()      // hung actor calls, resumed by Release
	actors    map[actorKey]*actorEntry

	failures, panics, hangs, downs atomic.Int64
	running                        atomic.Int64 // calls in function targets now
	peak                           highMark     // the most of them at once
}

// Counts is what a script has done so far.
type Counts struct {
	Calls    int64 // calls seen
	Failures int64 // errors wrapping ErrInjected returned or replied
	Panics   int64 // panics raised
	Hangs    int64 // calls hung (released or not), and Ops that Hang or are Stuck
	Downs    int64 // errors wrapping ErrDown returned or replied
}

// New returns a healthy script.
func New(opts ...Option) *Script {
	s := &Script{}
	for _, o := range opts {
		if o != nil {
			o.applyScript(s)
		}
	}
	return s
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// FailNext makes the next n calls fail with an error wrapping ErrInjected
// (calls that hang or are down do not use one up). n = 0 clears it.
func (s *Script) FailNext(n int) error {
	if n < 0 {
		return fmt.Errorf("%w: FailNext(%d): negative count", ErrInvalid, n)
	}
	s.mu.Lock()
	s.failNext = n
	s.mu.Unlock()
	return nil
}

// PanicNext makes the target panic on the next n calls. A function target's
// panic reaches the caller as tripwire.ErrTargetPanic; an actor target is
// restarted by its supervisor and the call gets no answer, so it times out.
func (s *Script) PanicNext(n int) error {
	if n < 0 {
		return fmt.Errorf("%w: PanicNext(%d): negative count", ErrInvalid, n)
	}
	s.mu.Lock()
	s.panicNext = n
	s.mu.Unlock()
	return nil
}

// FailRate makes each call fail with probability p, in [0, 1].
func (s *Script) FailRate(p float64) error {
	if err := checkRate("FailRate", p); err != nil {
		return err
	}
	s.mu.Lock()
	s.failRate = p
	s.mu.Unlock()
	return nil
}

// HangRate makes each call hang with probability p, in [0, 1], until the
// next Release.
func (s *Script) HangRate(p float64) error {
	if err := checkRate("HangRate", p); err != nil {
		return err
	}
	s.mu.Lock()
	s.hangRate = p
	s.mu.Unlock()
	return nil
}

func checkRate(name string, p float64) error {
	if math.IsNaN(p) || p < 0 || p > 1 {
		return fmt.Errorf("%w: %s(%v): not a probability in [0, 1]", ErrInvalid, name, p)
	}
	return nil
}

// Latency delays every answer by d. A function target that is delayed
// returns ctx.Err() if its context ends first, as a well-behaved slow
// dependency does; an actor target answers after d whatever happens.
func (s *Script) Latency(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%w: Latency(%v): negative duration", ErrInvalid, d)
	}
	s.mu.Lock()
	s.latency = d
	s.mu.Unlock()
	return nil
}

// Hang makes every later call hang, ignoring its context, until Release.
// A hung function target keeps its Tripwire worker busy: Release every hung
// call before Registry.Shutdown, or Shutdown waits for its context to end.
func (s *Script) Hang() {
	s.mu.Lock()
	s.hangAll = true
	s.mu.Unlock()
}

// Release ends Hang and lets every hung call go on; a HangRate stays set.
func (s *Script) Release() {
	s.mu.Lock()
	s.hangAll = false
	gate, parked := s.gate, s.parked
	s.gate, s.parked = nil, nil
	s.mu.Unlock()
	if gate != nil {
		close(gate)
	}
	for _, resume := range parked {
		resume()
	}
}

// Revive undoes Die for later calls: a function target answers again. An
// actor target that stopped stays stopped; spawn a new one.
func (s *Script) Revive() {
	s.mu.Lock()
	s.dead = false
	s.mu.Unlock()
}

// Heal clears every fault (counts, rates, latency, Hang, Die) and releases
// the hung calls.
func (s *Script) Heal() {
	s.mu.Lock()
	s.failNext, s.panicNext = 0, 0
	s.failRate, s.hangRate = 0, 0
	s.latency = 0
	s.dead = false
	s.mu.Unlock()
	s.Release()
}

// Counts returns what the script has done so far.
func (s *Script) Counts() Counts {
	s.mu.Lock()
	calls := s.calls
	s.mu.Unlock()
	return Counts{
		Calls:    calls,
		Failures: s.failures.Load(),
		Panics:   s.panics.Load(),
		Hangs:    s.hangs.Load(),
		Downs:    s.downs.Load(),
	}
}

// kind is what a call does once it has waited (hang, latency).
type kind int

const (
	succeed kind = iota
	fail
	panicking
	down
)

// fate is the decision for one call.
type fate struct {
	n     int64 // the call's number, from 1
	kind  kind
	delay time.Duration
	gate  chan struct{} // non-nil: the call hangs until this is closed
	// parked: the call hangs, and Release resumes it through the callback
	// given to enter.
	parked bool
}

// enter decides the fate of a call as it arrives. If the call hangs and
// onRelease is not nil, Release calls onRelease(f) instead of closing a gate
// the call would wait on: an actor must not block.
func (s *Script) enter(onRelease func(fate)) fate {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	f := fate{n: s.calls}
	if s.dead {
		f.kind = down
		return f
	}
	f.delay = s.latency
	if s.hangAll || (s.hangRate > 0 && s.float() < s.hangRate) {
		s.hangs.Add(1)
		if onRelease != nil {
			f.parked = true
			s.parked = append(s.parked, func() { onRelease(f) })
			return f
		}
		if s.gate == nil {
			s.gate = make(chan struct{})
		}
		f.gate = s.gate
		return f
	}
	switch {
	case s.panicNext > 0:
		s.panicNext--
		f.kind = panicking
	case s.failNext > 0:
		s.failNext--
		f.kind = fail
	case s.failRate > 0 && s.float() < s.failRate:
		f.kind = fail
	}
	return f
}

// float draws from the script's generator, seeding it at random on first use.
func (s *Script) float() float64 {
	if s.rng == nil {
		s.rng = newRand(rand.Uint64())
	}
	return s.rng.Float64()
}

// outcome turns a fault into its error, counting it. It panics for a panic.
func (s *Script) outcome(f fate) error {
	switch f.kind {
	case down:
		s.downs.Add(1)
		return fmt.Errorf("%w (call %d)", ErrDown, f.n)
	case fail:
		s.failures.Add(1)
		return fmt.Errorf("%w (call %d)", ErrInjected, f.n)
	case panicking:
		s.panics.Add(1)
		panic(fmt.Sprintf("tripwiretest: injected panic (call %d)", f.n))
	}
	return nil
}

func echo(_ context.Context, msg any) (any, error) { return msg, nil }
