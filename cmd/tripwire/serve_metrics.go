package main

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

// serveMetrics is an OpenTelemetry meter provider whose readings are
// served in Prometheus text format from a Prometheus registry of its own
// (not the global one): serve gives Provider to tripwire.Start and Handler
// to the dashboard (dashboard.WithMetrics).
type serveMetrics struct {
	provider *sdkmetric.MeterProvider
	handler  http.Handler
}

// newServeMetrics returns a meter provider exporting to a fresh Prometheus
// registry, and the handler that serves that registry.
func newServeMetrics() (*serveMetrics, error) {
	promReg := prometheus.NewRegistry()
	exporter, err := otelprom.New(otelprom.WithRegisterer(promReg))
	if err != nil {
		return nil, fmt.Errorf("serve: prometheus exporter: %w", err)
	}
	return &serveMetrics{
		provider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter)),
		handler:  promhttp.HandlerFor(promReg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}),
	}, nil
}

// Provider is the meter provider to record with.
func (m *serveMetrics) Provider() metric.MeterProvider { return m.provider }

// Handler serves the metrics in Prometheus text format.
func (m *serveMetrics) Handler() http.Handler { return m.handler }

// Shutdown stops the meter provider; later scrapes show no Tripwire metrics.
func (m *serveMetrics) Shutdown(ctx context.Context) error { return m.provider.Shutdown(ctx) }
