package soak_test

import (
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
	"github.com/tripwire-go/tripwire/internal/sendhook"
)

// TestARunKnowsWhenTripwireSentItsAnswersOnlyWithTheHook: in a build with
// the tag tripwire_sendhook the soak learns when Tripwire sent the answers
// that came past their deadline; without it, of none.
func TestARunKnowsWhenTripwireSentItsAnswersOnlyWithTheHook(t *testing.T) {
	// Given a short run on keys slow enough (40 ms) to time out 30 ms calls
	cfg := sized(16, soak.SlowKeys, 500*time.Millisecond)
	cfg.ActorEvery = 2
	cfg.MustSee = []soak.Answer{soak.Timeout}
	// When it is over
	rep := run(t, cfg)
	check(t, "sends", cfg, rep)
	// Then, with the hook, the send of answers past their deadline is known
	if rep.SendsKnown != sendhook.On || rep.PastDue == 0 {
		t.Fatalf("sends known %v with the hook %v; %d answers past their deadline", rep.SendsKnown, sendhook.On, rep.PastDue)
	}
	if sendhook.On && (rep.SentKnown == 0 || rep.SentKnown > rep.PastDue) || !sendhook.On && rep.SentKnown != 0 {
		t.Fatalf("send known for %d of %d answers past their deadline, with the hook %v", rep.SentKnown, rep.PastDue, sendhook.On)
	}
}
