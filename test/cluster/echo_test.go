package cluster

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/tripwire-go/tripwire/remoting"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// echoKind is the grain kind every member hosts.
const echoKind = "echo"

// fail is the message an echo grain answers with errGrain, a Go error
// value (which only a local caller can receive).
const fail = "fail"

var errGrain = errors.New("echo: asked to fail")

// deadline is the message an echo grain answers with the deadline header
// it came with ("deadline <value>").
const deadline = "deadline"

// holdPrefix starts the message an echo grain keeps unanswered; the rest
// is the address and id of a PID the grain tells "held" when it has it, so
// a test knows the call is in flight at the grain.
const holdPrefix = "hold "

// echoKindOf is the echo grain: it answers each StringValue with where it
// lives and how many messages this activation has received ("host:port
// #n"), except fail, which it answers with errGrain, deadline, which it
// answers with its deadline header, and a hold message, which it keeps
// unanswered.
func echoKindOf() *cluster.Kind {
	return cluster.NewKind(echoKind, actor.PropsFromProducer(func() actor.Actor { return &echo{} }))
}

type echo struct{ received int }

func (e *echo) Receive(ctx actor.Context) {
	m, ok := ctx.Message().(*wrapperspb.StringValue)
	if !ok {
		return
	}
	e.received++
	switch m.GetValue() {
	case fail:
		ctx.Respond(errGrain)
		return
	case deadline:
		ctx.Respond(wrapperspb.String(deadline + " " + ctx.MessageHeader().Get(remoting.DeadlineHeader)))
		return
	}
	if to, ok := strings.CutPrefix(m.GetValue(), holdPrefix); ok {
		addr, id, _ := strings.Cut(to, " ")
		ctx.Send(actor.NewPID(addr, id), wrapperspb.String("held"))
		return
	}
	ctx.Respond(wrapperspb.String(fmt.Sprintf("%s #%d", ctx.ActorSystem().Address(), e.received)))
}

// echoReply splits an echo grain's reply into the address of its member
// and the number of messages its activation had received.
func echoReply(t *testing.T, v any) (addr string, n int) {
	t.Helper()
	s, ok := v.(*wrapperspb.StringValue)
	if !ok {
		t.Fatalf("reply %T(%v), want *wrapperspb.StringValue", v, v)
	}
	if _, err := fmt.Sscanf(s.GetValue(), "%s #%d", &addr, &n); err != nil {
		t.Fatalf("reply %q: %v", s.GetValue(), err)
	}
	return addr, n
}

// holds receives the "held" notices of echo grains on a local actor.
type holds struct {
	sys *actor.ActorSystem
	pid *actor.PID
	ch  chan struct{}
}

// newHolds spawns the receiver on sys.
func newHolds(sys *actor.ActorSystem) *holds {
	h := &holds{sys: sys, ch: make(chan struct{}, 8)}
	h.pid = sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*wrapperspb.StringValue); ok {
			h.ch <- struct{}{}
		}
	}))
	return h
}

// stop stops the receiver.
func (h *holds) stop() { _ = h.sys.Root.StopFuture(h.pid).Wait() }

// message is the hold message that reports to h. It first drops notices
// nobody waited for (a test that failed), so the next one is this call's.
func (h *holds) message() *wrapperspb.StringValue {
	for {
		select {
		case <-h.ch:
		default:
			return wrapperspb.String(holdPrefix + h.pid.Address + " " + h.pid.Id)
		}
	}
}
