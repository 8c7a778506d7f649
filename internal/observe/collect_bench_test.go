package observe

import (
	"context"
	"fmt"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

// BenchmarkCollect is one collection of the metrics of 100,000 keys, each
// called once: the cost of a key's series at a reader's every collection,
// per key. With no cardinality limit (as a registry that size needs to
// keep every key's series), and with the SDK's default one (2,000 series
// an instrument: the rest fold into one overflow series).
func BenchmarkCollect(b *testing.B) {
	b.Run("limit=none", func(b *testing.B) { benchmarkCollect(b, 0) })
	b.Run("limit=default", func(b *testing.B) { benchmarkCollect(b, 2000) })
}

func benchmarkCollect(b *testing.B, limit int) {
	const keys = 100_000
	cfgs := make([]tactor.Config, keys)
	for i := range cfgs {
		cfgs[i].Key = fmt.Sprintf("key-%d", i)
		cfgs[i].Meter().Calls[Success].Add(1)
	}
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithCardinalityLimit(limit))
	m, err := NewMetrics(mp, Source{Keys: func(yield func(string, state.State, *tactor.Config)) {
		for i := range cfgs {
			yield(cfgs[i].Key, state.Closed, &cfgs[i])
		}
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = m.Close() }()
	var rm metricdata.ResourceMetrics
	points := 0
	for b.Loop() {
		if err := reader.Collect(context.Background(), &rm); err != nil {
			b.Fatal(err)
		}
		points = 0
		for _, sm := range rm.ScopeMetrics {
			for _, mt := range sm.Metrics {
				switch d := mt.Data.(type) {
				case metricdata.Gauge[int64]:
					points += len(d.DataPoints)
				case metricdata.Sum[int64]:
					points += len(d.DataPoints)
				case metricdata.Sum[float64]:
					points += len(d.DataPoints)
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/keys, "ns/key")
	b.ReportMetric(float64(points)/keys, "series/key")
}
