package actor

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/state"
)

// Regression: a call its caller admitted whose end was taken before its
// worker ran it (its deadline, its caller's withdrawal), and whose circuit
// moved meanwhile, was handed to the breaker (Call.Redirect) and admitted
// again: counted twice, and the key's admitted calls in flight went to -1
// for good, so it could never passivate.
func TestACallThatEndedBeforeItsWorkerIsNotAdmittedAgain(t *testing.T) {
	for name, end := range map[string]func(r *rig, c *Call){
		"deadline": func(r *rig, c *Call) {
			time.Sleep(callTimeout)
			r.cfg.Mailbox.PostUserMessage(&c.expiry) // as its backstop does
		},
		"withdrawn": func(r *rig, c *Call) {
			r.cfg.Mailbox.PostUserMessage(&withdrawal{Call: c}) // as its caller does
		},
	} {
		t.Run(name, func(t *testing.T) {
			inBubble(t, func(t *testing.T, r *rig) {
				r.snapshot() // started
				// Given a call its caller admitted while the circuit was closed
				now := time.Now()
				c := newCall(context.Background(), "ok", now.Add(callTimeout), now)
				adm := admissionOf(&r.cfg.Mailbox, c.Deadline, now)
				require.NotNil(t, adm)
				NewCaller(r.cfg.Shared.Pool).admit(&r.cfg.Mailbox, c, adm, now)

				// When it ends before a worker runs it, and the circuit opens
				end(r, c)
				synctest.Wait()
				if name == "deadline" { // a withdrawn call's caller answers itself
					require.ErrorIs(t, answer(c).Err, errs.ErrTimeout)
				}
				require.Equal(t, state.Open, r.control(state.ForceOpen).State)
				before := r.fullSnapshot().Stats.Total
				calls := r.calls.Load()
				r.cfg.Shared.Pool.Submit(&c.job)
				synctest.Wait()

				// Then its worker's hand-off changes nothing: counted once,
				// answered once, and no call is left in flight
				s := r.fullSnapshot()
				require.Equal(t, before, s.Stats.Total)
				require.Zero(t, s.InFlight)
				require.Zero(t, r.cfg.Cell.admittedInFlight())
				require.Equal(t, calls, r.calls.Load(), "its target never ran")
			})
		})
	}
}
