package observe

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/tripwire-go/tripwire/internal/errs"
)

func TestKindOfNamesEachAnswer(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("key k: %w", err) }
	for _, c := range []struct {
		err  error
		want Kind
	}{
		{nil, KindOK},
		{&errs.OpenError{Key: "k"}, KindOpen},
		{wrap(errs.ErrOverloaded), KindOverloaded},
		{errs.ErrTimeout, KindTimeout},
		{wrap(errs.ErrTimeout), KindTimeout},
		{wrap(context.Canceled), KindCanceled},
		{context.DeadlineExceeded, KindDeadline},
		{wrap(errs.ErrTargetPanic), KindPanic},
		{errs.ErrTargetDown, KindTargetDown},
		{errs.ErrBreakerRestarted, KindRestarted},
		{errs.ErrShutdown, KindShutdown},
		{errors.New("the target's own"), KindFailure},
		{errs.ErrUnknownKey, KindFailure},
		// an error that wraps two is the kind declared first
		{errors.Join(errs.ErrTargetPanic, errs.ErrOpen), KindOpen},
		{errors.Join(errs.ErrShutdown, context.Canceled), KindCanceled},
	} {
		// Given an answer's error, Then its kind is the first it wraps
		if got := KindOf(c.err); got != c.want {
			t.Errorf("KindOf(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestKindLabelCoarsensEachKind(t *testing.T) {
	want := [NumKinds]string{
		KindOK: "success", KindOpen: "rejected", KindOverloaded: "rejected", KindTimeout: "timeout",
		KindCanceled: "canceled", KindDeadline: "failure", KindPanic: "failure", KindTargetDown: "failure",
		KindRestarted: "failure", KindShutdown: "failure", KindFailure: "failure",
	}
	for k := range NumKinds {
		// Given a kind, Then its label is the metric's outcome for it
		if got := k.Label().String(); got != want[k] {
			t.Errorf("%v.Label() = %s, want %s", k, got, want[k])
		}
	}
}

func TestKindStringNamesEveryKind(t *testing.T) {
	seen := map[string]bool{}
	for k := range NumKinds {
		// Given a kind, Then it has a name of its own
		if s := k.String(); s == "" || seen[s] {
			t.Errorf("Kind(%d) is named %q", k, s)
		} else {
			seen[s] = true
		}
	}
	if s := NumKinds.String(); s != "kind(11)" {
		t.Errorf("NumKinds.String() = %q", s)
	}
}
