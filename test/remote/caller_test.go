package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire/internal/node"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/state"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/remoting"
)

// A caller child is the registry side in a process, and a namespace, of
// its own: a registry in front of a node's dependency, and callers that
// keep calling it. It prints "READY" after its first answered call,
// "FAILING" after its third failed one (not rejected), a
// line per transition ("T <unix ns> <from> <to> <reason>"), and, when its
// stdin closes, how its calls ended ("COUNTS ok=N open=N slow=N other=N":
// slow are the calls that failed at their deadline). With DialLog, it also
// prints "DIAL <unix ns>" for every TCP connection its remote dials.
const callerEnv = "TRIPWIRE_TEST_CALLER" // a callerSpec, in JSON

type callerSpec struct {
	Listen   string // host:port of its own remote, where replies come back
	Node     string // host:port of the node
	Remoting remotingSpec
	// Probe runs remoting.ProbeOnReconnect (with Remoting.On).
	Probe   bool
	DialLog bool
	// The breaker's settings.
	Threshold                int
	OpenTimeout, CallTimeout time.Duration
	Callers                  int
	Pause                    time.Duration // a caller's pause between its calls
}

// The demo's settings (issue 17's measurements).
var demoSettings = tripwire.Settings{Threshold: 3, OpenTimeout: time.Second, CallTimeout: 200 * time.Millisecond}

func runCaller(spec string) int {
	var s callerSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "caller spec:", err)
		return 2
	}
	var out sync.Mutex
	say := func(format string, args ...any) {
		out.Lock()
		defer out.Unlock()
		fmt.Printf(format+"\n", args...)
	}
	var dialLog func(time.Time)
	if s.DialLog {
		dialLog = func(at time.Time) { say("DIAL %d", at.UnixNano()) }
	}
	opts, err := s.Remoting.options(new(atomic.Int64), dialLog)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	sys := system.New(nil)
	// Not shut down: this process ends with it, and protoactor's graceful
	// Remote.Shutdown writes a flag its connection goroutines read without
	// synchronisation (remote/endpoint_reader.go).
	if _, err := node.EnableRemote(sys, s.Listen, opts...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if s.Probe {
		stop, err := remoting.ProbeOnReconnect(reg, sys)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer stop()
	}
	reg.Subscribe(func(tr state.Transition) {
		say("T %d %s %s %s", tr.At.UnixNano(), tr.From, tr.To, tr.Reason)
	})
	if err := reg.Register(context.Background(), "dep", tripwire.ActorTarget(actor.NewPID(s.Node, node.Name)),
		tripwire.Settings{Threshold: s.Threshold, OpenTimeout: s.OpenTimeout, CallTimeout: s.CallTimeout}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var ok, open, slow, other atomic.Int64
	var ready sync.Once
	ctx, stop := context.WithCancel(context.Background())
	var callers sync.WaitGroup
	for range s.Callers {
		callers.Go(func() {
			for ctx.Err() == nil {
				_, err := reg.Call(ctx, "dep", hello())
				switch {
				case err == nil:
					ok.Add(1)
					ready.Do(func() { say("READY") })
				case errors.Is(err, tripwire.ErrOpen):
					open.Add(1)
				case errors.Is(err, tripwire.ErrTimeout):
					if slow.Add(1)+other.Load() == 3 {
						say("FAILING")
					}
				case ctx.Err() == nil:
					if other.Add(1)+slow.Load() == 3 {
						say("FAILING")
					}
				}
				select {
				case <-ctx.Done():
				case <-time.After(s.Pause):
				}
			}
		})
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	stop()
	callers.Wait()
	_ = reg.Shutdown(context.Background())
	say("COUNTS ok=%d open=%d slow=%d other=%d", ok.Load(), open.Load(), slow.Load(), other.Load())
	return 0
}
