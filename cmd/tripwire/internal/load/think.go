package load

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Think is a caller's pause between an answer and its next call.
type Think struct {
	Pause     time.Duration // the pause; with Jitter, its mean
	Jitter    bool          // draw each pause from [d/2, 3d/2) around its d
	AfterOpen time.Duration // after ErrOpen, pause at least this (before the jitter)
}

// After is the pause after a call that answered err. rng draws the jitter;
// without Jitter it is not used and may be nil.
func (t Think) After(rng *rand.Rand, err error) time.Duration {
	d := t.Pause
	if t.AfterOpen > 0 && errors.Is(err, tripwire.ErrOpen) {
		d = max(d, t.AfterOpen)
	}
	if t.Jitter && d > 0 {
		d = d/2 + time.Duration(rng.Int64N(int64(d)))
	}
	return d
}
