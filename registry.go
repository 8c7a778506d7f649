package tripwire

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"

	tactor "github.com/tripwire-go/tripwire/actor"
	"github.com/tripwire-go/tripwire/internal/observe"
	"github.com/tripwire-go/tripwire/registry"
	"github.com/tripwire-go/tripwire/supervisor"
	"github.com/tripwire-go/tripwire/task"
)

// Registry is a set of breakers addressed by key. It is safe for concurrent
// use. Create one with Start and stop it with Shutdown.
type Registry struct {
	sys    *actor.ActorSystem
	ownSys bool
	log    *zap.Logger
	keys   registry.Registry
	sup    *actor.PID
	pool   *task.Pool
	timers sync.Pool // backstop timers of calls, see backstop

	hub     *observe.Hub
	metrics *observe.Metrics // nil without WithMeterProvider
	tracer  trace.Tracer     // nil without WithTracerProvider

	closed   atomic.Bool
	stopping chan struct{} // closed when Shutdown begins
	// life guards requests against Shutdown's Wait.
	life     sync.RWMutex
	requests sync.WaitGroup
	once     sync.Once
}

// Start starts a registry on system. If system is nil, Start creates an actor
// system whose logs go to the WithLogger logger, and Shutdown stops it too.
func Start(system *actor.ActorSystem, opts ...Option) (*Registry, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	r := &Registry{sys: system, log: o.logger, stopping: make(chan struct{})}
	if system == nil {
		r.sys, r.ownSys = NewActorSystem(o.logger), true
	}
	r.pool = task.NewPool(r.sys)
	if o.meters != nil {
		if r.metrics, err = observe.NewMetrics(o.meters, r.states); err != nil {
			return nil, fmt.Errorf("tripwire: metrics: %w", err)
		}
	}
	if o.tracer != nil {
		r.tracer = o.tracer.Tracer(observe.Scope)
	}
	r.hub = observe.NewHub(r.sys, r.log, r.metrics, r.tracer)
	r.sup, err = r.sys.Root.SpawnNamed(supervisor.New(&r.keys, r.log).Props(),
		"tripwire-"+r.sys.ProcessRegistry.NextId())
	if err != nil {
		_ = r.hub.Close(context.Background())
		return nil, fmt.Errorf("tripwire: start supervisor: %w", err)
	}
	return r, nil
}

// NewActorSystem returns an actor system whose own logs (protoactor logs
// through log/slog) go to l instead of stderr.
func NewActorSystem(l *zap.Logger, opts ...actor.ConfigOption) *actor.ActorSystem {
	if l == nil {
		l = zap.NewNop()
	}
	factory := actor.WithLoggerFactory(func(s *actor.ActorSystem) *slog.Logger {
		return slog.New(zapslog.NewHandler(l.Core(), zapslog.WithName("protoactor"))).With("system", s.ID)
	})
	return actor.NewActorSystem(append([]actor.ConfigOption{factory}, opts...)...)
}

// Register adds a breaker for key in front of target. Zero settings fields
// take their defaults.
func (r *Registry) Register(key string, target Target, s Settings) error {
	if err := validateKey(key); err != nil {
		return err
	}
	spec, err := r.validateTarget(target)
	if err != nil {
		return err
	}
	if s, err = s.withDefaults(); err != nil {
		return err
	}
	if r.closed.Load() {
		return ErrShutdown
	}
	cfg := &tactor.Config{
		Key:         key,
		Circuit:     circuitSettings(s),
		CallTimeout: s.CallTimeout,
		Target:      tactor.Target{Func: spec.fn, PID: spec.pid},
		IsFailure:   s.IsFailure,
		Cell:        tactor.NewCell(),
		Pool:        r.pool,
		Logger:      r.log,
		Listener:    r.hub,
	}
	e := registry.NewEntry(cfg)
	if r.metrics != nil {
		e.Meter = r.metrics.ForKey(key)
	}
	reply := make(chan error, 1)
	r.sys.Root.Send(r.sup, &supervisor.Register{Entry: e, Reply: reply})
	return r.await(reply)
}

