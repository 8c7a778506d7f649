package policies

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// transitions records every transition the registry publishes.
type transitions struct {
	mu   sync.Mutex
	list []state.Transition
}

func record(t *testing.T, reg *tripwire.Registry) *transitions {
	tr := &transitions{}
	stop := reg.Subscribe(func(x state.Transition) {
		tr.mu.Lock()
		tr.list = append(tr.list, x)
		tr.mu.Unlock()
	})
	t.Cleanup(stop)
	return tr
}

// all returns the transitions delivered so far, once deliveries settled.
func (tr *transitions) all() []state.Transition {
	synctest.Wait()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]state.Transition(nil), tr.list...)
}

// last returns the latest transition, or fails if there is none.
func (tr *transitions) last(t *testing.T) state.Transition {
	t.Helper()
	all := tr.all()
	if len(all) == 0 {
		t.Fatalf("no transition recorded")
	}
	return all[len(all)-1]
}

// wantTransitions compares the recorded transitions with want, as
// "from->to:reason" strings.
func (tr *transitions) want(t *testing.T, want ...string) []state.Transition {
	t.Helper()
	all := tr.all()
	got := make([]string, len(all))
	for i, x := range all {
		got[i] = fmt.Sprintf("%v->%v:%s", x.From, x.To, x.Reason)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("transitions:\n got  %v\n want %v", got, want)
	}
	return all
}
