package observe_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// circuitLines returns the breaker's state-change lines, in order.
func circuitLines(logs *observer.ObservedLogs) []observer.LoggedEntry {
	return logs.Filter(func(e observer.LoggedEntry) bool {
		return strings.HasPrefix(e.Message, "circuit ")
	}).All()
}

// requireLine checks one state-change line: message, level and the fields
// every such line has.
func requireLine(t *testing.T, e observer.LoggedEntry, msg string, level zapcore.Level,
	from, to string, failures int, generation uint64) map[string]any {
	t.Helper()
	require.Equal(t, msg, e.Message)
	require.Equal(t, level, e.Level, msg)
	f := e.ContextMap()
	require.Equal(t, "k", f["key"], msg)
	require.Equal(t, from, f["from"], msg)
	require.Equal(t, to, f["to"], msg)
	require.EqualValues(t, failures, f["failures"], msg)
	require.EqualValues(t, generation, f["generation"], msg)
	return f
}

func TestLogsOneLinePerStateChangeThroughAFullCycle(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a closed circuit
		require.Empty(t, circuitLines(r.logs))

		// When it trips, half-opens, its probe fails, it half-opens again
		// and its probe succeeds
		opened := r.trip(t, "k")
		r.halfOpen(t, "k", opened)
		time.Sleep(time.Second)
		require.ErrorIs(t, r.call("k", msgFail), errBoom)
		reopened := time.Now()
		synctest.Wait()
		r.halfOpen(t, "k", reopened)
		time.Sleep(2 * time.Second)
		require.NoError(t, r.call("k", msgOK))
		closed := time.Now()
		synctest.Wait()

		// Then there is exactly one line per change, in order, each with
		// key, from, to, failures and the generation of the new state
		lines := circuitLines(r.logs)
		require.Len(t, lines, 5)

		f := requireLine(t, lines[0], "circuit opened", zapcore.WarnLevel, "closed", "open", threshold, 1)
		require.Equal(t, "threshold", f["reason"])
		requireSameInstant(t, opened.Add(openTimeout), f["retry_at"].(time.Time), "retry_at of the trip")

		f = requireLine(t, lines[1], "circuit half-open", zapcore.DebugLevel, "open", "half_open", threshold, 2)
		require.Equal(t, "open_timeout", f["reason"])
		require.NotContains(t, f, "retry_at")

		f = requireLine(t, lines[2], "circuit re-opened", zapcore.InfoLevel, "half_open", "open", threshold+1, 3)
		require.Equal(t, "probe_failed", f["reason"])
		requireSameInstant(t, reopened.Add(openTimeout), f["retry_at"].(time.Time), "retry_at of the re-trip")

		requireLine(t, lines[3], "circuit half-open", zapcore.DebugLevel, "open", "half_open", threshold+1, 4)

		f = requireLine(t, lines[4], "circuit closed", zapcore.InfoLevel, "half_open", "closed", 0, 5)
		require.Equal(t, "probe_succeeded", f["reason"])
		require.NotContains(t, f, "retry_at")
		// And the close says how long the circuit was open, since the first trip
		require.Equal(t, closed.Sub(opened), f["open_for"])
	})
}

func TestLogsProbeTimeoutAsReopened(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a half-open circuit
		r.halfOpen(t, "k", r.trip(t, "k"))

		// When its probe runs past the call timeout
		require.ErrorIs(t, r.call("k", msgWait), tripwire.ErrTimeout)
		synctest.Wait()

		// Then the re-trip is logged at Info with reason probe_timeout
		lines := circuitLines(r.logs)
		require.Len(t, lines, 3)
		f := requireLine(t, lines[2], "circuit re-opened", zapcore.InfoLevel, "half_open", "open", threshold+1, 3)
		require.Equal(t, "probe_timeout", f["reason"])
		requireSameInstant(t, time.Now().Add(openTimeout), f["retry_at"].(time.Time), "retry_at")
	})
}

func TestLogsCrashAsBreakerRestartedAtError(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given a closed circuit
		// When its breaker crashes
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "k"))
		synctest.Wait()

		// Then the crash is one Error line with the key and the panic value
		lines := r.logs.FilterMessage("breaker restarted").All()
		require.Len(t, lines, 1)
		require.Equal(t, zapcore.ErrorLevel, lines[0].Level)
		f := lines[0].ContextMap()
		require.Equal(t, "k", f["key"])
		require.Contains(t, f["panic"], "injected crash of breaker k")
		// And the restart is a transition too, closed to closed: every
		// restart shows in the logs, as in events and dashboards
		lines = circuitLines(r.logs)
		require.Len(t, lines, 1)
		f = requireLine(t, lines[0], "circuit closed", zapcore.InfoLevel, "closed", "closed", 0, 0)
		require.Equal(t, "restarted", f["reason"])
	})
}

func TestLogsCrashWhileOpenAsCircuitClosedRestarted(t *testing.T) {
	observeBubble(t, func(t *testing.T, r *rig) {
		// Given an open circuit
		r.trip(t, "k")

		// When its breaker crashes
		require.NoError(t, tripwiretest.Crash(context.Background(), r.reg, "k"))
		synctest.Wait()

		// Then "breaker restarted" comes first, then the state change back to
		// closed with reason restarted
		all := r.logs.All()
		restarted, closed := -1, -1
		for i, e := range all {
			switch e.Message {
			case "breaker restarted":
				restarted = i
			case "circuit closed":
				closed = i
			}
		}
		require.GreaterOrEqual(t, restarted, 0, "no breaker restarted line")
		require.Greater(t, closed, restarted, "no circuit closed line after breaker restarted")
		require.Contains(t, all[restarted].ContextMap()["panic"], "injected crash of breaker k")

		lines := circuitLines(r.logs)
		require.Len(t, lines, 2)
		f := requireLine(t, lines[1], "circuit closed", zapcore.InfoLevel, "open", "closed", 0, 0)
		require.Equal(t, "restarted", f["reason"])
		r.requireState(t, "k", state.Closed)
	})
}
