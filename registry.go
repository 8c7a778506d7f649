package tripwire

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/observe"
	"github.com/tripwire-go/tripwire/internal/registry"
	"github.com/tripwire-go/tripwire/internal/supervisor"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

// Registry is a set of breakers addressed by key. It is safe for concurrent
// use. Create one with Start and stop it with Shutdown.
type Registry struct {
	sys    *actor.ActorSystem
	ownSys bool
	log    *zap.Logger
	keys   registry.Table
	sup    *actor.PID
	// supervisor is the supervisor actor's state, for what is safe to read
	// off it (Forgettable).
	supervisor *supervisor.Supervisor
	maxKeys    int // 0: no bound
	pool       *task.Pool
	caller     *tactor.Caller
	shared     *tactor.Shared // what every key's breakers share
	rules      rulesCache

	factory Factory // nil without WithFactory
	flights flights

	hub     *observe.Hub
	metrics *observe.Metrics // nil without WithMeterProvider
	calls   *observe.Calls   // nil without a meter or tracer provider

	closed   atomic.Bool
	stopping chan struct{} // closed when Shutdown begins
	down     chan struct{} // closed when Shutdown is done; downErr is then set
	downErr  error
	// life guards requests against Shutdown's Wait.
	life     sync.RWMutex
	requests sync.WaitGroup
	once     sync.Once
}

// Keys returns the registered keys, sorted.
func (r *Registry) Keys() []string {
	if r.unusable() {
		return nil
	}
	return r.keys.Keys()
}

// State returns key's circuit state as its breaker last published it.
func (r *Registry) State(key string) (state.State, error) {
	e, err := r.lookup(key)
	if err != nil {
		return state.Closed, err
	}
	return e.Cell.State(), nil
}

// lookup resolves key; it is on every call's path.
func (r *Registry) lookup(key string) (*registry.Entry, error) {
	if r.unusable() {
		return nil, errNoRegistry
	}
	if r.closed.Load() {
		return nil, ErrShutdown
	}
	e, ok := r.keys.Load(key)
	if !ok {
		if err := validateKey(key); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %q", ErrUnknownKey, key)
	}
	return e, nil
}

// metered reports every key, its published state and its Config, for the
// metrics.
func (r *Registry) metered(yield func(string, state.State, *tactor.Config)) {
	r.keys.Range(func(e *registry.Entry) bool {
		yield(e.Key, e.Cell.State(), &e.Config)
		return true
	})
}

// config is key's Config, or nil if key is not registered (for the metrics
// of transitions and restarts).
func (r *Registry) config(key string) *tactor.Config {
	if e, ok := r.keys.Load(key); ok {
		return &e.Config
	}
	return nil
}

// errNoRegistry is what a method of a nil *Registry, or of a Registry that
// Start did not make, returns.
var errNoRegistry = fmt.Errorf("%w: a nil *Registry, or one not made by Start", ErrInvalidOption)

// unusable reports whether r is nil or was not made by Start (a zero
// Registry): its methods then return errNoRegistry, or nothing.
func (r *Registry) unusable() bool { return r == nil || r.sup == nil }
