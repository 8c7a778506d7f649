package soak

import "github.com/asynkron/protoactor-go/actor"

// startAskers spawns n askers and sets them asking.
func (h *harness) startAskers(n int) []*actor.PID {
	askers := make([]*actor.PID, n)
	for i := range askers {
		askers[i] = h.sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return newAsker(h, i) }))
		h.sys.Root.Send(askers[i], startAsking{})
	}
	return askers
}

// haltAskers tells every asker to send no more requests.
func (h *harness) haltAskers(askers []*actor.PID) {
	for _, a := range askers {
		h.sys.Root.Send(a, stopAsking{})
	}
}

// finishAskers returns the askers' tallies and stops them. Called after
// Shutdown, when every reply is in its asker's mailbox (Shutdown waited for
// them), so the tallies are final, late duplicates included.
func (h *harness) finishAskers(askers []*actor.PID) []callerTally {
	var tallies []callerTally
	for _, a := range askers {
		tallies = append(tallies, h.askerTally(a))
		if err := h.sys.Root.PoisonFuture(a).Wait(); err != nil {
			h.problem("stop asker %s: %v", a.Id, err)
		}
	}
	return tallies
}
