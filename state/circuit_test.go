package state

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	t0       = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	settings = Settings{Threshold: 3, OpenTimeout: 10 * time.Second}
)

func gen(seq uint64) Gen { return Gen{Incarnation: 7, Seq: seq} }

func closedC(failures int, seq uint64) Circuit {
	return Circuit{Settings: ptr(settings), State: Closed, Failures: failures, Gen: gen(seq)}
}

func openC(openedAt time.Time, failures int, seq uint64) Circuit {
	return Circuit{Settings: ptr(settings), State: Open, Failures: failures, Gen: gen(seq),
		OpenedAt: openedAt, RetryAt: openedAt.Add(settings.OpenTimeout)}
}

func halfOpenC(probing bool, openedAt time.Time, failures int, seq uint64) Circuit {
	c := openC(openedAt, failures, seq)
	c.State = HalfOpen
	if probing {
		c.Probes = 1
	}
	return c
}

func transition(seq uint64, from, to State, reason Reason) Effect {
	return Effect{Kind: Moved, Gen: gen(seq), From: from, To: to, Reason: reason}
}

// reopened returns c after n re-opens since the last close.
func reopened(c Circuit, n int) Circuit {
	c.Reopens = n
	return c
}

func TestStepTransitions(t *testing.T) {
	t1 := t0.Add(time.Minute)
	t2 := t0.Add(time.Hour)
	one := Settings{Threshold: 1, OpenTimeout: time.Second}
	tests := []struct {
		name string
		c    Circuit
		ev   Event
		now  time.Time
		want Circuit
		fx   []Effect
	}{
		{"closed admit forwards with the current gen", closedC(2, 5), Event{Kind: Admit}, t1,
			closedC(2, 5), []Effect{{Kind: Forward, Gen: gen(5)}}},
		{"admit ignores the event gen", closedC(0, 5), Event{Kind: Admit, Gen: Gen{99, 99}}, t1,
			closedC(0, 5), []Effect{{Kind: Forward, Gen: gen(5)}}},
		{"closed success resets failures", closedC(2, 5), Event{Kind: Succeeded, Gen: gen(5)}, t1,
			closedC(0, 5), nil},
		{"closed failure below threshold", closedC(1, 5), Event{Kind: Failed, Gen: gen(5)}, t1,
			closedC(2, 5), nil},
		{"closed first failure", closedC(0, 5), Event{Kind: Failed, Gen: gen(5)}, t1,
			closedC(1, 5), nil},
		{"closed N-th failure opens", closedC(2, 5), Event{Kind: Failed, Gen: gen(5)}, t1,
			openC(t1, 3, 6), []Effect{transition(6, Closed, Open, ReasonThreshold),
				{Kind: StartTimer, Gen: gen(6), After: 10 * time.Second}}},
		{"closed failure above threshold opens (>=)", closedC(5, 5), Event{Kind: Failed, Gen: gen(5)}, t1,
			openC(t1, 6, 6), []Effect{transition(6, Closed, Open, ReasonThreshold),
				{Kind: StartTimer, Gen: gen(6), After: 10 * time.Second}}},
		{"threshold 1 trips on the first failure",
			Circuit{Settings: ptr(one), Gen: gen(0)}, Event{Kind: Failed, Gen: gen(0)}, t1,
			Circuit{Settings: ptr(one), State: Open, Failures: 1, Gen: gen(1), OpenedAt: t1, RetryAt: t1.Add(time.Second)},
			[]Effect{transition(1, Closed, Open, ReasonThreshold), {Kind: StartTimer, Gen: gen(1), After: time.Second}}},
		{"closed ignored changes nothing", closedC(2, 5), Event{Kind: Ignored, Gen: gen(5)}, t1,
			closedC(2, 5), nil},
		{"closed failure of another incarnation changes nothing", closedC(2, 5),
			Event{Kind: Failed, Gen: Gen{Incarnation: 8, Seq: 5}}, t1, closedC(2, 5), nil},
		{"closed failure from an older gen changes nothing", closedC(2, 5), Event{Kind: Failed, Gen: gen(2)}, t1,
			closedC(2, 5), nil},
		{"closed success from an older gen keeps failures", closedC(2, 5), Event{Kind: Succeeded, Gen: gen(2)}, t1,
			closedC(2, 5), nil},
		{"open rejects", openC(t0, 3, 6), Event{Kind: Admit}, t1,
			openC(t0, 3, 6), []Effect{{Kind: Reject, Gen: gen(6)}}},
		{"open ignores a late closed-gen failure", openC(t0, 3, 6), Event{Kind: Failed, Gen: gen(5)}, t1,
			openC(t0, 3, 6), nil},
		{"open ignores a late closed-gen success", openC(t0, 3, 6), Event{Kind: Succeeded, Gen: gen(5)}, t1,
			openC(t0, 3, 6), nil},
		{"stale timer of an older gen", openC(t0, 3, 8), Event{Kind: TimerFired, Gen: gen(6)}, t2,
			openC(t0, 3, 8), nil},
		{"stale timer of a newer gen", openC(t0, 3, 8), Event{Kind: TimerFired, Gen: gen(9)}, t2,
			openC(t0, 3, 8), nil},
		{"stale timer of another incarnation", openC(t0, 3, 8), Event{Kind: TimerFired, Gen: Gen{8, 8}}, t2,
			openC(t0, 3, 8), nil},
		{"timer with current gen while closed", closedC(1, 5), Event{Kind: TimerFired, Gen: gen(5)}, t2,
			closedC(1, 5), nil},
		{"timer with current gen while half-open", halfOpenC(false, t0, 3, 7), Event{Kind: TimerFired, Gen: gen(7)}, t2,
			halfOpenC(false, t0, 3, 7), nil},
		{"current timer half-opens", openC(t0, 3, 6), Event{Kind: TimerFired, Gen: gen(6)}, t0.Add(10 * time.Second),
			halfOpenC(false, t0, 3, 7), []Effect{transition(7, Open, HalfOpen, ReasonOpenTimeout)}},
		{"current timer half-opens even before RetryAt (clock not consulted)", openC(t0, 3, 6),
			Event{Kind: TimerFired, Gen: gen(6)}, t0, halfOpenC(false, t0, 3, 7), []Effect{transition(7, Open, HalfOpen, ReasonOpenTimeout)}},
		{"half-open first admit forwards the probe", halfOpenC(false, t0, 3, 7), Event{Kind: Admit}, t2,
			halfOpenC(true, t0, 3, 7), []Effect{{Kind: Forward, Gen: gen(7)}}},
		{"half-open second admit rejects", halfOpenC(true, t0, 3, 7), Event{Kind: Admit}, t2,
			halfOpenC(true, t0, 3, 7), []Effect{{Kind: Reject, Gen: gen(7)}}},
		{"probe success closes", halfOpenC(true, t0, 3, 7), Event{Kind: Succeeded, Gen: gen(7)}, t2,
			closedC(0, 8), []Effect{transition(8, HalfOpen, Closed, ReasonProbeSucceeded)}},
		{"probe failure re-opens from the failure's now", halfOpenC(true, t0, 3, 7), Event{Kind: Failed, Gen: gen(7)}, t2,
			reopened(openC(t2, 4, 8), 1), []Effect{transition(8, HalfOpen, Open, ReasonProbeFailed),
				{Kind: StartTimer, Gen: gen(8), After: 10 * time.Second}}},
		{"probe deadline re-opens with probe_timeout", halfOpenC(true, t0, 3, 7), Event{Kind: Failed, Gen: gen(7), Timeout: true}, t2,
			reopened(openC(t2, 4, 8), 1), []Effect{transition(8, HalfOpen, Open, ReasonProbeTimeout),
				{Kind: StartTimer, Gen: gen(8), After: 10 * time.Second}}},
		{"a closed deadline failure still trips for threshold", closedC(2, 5), Event{Kind: Failed, Gen: gen(5), Timeout: true}, t1,
			openC(t1, 3, 6), []Effect{transition(6, Closed, Open, ReasonThreshold),
				{Kind: StartTimer, Gen: gen(6), After: 10 * time.Second}}},
		{"a second re-open keeps counting", reopened(halfOpenC(true, t0, 3, 7), 1), Event{Kind: Failed, Gen: gen(7)}, t2,
			reopened(openC(t2, 4, 8), 2), []Effect{transition(8, HalfOpen, Open, ReasonProbeFailed),
				{Kind: StartTimer, Gen: gen(8), After: 10 * time.Second}}},
		{"a probe success after re-opens closes and resets them", reopened(halfOpenC(true, t0, 3, 7), 4),
			Event{Kind: Succeeded, Gen: gen(7)}, t2, closedC(0, 8), []Effect{transition(8, HalfOpen, Closed, ReasonProbeSucceeded)}},
		{"ignored probe frees the permit", halfOpenC(true, t0, 3, 7), Event{Kind: Ignored, Gen: gen(7)}, t2,
			halfOpenC(false, t0, 3, 7), nil},
		{"half-open success without a probe in flight changes nothing", halfOpenC(false, t0, 3, 7),
			Event{Kind: Succeeded, Gen: gen(7)}, t2, halfOpenC(false, t0, 3, 7), nil},
		{"half-open failure without a probe in flight changes nothing", halfOpenC(false, t0, 3, 7),
			Event{Kind: Failed, Gen: gen(7)}, t2, halfOpenC(false, t0, 3, 7), nil},
		{"closed-gen failure arriving in half-open", halfOpenC(true, t0, 3, 7), Event{Kind: Failed, Gen: gen(5)}, t2,
			halfOpenC(true, t0, 3, 7), nil},
		{"closed-gen success arriving in half-open", halfOpenC(true, t0, 3, 7), Event{Kind: Succeeded, Gen: gen(5)}, t2,
			halfOpenC(true, t0, 3, 7), nil},
		{"closed-gen ignored arriving in half-open keeps the permit", halfOpenC(true, t0, 3, 7),
			Event{Kind: Ignored, Gen: gen(5)}, t2, halfOpenC(true, t0, 3, 7), nil},
		{"probe outcome of another incarnation", halfOpenC(true, t0, 3, 7), Event{Kind: Succeeded, Gen: Gen{8, 7}}, t2,
			halfOpenC(true, t0, 3, 7), nil},
		{"event kind 0 changes nothing", closedC(2, 5), Event{Kind: 0, Gen: gen(5)}, t1, closedC(2, 5), nil},
		{"event kind 10 changes nothing", closedC(2, 5), Event{Kind: TargetDown + 1, Gen: gen(5)}, t1, closedC(2, 5), nil},
		{"event kind 255 changes nothing in half-open", halfOpenC(true, t0, 3, 7), Event{Kind: 255, Gen: gen(7)}, t2,
			halfOpenC(true, t0, 3, 7), nil},
	}
	sentinel := Effect{Kind: Reject, Gen: Gen{Incarnation: 42, Seq: 42}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.c
			buf := []Effect{sentinel}
			got, fx := applyTo(in, tt.ev, tt.now, buf)
			require.Equal(t, tt.want, got)
			require.Equal(t, tt.c, in, "Step mutated its input")
			require.Equal(t, sentinel, fx[0], "effects must be appended after the buffer contents")
			require.Equal(t, tt.fx, nilIfEmpty(fx[1:]))
		})
	}
}

