package tripwire_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/tripwire-go/tripwire"
)

// A nil SDK provider passed as the interface is not nil, and the SDK
// dereferences it at its first use: Start refuses it, where it panicked.
func TestANilProviderInsideTheInterfaceIsRefused(t *testing.T) {
	for name, opt := range map[string]tripwire.Option{
		"meter":  tripwire.WithMeterProvider((*sdkmetric.MeterProvider)(nil)),
		"tracer": tripwire.WithTracerProvider((*sdktrace.TracerProvider)(nil)),
		"system": tripwire.WithActorSystem(nil),
	} {
		reg, err := tripwire.Start(opt)
		require.ErrorIs(t, err, tripwire.ErrInvalidOption, name)
		require.Nil(t, reg, name)
	}
}
