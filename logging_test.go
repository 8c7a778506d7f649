package tripwire_test

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// observed returns a logger that records every entry, Debug and up.
func observed() (*zap.Logger, *observer.ObservedLogs) {
	core, logs := observer.New(zapcore.DebugLevel)
	return zap.New(core), logs
}

// startLogged starts a registry that logs to logger, on an actor system that
// logs to it too, with key "k" served by a target that always fails.
func startLogged(t *testing.T, logger *zap.Logger) *tripwire.Registry {
	t.Helper()
	sys := system.New(logger, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithLogger(logger))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, reg.Shutdown(context.Background()))
		sys.Shutdown()
	})
	target := newScripted()
	target.mode.Store(fail)
	require.NoError(t, reg.Register(context.Background(), "k", target.target(), tripwire.Settings{Threshold: 2}))
	return reg
}

// requireProtoactorRecovering checks that protoactor's own line about the
// crashed breaker went to the zap logger.
func requireProtoactorRecovering(t *testing.T, logs *observer.ObservedLogs) {
	t.Helper()
	lines := logs.FilterMessageSnippet("[ACTOR] Recovering").All()
	require.NotEmpty(t, lines, "protoactor's crash line did not reach the zap logger")
	require.Equal(t, "protoactor", lines[0].LoggerName)
	require.Contains(t, lines[0].ContextMap()["reason"], "injected crash")
}

func TestCrashLogsBreakerRestartedAtError(t *testing.T) {
	// Given a registry logging to an observed logger
	logger, logs := observed()
	reg := startLogged(t, logger)

	// When its breaker crashes
	require.NoError(t, tripwiretest.Crash(context.Background(), reg, "k"))

	// Then the restart is logged at Error with the key and the panic value
	lines := logs.FilterMessage("breaker restarted").All()
	require.Len(t, lines, 1)
	require.Equal(t, zapcore.ErrorLevel, lines[0].Level)
	fields := lines[0].ContextMap()
	require.Equal(t, "k", fields["key"])
	require.Contains(t, fields["panic"], "injected crash of breaker k")
	require.EqualValues(t, 1, fields["restarts"])
	// And protoactor's own account of the crash went to the same logger
	requireProtoactorRecovering(t, logs)
}

func TestOpeningLogsCircuitOpenedAtWarn(t *testing.T) {
	// Given a registry logging to an observed logger, and a failing target
	logger, logs := observed()
	reg := startLogged(t, logger)
	require.Empty(t, logs.FilterMessage("circuit opened").All())

	// When Threshold calls fail
	for range 2 {
		_, err := reg.Call(context.Background(), "k", "x")
		require.ErrorIs(t, err, errBoom)
	}
	_, err := reg.Snapshot(context.Background(), "k") // the breaker has finished the turn that opened it
	require.NoError(t, err)

	// Then the opening is logged once at Warn with key, from, to and failures
	lines := logs.FilterMessage("circuit opened").All()
	require.Len(t, lines, 1)
	require.Equal(t, zapcore.WarnLevel, lines[0].Level)
	fields := lines[0].ContextMap()
	require.Equal(t, "k", fields["key"])
	require.Equal(t, "closed", fields["from"])
	require.Equal(t, "open", fields["to"])
	require.EqualValues(t, 2, fields["failures"])
}

func TestOwnActorSystemLogsToWithLogger(t *testing.T) {
	// Given a registry that creates its own actor system
	logger, logs := observed()
	reg, err := tripwire.Start(tripwire.WithLogger(logger))
	require.NoError(t, err)
	require.NoError(t, reg.Register(context.Background(), "k", newScripted().target(), tripwire.Settings{}))

	// When its breaker crashes and the registry shuts down
	require.NoError(t, tripwiretest.Crash(context.Background(), reg, "k"))
	require.NoError(t, reg.Shutdown(context.Background()))

	// Then the system's own lines went to the WithLogger logger
	started := logs.FilterMessage("actor system started").All()
	require.Len(t, started, 1)
	require.Equal(t, "protoactor", started[0].LoggerName)
	requireProtoactorRecovering(t, logs)
}
