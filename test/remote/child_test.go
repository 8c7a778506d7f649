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

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/demo"
)

// The other nodes of these tests are child processes running this test
// binary as a demo.Node: one remote per process. protoactor's remote.Start
// writes gRPC's process-wide logger without synchronisation
// (remote/server.go:61), so two remotes in one process race under -race;
// and a child can be killed like a real node.
const (
	childEnv        = "TRIPWIRE_TEST_NODE"         // the address a child listens on
	childLatencyEnv = "TRIPWIRE_TEST_NODE_LATENCY" // its dependency's latency
)

// runChild is a child's whole life: serve the dependency on listen, print
// its address, and stop when stdin closes.
func runChild(listen string) int {
	latency, _ := time.ParseDuration(os.Getenv(childLatencyEnv))
	n, err := demo.StartNode(listen, latency, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("ADDR %s\n", n.Address())
	_, _ = io.Copy(io.Discard, os.Stdin)
	n.Stop()
	return 0
}

// child is a node in another process.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	addr  string
}

// startChild starts a node on listen whose dependency answers after
// latency. The test's cleanup kills it.
func startChild(t *testing.T, listen string, latency time.Duration) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+listen, childLatencyEnv+"="+latency.String())
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
	c := &child{cmd: cmd, stdin: stdin}
	t.Cleanup(c.kill)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "ADDR ")
	if err != nil || !ok {
		t.Fatalf("child node on %s: %q, %v", listen, line, err)
	}
	c.addr = addr
	return c
}

// pid is the child's dependency actor.
func (c *child) pid() *actor.PID { return actor.NewPID(c.addr, demo.DependencyName) }

// kill ends the child at once, as a crashed machine would.
func (c *child) kill() {
	if c.cmd.ProcessState != nil {
		return
	}
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
}
