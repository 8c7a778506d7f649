package state

import (
	"errors"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestValidateErrorsAreErrInvalidSettings: every reason Validate gives
// matches ErrInvalidSettings, so a program that checks a circuit's settings
// can tell a refusal from any other error with errors.Is.
func TestValidateErrorsAreErrInvalidSettings(t *testing.T) {
	bad := []Settings{
		{Threshold: -1},
		{OpenTimeout: -time.Second},
		{SlowCall: -1},
		{HalfOpenProbes: -2},
		{Window: Window{Size: MaxWindowSize + 1}},
		{Window: Window{Period: time.Second, Buckets: -1}},
		{Window: Window{Size: 10, MinCalls: 11}},
		{Window: Window{Size: 10, FailureRate: math.NaN()}},
		{Window: Window{MinCalls: 3}},
		{Backoff: Backoff{Multiplier: 0.5}},
		{Backoff: Backoff{Jitter: 2}},
	}
	for _, s := range bad {
		err := s.Validate()
		if !errors.Is(err, ErrInvalidSettings) {
			t.Errorf("%+v: Validate() = %v, want an ErrInvalidSettings", s, err)
		}
	}
}

// TestACircuitOnUncheckedSettingsNeverPanics: a circuit made on settings
// that were neither validated nor given their defaults — a time window of
// zero, negative or too many buckets, a window larger than the largest,
// a Period shorter than its buckets, nil settings (the zero Circuit) —
// answers every event and question without a panic.
func TestACircuitOnUncheckedSettingsNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s *Settings
		if !rapid.Bool().Draw(t, "nil") {
			s = &Settings{
				Threshold:   rapid.IntRange(-2, 4).Draw(t, "threshold"),
				OpenTimeout: time.Duration(rapid.Int64Range(-5, 5).Draw(t, "open")) * time.Second,
				Window: Window{
					Size:        rapid.SampledFrom([]int{-1, 0, 1, 3, MaxWindowSize + 5}).Draw(t, "size"),
					Period:      time.Duration(rapid.SampledFrom([]int64{-1, 0, 3, int64(time.Second)}).Draw(t, "period")),
					Buckets:     rapid.SampledFrom([]int{-3, 0, 1, 7, MaxWindowBuckets * 3}).Draw(t, "buckets"),
					MinCalls:    rapid.IntRange(-1, 5).Draw(t, "min"),
					FailureRate: rapid.SampledFrom([]float64{-1, 0, 0.5, 2, math.NaN()}).Draw(t, "rate"),
				},
				SlowCall:       time.Duration(rapid.Int64Range(-1, 2).Draw(t, "slow")) * time.Millisecond,
				Backoff:        Backoff{Multiplier: rapid.SampledFrom([]float64{-1, 0, 0.5, 2, math.Inf(1), math.NaN()}).Draw(t, "mult")},
				HalfOpenProbes: rapid.IntRange(-1, 3).Draw(t, "probes"),
			}
		}
		c := Circuit{}
		if s != nil {
			c = New(s, 1)
		}
		now := time.Unix(1e9, 0)
		var fx []Effect
		var last Gen
		for i := range rapid.IntRange(1, 40).Draw(t, "events") {
			now = now.Add(time.Duration(rapid.Int64Range(0, 2e9).Draw(t, "step")))
			kind := rapid.SampledFrom([]EventKind{Admit, Succeeded, Failed, TimerFired, Admit, Failed}).Draw(t, "kind")
			ev := Event{Kind: kind, Gen: last, Duration: time.Millisecond, Rand: 0.5}
			fx = c.Apply(ev, now, fx[:0])
			for _, e := range fx {
				last = e.Gen
			}
			c.Rejecting()
			c.Quiet()
			c.WindowRate(now)
			if i == 20 && s != nil {
				o := *s
				o.Window.Buckets = -o.Window.Buckets
				c.Reconfigure(&o)
			}
		}
	})
}
