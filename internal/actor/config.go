package actor

import (
	"reflect"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/timers"
	"github.com/tripwire-go/tripwire/state"
)

// Callee is what a breaker forwards to: exactly one of Func or PID is set.
type Callee struct {
	Func task.Func
	PID  *actor.PID
	// Contract, if set, is what the target declares it takes and answers;
	// one Contract serves every key of a target.
	Contract *Contract
	// Header says which asks of PID carry the DeadlineHeader
	// (WithDeadlineHeader, WithoutDeadlineHeader).
	Header task.Header
}

// Contract is what a target declares: the messages it takes and the type
// of its answers.
type Contract struct {
	// Check, if set, refuses a message before its call is admitted.
	Check func(msg any) error
	// Reply is the type of the target's answers (nil: any).
	Reply reflect.Type
}

// Checks reports whether t refuses some messages before a call is
// admitted: it has a Check, or it is an actor (which takes no nil).
func (t *Callee) Checks() bool { return t.PID != nil || (t.Contract != nil && t.Contract.Check != nil) }

// Shared is what every breaker of one registry shares.
type Shared struct {
	Pool *task.Pool
	// Logger logs for the breakers; each line names its key.
	Logger *zap.Logger
	// Listener, if set, is told of every transition.
	Listener Listener
	// Idle arms the breakers' idle checks, deadline ticks and drain checks.
	Idle timers.Timers[Mailbox, *Mailbox]
	// Wake is called when something is posted to a passivated key: it is
	// to start a breaker for it (see Mailbox.Passivate).
	Wake func(*Config)
}

// Rules are a key's settings: immutable, so keys with the same settings
// share one Rules (a factory's usually do); Update replaces them whole.
type Rules struct {
	Circuit     state.Settings
	CallTimeout time.Duration
	Classify    task.Classifier
	// IsFailure and Verdicts are the user's classifier as given (at most
	// one is set), which Classify runs: a Snapshot reports them.
	IsFailure func(any, error) bool
	Verdicts  func(any, error) state.Verdict
	// MaxInFlight bounds the calls in flight (0: no bound); see Cell.Admit.
	MaxInFlight int
	// WatchTarget makes the breaker watch an actor target and open at once
	// when it terminates.
	WatchTarget bool
	// IgnoreTargetDown is the setting as given (WatchTarget is what it
	// makes of it for the key's target).
	IgnoreTargetDown bool
	// IdleTimeout, if positive, stops a closed breaker with no calls for that
	// long; the next call starts it again.
	IdleTimeout time.Duration
}

// Config is one key: what its breakers need, the state that outlives them
// (Cell) and its mailbox; the whole of a passivated key.
type Config struct {
	Key    string
	Target Callee
	Shared *Shared
	rules  atomic.Pointer[Rules]
	meter  atomic.Pointer[Meter] // nil until the metrics count something (see Meter)
	Cell   Cell
	// Mailbox takes every call, outcome and request for the key.
	Mailbox Mailbox
}

// Init sets up c for key, before anything else uses it.
func (c *Config) Init(key string, target Callee, rules *Rules, shared *Shared) {
	c.Key, c.Target, c.Shared = key, target, shared
	c.rules.Store(rules)
	c.Mailbox.owner = c
}

// Rules are the settings in force. Callers see a new CallTimeout at once;
// a breaker applies the rest when it gets a Reconfigure (or starts).
func (c *Config) Rules() *Rules { return c.rules.Load() }

// Update replaces the rules but WatchTarget, IgnoreTargetDown and
// IdleTimeout, which are fixed when the key is made.
func (c *Config) Update(r Rules) {
	old := c.rules.Load()
	r.WatchTarget, r.IgnoreTargetDown, r.IdleTimeout = old.WatchTarget, old.IgnoreTargetDown, old.IdleTimeout
	c.rules.Store(&r)
}

// Limits are the CallTimeout and MaxInFlight in force.
func (c *Config) Limits() (callTimeout time.Duration, maxInFlight int) {
	r := c.rules.Load()
	return r.CallTimeout, r.MaxInFlight
}

// Listener is told what breakers do, after the fact, on a breaker's or the
// supervisor's turn: it must only hand off.
type Listener interface {
	Transitioned(state.Transition)
	Restarted(key string, panicValue any)
}

// MeterOutcomes is how many outcomes the metrics count a call under
// (observe.Label), MeterStates how many states a transition goes between.
const (
	MeterOutcomes = 5
	MeterStates   = 3
)

// Meter is what the OpenTelemetry metrics count of one key, made on its
// first count: calls and the time callers spent in them by outcome,
// transitions by from and to, restarts. Its key's Config holds it, so its
// counts go with the key.
type Meter struct {
	Calls       [MeterOutcomes]atomic.Int64
	Nanos       [MeterOutcomes]atomic.Int64
	Restarts    atomic.Int64
	Transitions atomic.Pointer[[MeterStates][MeterStates]atomic.Int64] // [from][to], by state.State
}

// Meter returns the key's Meter, made now if it has none.
func (c *Config) Meter() *Meter {
	if m := c.meter.Load(); m != nil {
		return m
	}
	c.meter.CompareAndSwap(nil, new(Meter))
	return c.meter.Load()
}

// Metered returns the key's Meter, or nil if nothing was counted.
func (c *Config) Metered() *Meter { return c.meter.Load() }
