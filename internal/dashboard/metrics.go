package dashboard

import (
	"context"
	"fmt"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// Metrics is an OpenTelemetry meter provider whose readings are served in
// Prometheus text format from a Prometheus registry of its own (not the
// global one). Give Provider to tripwire.Start with tripwire.WithMeterProvider.
type Metrics struct {
	provider *sdkmetric.MeterProvider
	handler  http.Handler
}

// NewMetrics returns a meter provider exporting to a fresh Prometheus
// registry, and the handler that serves that registry.
func NewMetrics() (*Metrics, error) {
	promReg := prometheus.NewRegistry()
	exporter, err := otelprom.New(otelprom.WithRegisterer(promReg))
	if err != nil {
		return nil, fmt.Errorf("dashboard: prometheus exporter: %w", err)
	}
	return &Metrics{
		provider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter)),
		handler:  promhttp.HandlerFor(promReg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}),
	}, nil
}

// Provider is the meter provider to record with.
func (m *Metrics) Provider() metric.MeterProvider { return m.provider }

// Handler serves the metrics in Prometheus text format.
func (m *Metrics) Handler() http.Handler { return m.handler }

// Shutdown stops the meter provider; later scrapes show no Tripwire metrics.
func (m *Metrics) Shutdown(ctx context.Context) error { return m.provider.Shutdown(ctx) }