func (r *Registry) validateTarget(t Target) (targetSpec, error) {
	if t == nil {
		return targetSpec{}, fmt.Errorf("%w: nil Target", ErrInvalidTarget)
	}
	spec := t.target()
	switch {
	case spec.pid == nil && spec.fn == nil:
		return spec, fmt.Errorf("%w: nil PID or function", ErrInvalidTarget)
	case spec.pid != nil && spec.pid.Id == "":
		return spec, fmt.Errorf("%w: PID without an id", ErrInvalidTarget)
	case spec.pid != nil && r.isOwn(spec.pid):
		return spec, fmt.Errorf("%w: %s is this registry's own actor", ErrInvalidTarget, spec.pid.Id)
	}
	return spec, nil
}

// isOwn reports whether pid is the registry's supervisor or one of its breakers.
func (r *Registry) isOwn(pid *actor.PID) bool {
	if pid.Address != r.sup.Address && pid.Address != "nonhost" {
		return false
	}
	return pid.Id == r.sup.Id || strings.HasPrefix(pid.Id, r.sup.Id+"/")
}

// Unregister stops key's breaker and removes the key. Calls it had in flight
// get ErrShutdown; later calls get ErrUnknownKey.
func (r *Registry) Unregister(key string) error {
	if err := validateKey(key); err != nil {
		return err
	}
	if r.closed.Load() {
		return ErrShutdown
	}
	reply := make(chan error, 1)
	r.sys.Root.Send(r.sup, &supervisor.Unregister{Key: key, Reply: reply})
	return r.await(reply)
}

// await waits for the supervisor's answer, or for Shutdown.
func (r *Registry) await(reply chan error) error {
	select {
	case err := <-reply:
		return err
	case <-r.stopping:
		select {
		case err := <-reply:
			return err
		default:
			return ErrShutdown
		}
	}
}

// Keys returns the registered keys, sorted.
func (r *Registry) Keys() []string { return r.keys.Keys() }

// State returns key's circuit state as its breaker last published it.
func (r *Registry) State(key string) (State, error) {
	e, err := r.lookup(key)
	if err != nil {
		return Closed, err
	}
	return e.Cell().State(), nil
}

// lookup resolves key; it is on every call's path.
func (r *Registry) lookup(key string) (*registry.Entry, error) {
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

// Shutdown stops every breaker, worker and timer of the registry. Calls in
// flight get ErrShutdown, and so does every later call. If Start created the
// actor system, Shutdown stops it too. A second Shutdown does nothing. It
// returns ctx.Err() if ctx ends before a worker stuck in a target that
// ignores its context has returned.
func (r *Registry) Shutdown(ctx context.Context) error {
	if ctx == nil {
		return ErrNilContext
	}
	first := false
	r.once.Do(func() { first = true })
	if !first {
		return nil
	}
	r.life.Lock()
	r.closed.Store(true)
	close(r.stopping)
	r.life.Unlock()

	stopped := make(chan error, 1)
	go func() { stopped <- r.sys.Root.PoisonFuture(r.sup).Wait() }()
	var err error
	select {
	case err = <-stopped:
	case <-ctx.Done():
		err = ctx.Err()
	}
	r.keys.Range(func(e *registry.Entry) bool {
		if b := e.Binding(); b != nil {
			b.Close(ErrShutdown)
		}
		return true
	})
	r.keys.Clear()
	if herr := r.hub.Close(ctx); err == nil {
		err = herr
	}
	if perr := r.pool.Close(ctx); err == nil {
		err = perr
	}
	if werr := r.waitRequests(ctx); err == nil {
		err = werr
	}
	if r.ownSys {
		r.sys.Shutdown()
	}
	return err
}

// states reports every key's published state, for the tripwire.state gauge.
func (r *Registry) states(yield func(string, State)) {
	r.keys.Range(func(e *registry.Entry) bool {
		yield(e.Key, e.Cell().State())
		return true
	})
}

func (r *Registry) waitRequests(ctx context.Context) error {
	done := make(chan struct{})
	go func() { r.requests.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
