package task

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// NewAsk is newAsk, for the package's external tests.
var NewAsk = newAsk

// newAsk is an Ask of its own, started (Ask.Start).
func newAsk(p *Pool, s *Sender, target *actor.PID, msg any, deadline time.Time, header Header, call Call, classify Classifier) *Ask {
	a := &Ask{}
	a.Start(p, s, target, msg, deadline, header, call, classify)
	return a
}
