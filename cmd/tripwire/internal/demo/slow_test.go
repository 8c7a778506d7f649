package demo

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

func TestSlowLatency(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name string
		s    tripwire.Settings
		want time.Duration
	}{
		{"past the call timeout", tripwire.Settings{CallTimeout: 200 * ms}, 400 * ms},
		{"past the default call timeout", tripwire.Settings{}, 2 * state.DefaultCallTimeout},
		{"between slow-call and the call timeout", tripwire.Settings{CallTimeout: 200 * ms, SlowCall: 100 * ms}, 150 * ms},
		{"slow-call under the default call timeout", tripwire.Settings{SlowCall: time.Second}, 3 * time.Second},
		{"slow-call past the call timeout: times out", tripwire.Settings{CallTimeout: 200 * ms, SlowCall: 300 * ms}, 400 * ms},
	}
	for _, c := range cases {
		// Given the settings; Then a Slow dependency, while down, takes this long
		if got := slowLatency(c.s); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
