package tripwire

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/trace"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/observe"
	"github.com/tripwire-go/tripwire/internal/supervisor"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/internal/task"
)

// Start starts a registry with opts: its dependencies (WithActorSystem,
// WithLogger, WithFactory, ...). With no WithActorSystem it creates an
// actor system whose logs go to the WithLogger logger, and Shutdown stops
// it too.
func Start(opts ...Option) (*Registry, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	r := &Registry{sys: o.system, log: o.logger, factory: o.factory,
		stopping: make(chan struct{}), down: make(chan struct{})}
	if r.sys == nil {
		r.sys, r.ownSys = system.New(o.logger), true
	}
	r.pool = task.NewPool(r.sys)
	r.caller = tactor.NewCaller(r.pool)
	if o.meters != nil {
		if r.metrics, err = observe.NewMetrics(o.meters, observe.Source{
			Keys: r.metered, Config: r.config, ByKey: o.byKey}); err != nil {
			return nil, fmt.Errorf("tripwire: metrics: %w", err)
		}
	}
	var tracer trace.Tracer
	if o.tracer != nil {
		tracer = o.tracer.Tracer(observe.Scope)
	}
	r.calls = observe.NewCalls(r.metrics, tracer)
	r.hub = observe.NewHub(r.sys, r.log, r.metrics, tracer)
	r.shared = &tactor.Shared{Pool: r.pool, Logger: r.log.Named("breaker"), Listener: r.hub,
		Wake: func(c *tactor.Config) { r.sys.Root.Send(r.sup, &supervisor.Wake{Config: c}) }}
	r.maxKeys = o.maxKeys
	r.supervisor = supervisor.New(&r.keys, r.log)
	r.supervisor.SetMaxKeys(o.maxKeys)
	r.sup, err = r.sys.Root.SpawnNamed(r.supervisor.Props(),
		"tripwire-"+r.sys.ProcessRegistry.NextId())
	if err != nil {
		r.supervisor.Close()
		_ = r.hub.Close(context.Background())
		return nil, fmt.Errorf("tripwire: start supervisor: %w", err)
	}
	return r, nil
}
