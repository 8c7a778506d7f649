package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/demo"
)

// A caller child is the registry side in a process, and a namespace, of
// its own: a registry in front of a node's dependency, and callers that
// keep calling it. It prints "READY" after its first answered call, a
// line per transition ("T <unix ns> <from> <to> <reason>"), and, when its
// stdin closes, how its calls ended ("COUNTS ok=N open=N slow=N other=N":
// slow are the calls that failed at their deadline).
const callerEnv = "TRIPWIRE_TEST_CALLER" // a callerSpec, in JSON

type callerSpec struct {
	Listen    string // host:port of its own remote, where replies come back
	Node      string // host:port of the node
	Keepalive bool
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
	sys := tripwire.NewActorSystem(nil)
	// Not shut down: this process ends with it, and protoactor's graceful
	// Remote.Shutdown writes a flag its connection goroutines read without
	// synchronisation (remote/endpoint_reader.go).
	if _, err := demo.EnableRemote(sys, s.Listen, keepaliveOptions(s.Keepalive)...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	reg, err := tripwire.Start(sys)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var out sync.Mutex
	say := func(format string, args ...any) {
		out.Lock()
		defer out.Unlock()
		fmt.Printf(format+"\n", args...)
	}
	reg.Subscribe(func(tr tripwire.Transition) {
		say("T %d %s %s %s", tr.At.UnixNano(), tr.From, tr.To, tr.Reason)
	})
	if err := reg.Register("dep", tripwire.ActorTarget(actor.NewPID(s.Node, demo.DependencyName)),
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
					slow.Add(1)
				case ctx.Err() == nil:
					other.Add(1)
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

// remoteCaller is a caller child, seen from the test.
type remoteCaller struct {
	c      *child
	lines  chan string // its stdout after READY
	counts chan string // its COUNTS line
}

// startRemoteCaller starts a caller child in namespace ns and waits until
// a call has been answered. The test's cleanup kills it.
func startRemoteCaller(t *testing.T, ns string, s callerSpec) *remoteCaller {
	t.Helper()
	spec, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	cmd := selfIn(ns)
	cmd.Env = append(os.Environ(), callerEnv+"="+string(spec))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rc := &remoteCaller{c: &child{cmd: cmd, stdin: stdin}, lines: make(chan string, 1024), counts: make(chan string, 1)}
	t.Cleanup(rc.c.kill)
	ready := make(chan struct{})
	go func() {
		in := bufio.NewScanner(stdout)
		for in.Scan() {
			switch l := in.Text(); {
			case l == "READY":
				close(ready)
			case strings.HasPrefix(l, "COUNTS "):
				rc.counts <- strings.TrimPrefix(l, "COUNTS ")
			default:
				rc.lines <- l
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the caller had no call answered within 10 s")
	}
	return rc
}

// transition is a line T of a caller.
type transition struct {
	at       time.Time
	from, to string
	reason   string
}

// next returns the caller's next transition to state to, failing the test
// if none comes by deadline.
func (rc *remoteCaller) next(t *testing.T, to string, deadline time.Time) transition {
	t.Helper()
	timeout := time.After(time.Until(deadline))
	for {
		select {
		case l := <-rc.lines:
			var tr transition
			var ns int64
			if _, err := fmt.Sscanf(l, "T %d %s %s %s", &ns, &tr.from, &tr.to, &tr.reason); err != nil {
				t.Fatalf("caller line %q: %v", l, err)
			}
			tr.at = time.Unix(0, ns)
			if tr.to == to {
				return tr
			}
		case <-timeout:
			t.Fatalf("no transition to %s by %v", to, deadline.Format("15:04:05.000"))
		}
	}
}

// stop ends the caller's calls and returns how they ended.
func (rc *remoteCaller) stop(t *testing.T) map[string]int {
	t.Helper()
	_ = rc.c.stdin.Close()
	select {
	case l := <-rc.counts:
		counts := map[string]int{}
		for _, f := range strings.Fields(l) {
			k, v, _ := strings.Cut(f, "=")
			counts[k], _ = strconv.Atoi(v)
		}
		return counts
	case <-time.After(10 * time.Second):
		t.Fatal("the caller did not stop within 10 s")
		return nil
	}
}
