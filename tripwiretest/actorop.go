package tripwiretest

import "github.com/asynkron/protoactor-go/actor"

// opAnswer carries the answer of an Op that waited off the actor's
// goroutine back to its actor target, for the requester to.
type opAnswer struct {
	to    *actor.PID
	reply any
}

// do carries out o, the message of call n, in an actor target without
// blocking it: an Op that waits does so on a timer or a goroutine of its
// own, which sends the answer back to the actor as an opAnswer.
func (a *target) do(ctx actor.Context, to *actor.PID, o Op, n int64) {
	if err := o.check(); err != nil {
		a.reply(ctx, to, err)
		return
	}
	root, self := ctx.ActorSystem().Root, ctx.Self()
	send := func(reply any) { root.Send(self, &opAnswer{to: to, reply: reply}) }
	switch {
	case o.Panic:
		a.s.panicOp(o, n)
	case o.Hang:
		a.s.hangs.Add(1) // an actor has no context to end: never answered
	case o.Stuck != nil:
		a.s.hangs.Add(1)
		go func() {
			<-o.Stuck
			send(a.s.fail(o, n, " (stuck)"))
		}()
	case o.Gate != nil:
		go func() {
			if !<-o.Gate {
				send(a.s.fail(o, n, ""))
				return
			}
			after(o.After, func() { send(a.value(o, n)) })
		}()
	case o.After > 0:
		after(o.After, func() { send(a.value(o, n)) })
	default:
		a.reply(ctx, to, a.value(o, n))
	}
}

// value is o's answer as an actor replies it: its error, or else its value.
func (a *target) value(o Op, n int64) any {
	v, err := a.s.result(o, n)
	if err != nil {
		return err
	}
	return v
}
