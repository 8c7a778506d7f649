package actor

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/state"
)

// seen is what a caller of the key would have met at the moment the
// listener heard of a transition.
type seen struct {
	to       state.State
	state    state.State
	rejected bool
}

// seeing records, for each transition, what the key's callers see then.
type seeing struct {
	cell *Cell
	mu   sync.Mutex
	got  []seen
}

func (s *seeing) Transitioned(t state.Transition) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, seen{to: t.To, state: s.cell.State(), rejected: s.cell.openError() != nil})
}

func (s *seeing) Restarted(string, any) {}

func (s *seeing) all() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.got...)
}

// Regression: a breaker announced a transition before it published the
// rejection that goes with it, so a subscriber that called the key as soon
// as it heard "closed" could still get the half-open circuit's ErrOpen (and
// one that heard "open" could still be admitted).
func TestATransitionIsAnnouncedOnceCallersSeeIt(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a listener on a breaker that opens, half-opens on its timer,
		// and closes on a probe that is still in flight when it half-opens
		l := &seeing{cell: &r.cfg.Cell}
		r.cfg.Shared.Listener = l
		r.trip()
		time.Sleep(openTimeout + time.Millisecond)
		gate := make(later)
		probe := r.send(gate)
		synctest.Wait()
		require.NotNil(t, r.cfg.Cell.openError(), "the probe holds the half-open circuit's slot")

		// When the probe succeeds
		close(gate)
		require.NoError(t, answer(probe).Err)

		// Then at each transition callers already saw its state and its
		// rejection: refused while open, admitted once closed
		require.Equal(t, []seen{
			{to: state.Open, state: state.Open, rejected: true},
			{to: state.HalfOpen, state: state.HalfOpen, rejected: false},
			{to: state.Closed, state: state.Closed, rejected: false},
		}, l.all())
	})
}
