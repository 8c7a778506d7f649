package tripwire_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/state"
)

// Subscribe hears every transition of every key, after the fact.
func ExampleRegistry_Subscribe() {
	reg, _ := tripwire.Start()
	defer reg.Shutdown(context.Background())
	log.SetOutput(os.Stdout)
	log.SetFlags(0)
	defer log.SetOutput(os.Stderr)
	opened := make(chan struct{})

	unsubscribe := reg.Subscribe(func(t state.Transition) {
		if t.To == state.Open && t.Fresh { // a trip from closed, not a re-trip
			log.Printf("%s opened: %s after %d failures", t.Key, t.Reason, t.Failures)
			close(opened)
		}
	})
	defer unsubscribe()

	_ = reg.Register(context.Background(), "billing", tripwire.Func(charge), tripwire.Settings{Threshold: 1})
	_, _ = reg.Call(context.Background(), "billing", &Invoice{Cents: -1})
	<-opened
	// Output: billing opened: threshold after 1 failures
}

// Transitions are published on the actor system's EventStream too, for
// actor-based subscribers: forward them to an actor.
func ExampleTransition_eventStream() {
	sys := system.New(nil)
	defer sys.Shutdown()
	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys))
	defer reg.Shutdown(context.Background())
	got := make(chan string, 1)
	watcherPID := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if t, ok := c.Message().(*state.Transition); ok {
			got <- fmt.Sprintf("%s %s -> %s", t.Key, t.From, t.To)
		}
	}))

	sub := sys.EventStream.SubscribeWithPredicate(
		func(evt any) { sys.Root.Send(watcherPID, evt) },
		func(evt any) bool { _, ok := evt.(*state.Transition); return ok })
	defer sys.EventStream.Unsubscribe(sub)

	_ = reg.Register(context.Background(), "billing", tripwire.Func(charge), tripwire.Settings{})
	_ = reg.ForceOpen(context.Background(), "billing")
	fmt.Println(<-got)
	// Output: billing closed -> open
}

// Tripwire's metrics in Prometheus format: the OTel exporter on a registry
// of its own, served with promhttp.
func ExampleWithMeterProvider() {
	sys, logger := system.New(nil), zap.NewNop()
	defer sys.Shutdown()

	promReg := prometheus.NewRegistry()
	exporter, err := otelprom.New(otelprom.WithRegisterer(promReg))
	if err != nil {
		panic(err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter))
	defer mp.Shutdown(context.Background())

	reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithLogger(logger), tripwire.WithMeterProvider(mp))
	mux := http.NewServeMux() // or your server's
	mux.Handle("/metrics", promhttp.HandlerFor(promReg, promhttp.HandlerOpts{}))

	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	defer reg.Shutdown(ctx)
	fmt.Println("serving /metrics")
	// Output: serving /metrics
}
