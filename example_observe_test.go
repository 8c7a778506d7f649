package tripwire_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// Subscribe hears every transition of every key, after the fact.
func ExampleRegistry_Subscribe() {
	ctx := context.Background()
	reg, _ := tripwire.Start()
	defer reg.Shutdown(ctx)
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

	_ = reg.Register(ctx, "billing", tripwire.Func(charge), tripwire.Settings{Threshold: 1})
	_, _ = reg.Call(ctx, "billing", &Invoice{Cents: -1})
	<-opened
	// Output: billing opened: threshold after 1 failures
}

// Transitions are published on the actor system's EventStream too, for
// actor-based subscribers: forward them to an actor.
func ExampleRegistry_Subscribe_eventStream() {
	ctx := context.Background()
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	reg, _ := tripwire.Start(tripwire.WithActorSystem(sys))
	defer reg.Shutdown(ctx)
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

	_ = reg.Register(ctx, "billing", tripwire.Func(charge), tripwire.Settings{})
	_ = reg.ForceOpen(ctx, "billing")
	fmt.Println(<-got)
	// Output: billing closed -> open
}

// Tripwire's metrics in Prometheus format: the OTel exporter on a registry
// of its own, served with promhttp.
func ExampleWithMeterProvider() {
	logger := zap.NewNop()

	promReg := prometheus.NewRegistry()
	exporter, err := otelprom.New(otelprom.WithRegisterer(promReg))
	if err != nil {
		panic(err)
	}
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter))
	defer mp.Shutdown(context.Background())

	reg, err := tripwire.Start(tripwire.WithLogger(logger), tripwire.WithMeterProvider(mp))
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux() // or your server's
	mux.Handle("/metrics", promhttp.HandlerFor(promReg, promhttp.HandlerOpts{}))

	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	defer reg.Shutdown(ctx)

	_ = reg.Register(ctx, "payments", tripwire.Func(charge), tripwire.Settings{})
	_, _ = reg.Call(ctx, "payments", invoice)
	scrape := httptest.NewRecorder()
	mux.ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for line := range strings.Lines(scrape.Body.String()) {
		if strings.HasPrefix(line, "tripwire_calls_total{") && strings.Contains(line, `outcome="success"`) {
			fmt.Print(line[strings.Index(line, "tripwire_key"):])
		}
	}
	// Output: tripwire_key="payments",tripwire_outcome="success"} 1
}
