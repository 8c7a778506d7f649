package actor

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/state"
)

// do makes a call for msg as a registry's caller does (Caller.Do), on a
// goroutine of its own: a caller admits it itself while the circuit is
// closed. Its one answer comes on the channel.
func (r *rig) do(ctx context.Context, msg any) <-chan Result {
	k := NewCaller(r.cfg.Shared.Pool)
	out := make(chan Result, 1)
	go func() {
		now := time.Now()
		out <- k.Do(ctx, &r.cfg.Mailbox, &r.cfg.Cell, 0, msg, now.Add(callTimeout), now)
	}()
	return out
}

// hang makes a call as do does, whose target hangs until the gate it
// returns is closed (and then fails), and waits until the target runs.
func (r *rig) hang(ctx context.Context) (gate chan struct{}, out <-chan Result) {
	gate = make(chan struct{})
	out = r.do(ctx, gate)
	synctest.Wait()
	return gate, out
}

func TestACallAdmittedBeforeTheCircuitMovesIsAdmittedAgainByItsBreaker(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		k := NewCaller(r.cfg.Shared.Pool)
		admitted := func() *Call {
			now := time.Now()
			c := newCall(context.Background(), "ok", now.Add(callTimeout), now)
			adm := admissionOf(&r.cfg.Mailbox, c.Deadline, now)
			require.NotNil(t, adm, "a closed circuit lets callers admit")
			k.admit(&r.cfg.Mailbox, c, adm, now)
			return c
		}
		r.snapshot() // started

		// Given a call its caller admitted while the circuit was closed
		c := admitted()

		// When the circuit opens before a worker runs it
		r.trip()
		calls := r.calls.Load()
		r.cfg.Shared.Pool.Submit(&c.job)

		// Then the breaker rejects it: its target never runs
		require.ErrorIs(t, answer(c).Err, errs.ErrOpen)
		require.Equal(t, calls, r.calls.Load())
		require.Zero(t, r.snapshot().InFlight)

		// Given another, admitted while closed, when the circuit opens and
		// closes again (a new closed period) before a worker runs it
		time.Sleep(openTimeout + time.Millisecond)
		require.NoError(t, r.call("probe").Err)
		c = admitted()
		r.trip()
		time.Sleep(openTimeout + time.Millisecond)
		require.NoError(t, r.call("probe").Err)
		require.Equal(t, state.Closed, r.snapshot().State)
		calls = r.calls.Load()
		r.cfg.Shared.Pool.Submit(&c.job)

		// Then the breaker admits it in the closed period it is in now, and
		// its target runs once
		res := answer(c)
		require.NoError(t, res.Err)
		require.Equal(t, "ok", res.Value)
		require.Equal(t, calls+1, r.calls.Load())
		require.Equal(t, Snapshot{State: state.Closed}, r.snapshot())
	})
}

func TestAnAdmittedCallsDeadlineCountsOnceAsATimeout(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a call its caller admitted, hung in its target
		start := time.Now()
		gate, out := r.hang(context.Background())
		require.Equal(t, Snapshot{State: state.Closed, InFlight: 1}, r.snapshot())

		// When its deadline passes, then it fails with ErrTimeout exactly
		// then, and counts as one failure
		res := <-out
		require.ErrorIs(t, res.Err, errs.ErrTimeout)
		require.Equal(t, callTimeout, time.Since(start))
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1}, r.snapshot())

		// And its target's late failure counts nothing more
		close(gate)
		synctest.Wait()
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1}, r.snapshot())
	})
}

func TestTheBackstopAnswersAnAdmittedCallWhoseBreakerCannotTakeItsDeadline(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a call its caller admitted, hung in its target
		start := time.Now()
		gate, out := r.hang(context.Background())
		require.EqualValues(t, 1, r.calls.Load())

		// And its breaker's mailbox suspended, as while a crash of it is
		// being decided: callers post their calls meanwhile
		r.cfg.Mailbox.PostSystemMessage(&actor.SuspendMailbox{})
		synctest.Wait()
		require.Nil(t, r.cfg.Cell.admits.Load())

		// When its deadline passes, then its caller's backstop answers it
		// ReplyGrace later
		res := <-out
		require.ErrorIs(t, res.Err, errs.ErrTimeout)
		require.Equal(t, callTimeout+ReplyGrace, time.Since(start))

		// And once the mailbox resumes, the breaker counts the timeout once,
		// and callers admit calls again
		r.cfg.Mailbox.PostSystemMessage(&actor.ResumeMailbox{})
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1}, r.snapshot())
		require.NotNil(t, r.cfg.Cell.admits.Load())
		close(gate)
		synctest.Wait()
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1}, r.snapshot())
	})
}

func TestAnAdmittedCallCarriesOverACrashUncounted(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a call its caller admitted, hung in its target when the
		// breaker crashed
		gate, out := r.hang(context.Background())
		r.crash()

		// And the new incarnation one failure short of opening
		require.ErrorIs(t, r.call("fail").Err, errBoom)
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1, InFlight: 1}, r.snapshot())

		// When its target fails at last
		close(gate)

		// Then its caller gets the target's answer, which counts nowhere:
		// neither in the circuit nor in the statistics (as a call in the
		// breaker's table that a crash carried over)
		require.ErrorIs(t, (<-out).Err, errBoom)
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1}, r.snapshot())
		require.EqualValues(t, 1, r.fullSnapshot().Stats.Total.Failures)
	})
}

func TestAWithdrawnAdmittedCallCountsNeitherWay(t *testing.T) {
	inBubble(t, func(t *testing.T, r *rig) {
		// Given a call its caller admitted, hung in its target, one failure
		// short of opening
		require.ErrorIs(t, r.call("fail").Err, errBoom)
		ctx, cancel := context.WithCancel(context.Background())
		gate, out := r.hang(ctx)

		// When its caller cancels, then it gets context.Canceled at once
		cancel()
		require.ErrorIs(t, (<-out).Err, context.Canceled)
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1}, r.snapshot())
		require.EqualValues(t, 1, r.fullSnapshot().Stats.Total.Canceled)

		// And its target's late failure counts nothing
		close(gate)
		synctest.Wait()
		require.Equal(t, Snapshot{State: state.Closed, Failures: 1}, r.snapshot())
	})
}
