package tripwire

import (
	"context"

	"github.com/asynkron/protoactor-go/actor"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/task"
)

// Target is the dependency a breaker protects: an actor (ActorTarget) or a
// function (Func), possibly with a check of its messages (Checked). Other
// packages build theirs from these: grain.Target for a cluster's virtual
// actors.
type Target interface {
	target() targetSpec
}

type targetSpec struct {
	pid *actor.PID
	fn  func(ctx context.Context, msg any) (any, error)
	// contract: what the target takes and answers (nil: anything)
	contract *tactor.Contract
	// header: which asks carry the DeadlineHeader (WithDeadlineHeader,
	// WithoutDeadlineHeader); by default those to another machine
	header task.Header
}

func (t targetSpec) target() targetSpec { return t }

// ActorTarget protects an actor. The message of a call is sent to pid with a
// reply address; the actor answers with ctx.Respond. A reply whose value is
// an error counts as a failure and is returned as the call's error. A PID
// built from a name (system.NewLocalPID("weather")) reaches the actor again
// after it restarts or is respawned under that name.
//
// A call to a PID with no actor behind it fails with ErrTargetDown at once,
// and sends nothing to protoactor's dead letters; nor does the breaker's
// watch of it, which opens the circuit at once (so no DeadLetterEvent
// handler of the program's runs for either). An actor spawned with a
// Bounded mailbox blocks its senders while the mailbox is full: its calls
// wait for room in line, in the order they came, on one worker, and a call
// answered first (at its deadline) is never sent.
func ActorTarget(pid *actor.PID) Target {
	if pid == nil {
		return targetSpec{}
	}
	// A private copy: protoactor caches the resolved process in the PID.
	return targetSpec{pid: &actor.PID{Address: pid.Address, Id: pid.Id}}
}
