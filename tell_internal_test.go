package tripwire

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/state"
)

func TestAControlAnsweredAsShutdownBeginsReportsTheAnswer(t *testing.T) {
	inBubbleWithKey(t, func(t *testing.T, sys *actor.ActorSystem, reg *Registry, calls *atomic.Int64) {
		e, err := reg.lookup("k")
		require.NoError(t, err)
		stopping := reg.stopping
		defer func() { reg.stopping = stopping }()
		begun := make(chan struct{})
		close(begun)
		reg.stopping = begun
		for range 64 {
			// Given a breaker's answer already there when the caller looks,
			// and Shutdown begun meanwhile (as a Subscribe callback that
			// shuts down on the transition the control caused does)
			snap, err := reg.tell(context.Background(), e, func(reply chan tactor.Report) any {
				reply <- tactor.Report{Snapshot: tactor.Snapshot{Key: "k"}}
				return &tactor.Control{Event: state.ProbeNow, Reply: make(chan tactor.Report, 1)}
			})
			// Then the caller gets the answer, not ErrShutdown
			require.NoError(t, err)
			require.Equal(t, "k", snap.Key)
		}
	})
}
