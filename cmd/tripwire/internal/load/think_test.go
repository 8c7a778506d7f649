package load_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/load"
	"github.com/tripwire-go/tripwire/state"
)

func TestThinkWithoutJitterIsThePause(t *testing.T) {
	// Given a plain pause of 50 ms
	think := load.Think{Pause: 50 * time.Millisecond}
	for _, err := range []error{nil, errors.New("boom"), &state.OpenError{Key: "k"}} {
		// When a call answers anything, Then the pause is 50 ms, drawing nothing
		if d := think.After(nil, err); d != 50*time.Millisecond {
			t.Errorf("After(%v) = %v", err, d)
		}
	}
}

func TestThinkBacksOffAfterErrOpen(t *testing.T) {
	// Given a pause of 1 ms that is at least 5 ms after ErrOpen
	think := load.Think{Pause: time.Millisecond, AfterOpen: 5 * time.Millisecond}
	// When a call is refused, Then the pause is 5 ms; after another answer it is 1 ms
	if d := think.After(nil, fmt.Errorf("call: %w", tripwire.ErrOpen)); d != 5*time.Millisecond {
		t.Errorf("after ErrOpen: %v", d)
	}
	if d := think.After(nil, tripwire.ErrTimeout); d != time.Millisecond {
		t.Errorf("after ErrTimeout: %v", d)
	}
	// and a pause longer than the backoff stays
	think.Pause = time.Second
	if d := think.After(nil, tripwire.ErrOpen); d != time.Second {
		t.Errorf("long pause after ErrOpen: %v", d)
	}
}

func TestThinkJitterDrawsAroundThePause(t *testing.T) {
	// Given a jittered pause of 10 ms
	think := load.Think{Pause: 10 * time.Millisecond, Jitter: true}
	rng := rand.New(rand.NewPCG(1, 2))
	lo, hi := time.Hour, time.Duration(0)
	for range 10_000 {
		d := think.After(rng, nil)
		lo, hi = min(lo, d), max(hi, d)
	}
	// Then every pause is in [5 ms, 15 ms), and they spread over it
	if lo < 5*time.Millisecond || hi >= 15*time.Millisecond || lo > 6*time.Millisecond || hi < 14*time.Millisecond {
		t.Fatalf("pauses in [%v, %v], want spread over [5ms, 15ms)", lo, hi)
	}
	// and a zero pause stays zero without a draw
	if d := (load.Think{Jitter: true}).After(nil, nil); d != 0 {
		t.Fatalf("zero pause: %v", d)
	}
}