func nilIfEmpty(fx []Effect) []Effect {
	if len(fx) == 0 {
		return nil
	}
	return fx
}

func TestIgnoredProbeLetsTheNextAdmitThrough(t *testing.T) {
	c := halfOpenC(false, t0, 3, 7)
	var fx []Effect
	c, fx = applyTo(c, Event{Kind: Admit}, t0, fx[:0])
	require.Equal(t, []Effect{{Kind: Forward, Gen: gen(7)}}, fx)
	c, fx = applyTo(c, Event{Kind: Admit}, t0, fx[:0])
	require.Equal(t, []Effect{{Kind: Reject, Gen: gen(7)}}, fx)
	c, fx = applyTo(c, Event{Kind: Ignored, Gen: gen(7)}, t0, fx[:0])
	require.Empty(t, fx)
	c, fx = applyTo(c, Event{Kind: Admit}, t0, fx[:0])
	require.Equal(t, []Effect{{Kind: Forward, Gen: gen(7)}}, fx)
	require.Equal(t, halfOpenC(true, t0, 3, 7), c)
}

func TestFullCycleKeepsOnlyTheNewestTimer(t *testing.T) {
	c := newCircuit(settings, 7)
	var fx []Effect
	for i := 0; i < 3; i++ {
		c, _ = applyTo(c, Event{Kind: Failed, Gen: gen(0)}, t0, fx[:0])
	}
	require.Equal(t, openC(t0, 3, 1), c)
	c, _ = applyTo(c, Event{Kind: TimerFired, Gen: gen(1)}, t0.Add(10*time.Second), fx[:0])
	c, _ = applyTo(c, Event{Kind: Admit}, t0.Add(10*time.Second), fx[:0])
	t2 := t0.Add(12 * time.Second)
	c, _ = applyTo(c, Event{Kind: Failed, Gen: gen(2)}, t2, fx[:0])
	require.Equal(t, reopened(openC(t2, 4, 3), 1), c)
	// The first timer fires again (say, a duplicate delivery): it is stale.
	c, fx = applyTo(c, Event{Kind: TimerFired, Gen: gen(1)}, t2.Add(10*time.Second), fx[:0])
	require.Empty(t, fx)
	require.Equal(t, Open, c.State)
	c, _ = applyTo(c, Event{Kind: TimerFired, Gen: gen(3)}, t2.Add(10*time.Second), fx[:0])
	c, _ = applyTo(c, Event{Kind: Admit}, t2.Add(10*time.Second), fx[:0])
	c, fx = applyTo(c, Event{Kind: Succeeded, Gen: gen(4)}, t2.Add(11*time.Second), fx[:0])
	require.Equal(t, []Effect{transition(5, HalfOpen, Closed, ReasonProbeSucceeded)}, fx)
	require.Equal(t, closedC(0, 5), c)
}

