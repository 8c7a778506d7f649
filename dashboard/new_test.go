package dashboard

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestNewRefusesWhatItCannotServe(t *testing.T) {
	// Given a registry
	reg := testkit.Start(t, testkit.NewSystem(t))
	for name, call := range map[string]func() (*Handler, error){
		"a nil registry":     func() (*Handler, error) { return New(nil) },
		"a nil option":       func() (*Handler, error) { return New(reg, nil) },
		"WithControl(nil)":   func() (*Handler, error) { return New(reg, WithControl(nil)) },
		"WithMetrics(nil)":   func() (*Handler, error) { return New(reg, WithMetrics(nil)) },
		"WithTitle(\"\")":    func() (*Handler, error) { return New(reg, WithTitle("")) },
		"WithRefresh(1ms)":   func() (*Handler, error) { return New(reg, WithRefresh(time.Millisecond)) },
		"WithRefresh(1h)":    func() (*Handler, error) { return New(reg, WithRefresh(time.Hour)) },
		"WithCrash(nil)":     func() (*Handler, error) { return New(reg, WithCrash(nil)) },
		"a refused option 2": func() (*Handler, error) { return New(reg, WithTitle("ok"), WithControl(nil)) },
	} {
		// When New is given it
		h, err := call()
		// Then it refuses with ErrInvalidOption, and starts nothing
		if !errors.Is(err, tripwire.ErrInvalidOption) || h != nil {
			t.Errorf("New with %s: %v, %v", name, h, err)
		}
	}
	// and with good options it serves
	h, err := New(reg, WithTitle("ok"), WithRefresh(time.Second), WithControl(func(*http.Request) bool { return false }),
		WithMetrics(http.NotFoundHandler()), WithCrash(func(ctx context.Context, key string) error { return tripwiretest.Crash(ctx, reg, key) }))
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	h.Close() // a second Close does nothing
}
