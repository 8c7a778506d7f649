package soak

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/observe"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestParseOutcomeReadsEveryName(t *testing.T) {
	for o := range NumAnswers {
		// Given an outcome's name, When it is parsed, Then it is that outcome
		got, err := ParseAnswer(o.String())
		if err != nil || got != o {
			t.Errorf("ParseOutcome(%q) = %v, %v", o.String(), got, err)
		}
	}
	// Given a name no outcome has, Then it is ErrUnknownOutcome
	if _, err := ParseAnswer("okay"); !errors.Is(err, ErrUnknownAnswer) {
		t.Fatalf("ParseOutcome(okay): %v, want ErrUnknownOutcome", err)
	}
	if s := Answer(-1).String(); s != "outcome(-1)" {
		t.Fatalf("Outcome(-1) = %q", s)
	}
}

func TestClassify(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("wrapped: %w", err) }
	cases := []struct {
		err  error
		want Answer
	}{
		{nil, OK},
		{wrap(tripwiretest.ErrInjected), Injected},
		{wrap(tripwiretest.ErrDown), Down},
		{&state.OpenError{Key: "k"}, Open},
		{tripwire.ErrTimeout, Timeout},
		{context.DeadlineExceeded, Timeout},
		{wrap(tripwire.ErrTargetPanic), Panicked},
		{tripwire.ErrTargetDown, TargetDown},
		{tripwire.ErrBreakerRestarted, Restarted},
		{context.Canceled, Canceled},
		{tripwire.ErrShutdown, ShutDown},
		{errors.New("surprise"), Other},
	}
	for _, c := range cases {
		// Given an answer's error, Then it is classified by what it wraps
		if got := Classify(c.err); got != c.want {
			t.Errorf("Classify(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestAnswerKindIsTheKindItWasClassifiedFrom(t *testing.T) {
	for o := range NumAnswers {
		k := o.Kind()
		switch o {
		case Injected, Down, Other:
			// Given chaos's failures or an unexpected error, Then they are the target's own failures
			if k != observe.KindFailure {
				t.Errorf("%v.Kind() = %v, want failure", o, k)
			}
		default:
			// Given any other outcome, Then the kind it names classifies back to it
			if byKind[k] != o {
				t.Errorf("%v.Kind() = %v, which classifies as %v", o, k, byKind[k])
			}
		}
	}
}
