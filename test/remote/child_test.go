package remote

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/internal/node"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"

	"github.com/tripwire-go/tripwire/remotekeepalive"
)

// The other nodes of these tests are child processes running this test
// binary as a demo.Node: one remote per process. protoactor's remote.Start
// writes gRPC's process-wide logger without synchronisation
// (remote/server.go:61), so two remotes in one process race under -race;
// and a child can be killed like a real node.
const (
	childEnv          = "TRIPWIRE_TEST_NODE"           // the address a child listens on
	childLatencyEnv   = "TRIPWIRE_TEST_NODE_LATENCY"   // its dependency's latency
	childKeepaliveEnv = "TRIPWIRE_TEST_NODE_KEEPALIVE" // "1": its remote runs with keepalive
	childShedEnv      = "TRIPWIRE_TEST_NODE_SHED"      // "1": its dependency sheds expired requests
)

// runChild is a child's whole life: serve the dependency on listen, print
// its address, answer each line "counts" on stdin with "COUNTS executed=N
// shed=N" (the requests its dependency ran and shed), and stop when stdin
// closes.
func runChild(listen string) int {
	latency, _ := time.ParseDuration(os.Getenv(childLatencyEnv))
	n, err := node.StartConfig(node.Config{Listen: listen, Latency: latency, Shed: os.Getenv(childShedEnv) == "1",
		Remote: keepaliveOptions(os.Getenv(childKeepaliveEnv) == "1")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("ADDR %s\n", n.Address())
	for in := bufio.NewScanner(os.Stdin); in.Scan(); {
		if in.Text() == "counts" {
			fmt.Printf("COUNTS executed=%d shed=%d\n", n.Calls(), n.Shed())
		}
	}
	n.Stop()
	return 0
}

// child is a node in another process.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader // its stdout after the ADDR line
	addr  string
}

// nodeSpec is how to start a child node.
type nodeSpec struct {
	ns        string // network namespace ("": this process's)
	listen    string
	latency   time.Duration
	keepalive bool
	shed      bool
}

// startChild starts a node on listen whose dependency answers after
// latency. The test's cleanup kills it.
func startChild(t *testing.T, listen string, latency time.Duration) *child {
	t.Helper()
	return startChildIn(t, "", listen, latency, false)
}

// startChildIn starts a node in network namespace ns ("": this process's),
// with keepalive or without. The test's cleanup kills it.
func startChildIn(t *testing.T, ns, listen string, latency time.Duration, keepalive bool) *child {
	t.Helper()
	return startNode(t, nodeSpec{ns: ns, listen: listen, latency: latency, keepalive: keepalive})
}

// startNode starts the child node s describes. The test's cleanup kills it.
func startNode(t *testing.T, s nodeSpec) *child {
	t.Helper()
	cmd := selfIn(s.ns)
	cmd.Env = append(os.Environ(), childEnv+"="+s.listen, childLatencyEnv+"="+s.latency.String(),
		childKeepaliveEnv+"="+flag01(s.keepalive), childShedEnv+"="+flag01(s.shed))
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
	c := &child{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	t.Cleanup(c.kill)
	line, err := c.out.ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ADDR ")
	if err != nil || !ok {
		t.Fatalf("child node on %s: %q, %v", s.listen, line, err)
	}
	c.addr = addr
	return c
}

// selfIn is a command that runs this test binary, running no test, in
// network namespace ns ("": this process's).
func selfIn(ns string) *exec.Cmd {
	if ns == "" {
		return exec.Command(os.Args[0], "-test.run=^$")
	}
	return exec.Command("ip", "netns", "exec", ns, os.Args[0], "-test.run=^$")
}

func flag01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// keepaliveOptions are the options of a remote with remotekeepalive's
// defaults, or none.
func keepaliveOptions(on bool) []remote.ConfigOption {
	if !on {
		return nil
	}
	opts, err := remotekeepalive.Options(remotekeepalive.Config{})
	if err != nil {
		panic(err) // the zero Config is valid
	}
	return opts
}

// pid is the child's dependency actor.
func (c *child) pid() *actor.PID { return actor.NewPID(c.addr, node.Name) }

// counts returns how many requests the child's dependency has run and
// shed.
func (c *child) counts(t *testing.T) (executed, shed int) {
	t.Helper()
	if _, err := io.WriteString(c.stdin, "counts\n"); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		for {
			line, err := c.out.ReadString('\n')
			if err != nil || strings.HasPrefix(line, "COUNTS ") {
				got <- line
				return
			}
		}
	}()
	select {
	case line := <-got:
		if _, err := fmt.Sscanf(line, "COUNTS executed=%d shed=%d", &executed, &shed); err != nil {
			t.Fatalf("counts: %q: %v", line, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the child node did not say its counts within 10 s")
	}
	return executed, shed
}

// kill ends the child at once, as a crashed machine would.
func (c *child) kill() {
	if c.cmd.ProcessState != nil {
		return
	}
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
}