func TestStepReusesTheBuffer(t *testing.T) {
	buf := make([]Effect, 0, 4)
	c := newCircuit(Settings{Threshold: 1, OpenTimeout: time.Second}, 1)
	c, fx := applyTo(c, Event{Kind: Failed, Gen: c.Gen}, t0, buf)
	require.Len(t, fx, 2)
	require.Same(t, &buf[:1][0], &fx[0], "Step must append into the given buffer")
	_, fx = applyTo(c, Event{Kind: Admit}, t0, fx[:0])
	require.Same(t, &buf[:1][0], &fx[0])
	require.Equal(t, []Effect{{Kind: Reject, Gen: c.Gen}}, fx)

	allocs := testing.AllocsPerRun(100, func() {
		c := newCircuit(settings, 1)
		fx := buf[:0]
		for i := 0; i < 3; i++ {
			c, fx = applyTo(c, Event{Kind: Failed, Gen: c.Gen}, t0, fx[:0])
		}
		_, _ = applyTo(c, Event{Kind: TimerFired, Gen: c.Gen}, t0, fx[:0])
	})
	require.Zero(t, allocs, "Step with a buffer of enough capacity must not allocate")
}

func TestStateString(t *testing.T) {
	for _, tt := range []struct {
		s    State
		want string
	}{
		{Closed, "closed"},
		{Open, "open"},
		{HalfOpen, "half_open"},
		{State(3), "unknown"},
		{State(-1), "unknown"},
	} {
		t.Run(tt.want, func(t *testing.T) { require.Equal(t, tt.want, tt.s.String()) })
	}
}

