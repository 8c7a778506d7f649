package tripwire_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// Regression: a factory's panic came back as an error that wrapped no
// sentinel.
func TestAFactorysFailureIsErrFactory(t *testing.T) {
	errNoSuch := errors.New("no such dependency")
	reg := testkit.Start(t, testkit.NewSystem(t), tripwire.WithFactory(func(_ context.Context, key string) (tripwire.Target, tripwire.Settings, error) {
		if key == "panics" {
			panic("boom")
		}
		return nil, tripwire.Settings{}, errNoSuch
	}))
	_, err := reg.Call(context.Background(), "panics", 1)
	if !errors.Is(err, tripwire.ErrFactory) {
		t.Errorf("a factory that panics: %v, want ErrFactory", err)
	}
	_, err = reg.Call(context.Background(), "fails", 1)
	if !errors.Is(err, tripwire.ErrFactory) || !errors.Is(err, errNoSuch) {
		t.Errorf("a factory that fails: %v, want ErrFactory and its error", err)
	}
}
