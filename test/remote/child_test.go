package remote

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/internal/node"

	"github.com/asynkron/protoactor-go/actor"
)

// The other nodes of these tests are child processes running this test
// binary as a node.Node: one remote per process. protoactor's remote.Start
// writes gRPC's process-wide logger without synchronisation
// (remote/server.go:61), so two remotes in one process race under -race;
// and a child can be killed like a real node.
const childEnv = "TRIPWIRE_TEST_NODE" // a nodeSpec, in JSON

// nodeSpec is how to start a child node.
type nodeSpec struct {
	ns       string // network namespace ("": this process's)
	Listen   string
	Latency  time.Duration // its dependency's
	Shed     bool          // its dependency sheds expired requests
	Remoting remotingSpec
}

// runChild is a child's whole life: serve the dependency as spec says,
// print its address, answer each line "counts" on stdin with "COUNTS
// executed=N shed=N refused=N" (the requests its dependency ran and shed,
// and the messages its guard refused), and stop when stdin closes.
func runChild(spec string) int {
	var s nodeSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "node spec:", err)
		return 2
	}
	var refused atomic.Int64
	opts, err := s.Remoting.options(&refused, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	n, err := node.StartConfig(node.Config{Listen: s.Listen, Latency: s.Latency, Shed: s.Shed, Remote: opts})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("ADDR %s\n", n.Address())
	for in := bufio.NewScanner(os.Stdin); in.Scan(); {
		if in.Text() == "counts" {
			fmt.Printf("COUNTS executed=%d shed=%d refused=%d\n", n.Calls(), n.Shed(), refused.Load())
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

// startChild starts a node on listen whose dependency answers after
// latency, with protoactor's remote as it is. The test's cleanup kills it.
func startChild(t *testing.T, listen string, latency time.Duration) *child {
	t.Helper()
	return startNode(t, nodeSpec{Listen: listen, Latency: latency})
}

// startNode starts the child node s describes. The test's cleanup kills it.
func startNode(t *testing.T, s nodeSpec) *child {
	t.Helper()
	spec, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	cmd := selfIn(s.ns)
	cmd.Env = append(os.Environ(), childEnv+"="+string(spec))
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
		t.Fatalf("child node on %s: %q, %v", s.Listen, line, err)
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

// pid is the child's dependency actor.
func (c *child) pid() *actor.PID { return actor.NewPID(c.addr, node.Name) }

// nodeCounts are what a child node counted.
type nodeCounts struct{ executed, shed, refused int }

// counts returns what the child node has counted.
func (c *child) counts(t *testing.T) nodeCounts {
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
	var n nodeCounts
	select {
	case line := <-got:
		if _, err := fmt.Sscanf(line, "COUNTS executed=%d shed=%d refused=%d", &n.executed, &n.shed, &n.refused); err != nil {
			t.Fatalf("counts: %q: %v", line, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the child node did not say its counts within 10 s")
	}
	return n
}

// alive reports whether the child is still running.
func (c *child) alive() bool {
	return c.cmd.ProcessState == nil && c.cmd.Process.Signal(syscallZero) == nil
}

// kill ends the child at once, as a crashed machine would.
func (c *child) kill() {
	if c.cmd.ProcessState != nil {
		return
	}
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
}
