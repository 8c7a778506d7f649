package actor

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

// TestACallBeingAdmittedByItsCallerKeepsTheKeyAwake: a caller that has
// read the circuit's admission but not yet sent its call must not find the
// key passivated under it (its call would run next to a breaker stopped,
// and the key could be forgotten meanwhile).
func TestACallBeingAdmittedByItsCallerKeepsTheKeyAwake(t *testing.T) {
	const idle = time.Second
	inBubbleWith(t, Rules{IdleTimeout: idle}, func(t *testing.T, r *rig) {
		r.snapshot() // started
		// Given a caller that has taken the closed circuit's admission
		now := time.Now()
		c := newCall(context.Background(), "ok", now.Add(time.Hour), now)
		adm := admissionOf(&r.cfg.Mailbox, c.Deadline, now)
		require.NotNil(t, adm)

		// When the key has been idle for twice IdleTimeout meanwhile
		time.Sleep(2 * idle)
		synctest.Wait()

		// Then it is still up, and the call, once sent, is answered
		require.False(t, r.cfg.Cell.Passivated())
		NewCaller(r.cfg.Shared.Pool).admit(&r.cfg.Mailbox, c, adm, now)
		r.cfg.Shared.Pool.Submit(&c.job)
		require.NoError(t, answer(c).Err)
		// and the key passivates idle after it
		time.Sleep(idle + time.Millisecond)
		synctest.Wait()
		require.True(t, r.cfg.Cell.Passivated())
	})
}