func TestAQuietCircuitIsLeftAsItWasByASuccess(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, tc := range []struct {
		name  string
		c     Circuit
		quiet bool
	}{
		{"closed, no failures", closedC(0, 5), true},
		{"closed, a failure to reset", closedC(1, 5), false},
		{"open", openC(t0, 3, 6), false},
		{"half-open", halfOpenC(false, t0, 3, 7), false},
		{"closed with a window", func() Circuit {
			c := closedC(0, 5)
			s := *c.Settings
			s.Window = Window{Size: 10, MinCalls: 5, FailureRate: 0.5}
			c.Settings = &s
			return c
		}(), false},
		{"closed with a slow-call policy", func() Circuit {
			c := closedC(0, 5)
			s := *c.Settings
			s.SlowCall = time.Second
			c.Settings = &s
			return c
		}(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Quiet(); got != tc.quiet {
				t.Fatalf("Quiet() = %v, want %v", got, tc.quiet)
			}
			if !tc.quiet {
				return
			}
			// A quiet circuit: a success changes nothing and has no effect
			after := tc.c.Clone()
			fx := after.Apply(Event{Kind: Succeeded, Gen: after.Gen}, t0, nil)
			if len(fx) != 0 || after.State != tc.c.State || after.Failures != tc.c.Failures || after.Gen != tc.c.Gen {
				t.Fatalf("a success moved a quiet circuit: %+v, effects %v", after, fx)
			}
		})
	}
}
