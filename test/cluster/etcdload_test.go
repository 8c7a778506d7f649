package cluster

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// load is callers that keep calling one key of a registry, and what came
// of each call and of the key's breaker, for a member child's "stats".
type load struct {
	key         string
	cancel      context.CancelFunc
	done        sync.WaitGroup
	unsubscribe func()

	mu    sync.Mutex
	calls []call
	trans []state.Transition
}

// call is how one call ended: when, as what, answered from which member.
type call struct {
	at   time.Time
	kind string // ok, rejected (ErrOpen), slow (ErrTimeout), down (ErrTargetDown), other
	host string
}

const (
	loadCallers = 4
	loadPause   = 10 * time.Millisecond
)

func startLoad(reg *tripwire.Registry, key string) *load {
	ctx, cancel := context.WithCancel(context.Background())
	l := &load{key: key, cancel: cancel}
	l.unsubscribe = reg.Subscribe(func(t state.Transition) {
		if t.Key == key {
			l.mu.Lock()
			l.trans = append(l.trans, t)
			l.mu.Unlock()
		}
	})
	for range loadCallers {
		l.done.Go(func() {
			for ctx.Err() == nil {
				v, err := reg.Call(ctx, key, wrapperspb.String("load"))
				if ctx.Err() != nil {
					return
				}
				c := call{at: time.Now(), kind: kindOf(err)}
				if s, ok := v.(*wrapperspb.StringValue); ok {
					c.host, _, _ = strings.Cut(s.GetValue(), " ")
				}
				l.mu.Lock()
				l.calls = append(l.calls, c)
				l.mu.Unlock()
				time.Sleep(loadPause) // the callers' pace
			}
		})
	}
	return l
}

func kindOf(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, tripwire.ErrOpen):
		return "rejected"
	case errors.Is(err, tripwire.ErrTimeout):
		return "slow"
	case errors.Is(err, tripwire.ErrTargetDown):
		return "down"
	}
	return "other"
}

// stats says what happened since fault: when the breaker opened (and
// why), when a call was first answered by a member other than oldHost
// (and which), and how the calls in between ended:
// "open=<after> reason=<r> elsewhere=<after> host=<h> slow=N down=N rejected=N other=N".
func (l *load) stats(fault time.Time, oldHost string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	open, reason := "none", "none"
	for _, t := range l.trans {
		if t.To == state.Open && !t.At.Before(fault) {
			open, reason = t.At.Sub(fault).Round(time.Millisecond).String(), string(t.Reason)
			break
		}
	}
	elsewhere, host := "none", "none"
	counts := map[string]int{}
	for _, c := range l.calls {
		if c.at.Before(fault) {
			continue
		}
		if c.kind == "ok" && c.host != oldHost {
			elsewhere, host = c.at.Sub(fault).Round(time.Millisecond).String(), c.host
			break
		}
		counts[c.kind]++
	}
	return fmt.Sprintf("open=%s reason=%s elsewhere=%s host=%s slow=%d down=%d rejected=%d other=%d",
		open, reason, elsewhere, host, counts["slow"], counts["down"], counts["rejected"], counts["other"])
}

// history says, for a failure's message, what the breaker and the calls
// did since fault, in order: each transition ("+<after> Open (reason)")
// and each run of calls that ended alike ("+<after> 12×rejected@host").
func (l *load) history(fault time.Time) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	type event struct {
		at   time.Time
		text string
	}
	var evs []event
	for _, t := range l.trans {
		if !t.At.Before(fault) {
			evs = append(evs, event{t.At, fmt.Sprintf("%v (%s)", t.To, t.Reason)})
		}
	}
	run, n := "", 0
	var start time.Time
	flush := func() {
		if n > 0 {
			evs = append(evs, event{start, fmt.Sprintf("%d×%s", n, run)})
		}
	}
	for _, c := range l.calls {
		if c.at.Before(fault) {
			continue
		}
		what := c.kind + "@" + c.host
		if what != run {
			flush()
			run, n, start = what, 0, c.at
		}
		n++
	}
	flush()
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].at.Before(evs[j].at) })
	parts := make([]string, len(evs))
	for i, e := range evs {
		parts[i] = fmt.Sprintf("+%v %s", e.at.Sub(fault).Round(time.Millisecond), e.text)
	}
	return strings.Join(parts, "; ")
}

func (l *load) stop() {
	l.cancel()
	l.done.Wait()
	l.unsubscribe()
}
