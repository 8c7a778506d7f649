package cluster

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
)

// peer is a member in a child process, seen from the test's process.
type peer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	status test.AgentServiceStatus
	dir    string      // its stderr and race reports
	onGone func(*peer) // tells the other members it has gone
	sendMu sync.Mutex  // one command at a time

	lines  chan string   // its stdout, line by line
	exited chan struct{} // closed once it has exited
	gone   chan struct{} // closed once the other members have dropped it
	once   sync.Once
}

// startPeer starts a member of cluster name in a child process that knows
// members from the start. onGone is called once it has gone. close ends it.
func startPeer(name string, members []test.AgentServiceStatus, onGone func(*peer)) (*peer, error) {
	spec, err := json.Marshal(memberSpec{Cluster: name, Members: members})
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "tripwire-cluster-member-")
	if err != nil {
		return nil, err
	}
	p := &peer{onGone: onGone, dir: dir, lines: make(chan string, 16),
		exited: make(chan struct{}), gone: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), memberEnv+"="+string(spec),
		"GORACE=exitcode=0 log_path="+filepath.Join(dir, "race"))
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		return nil, err
	}
	defer stderr.Close()
	p.cmd.Stderr = stderr
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go p.read(stdout)
	line, err := p.next(10 * time.Second)
	status, ok := strings.CutPrefix(line, "MEMBER ")
	if err == nil && ok {
		err = json.Unmarshal([]byte(status), &p.status)
	}
	if err != nil || !ok {
		p.onGone = func(*peer) {}
		p.crash()
		defer os.RemoveAll(dir)
		return nil, fmt.Errorf("child member said %q (%v); its stderr: %s", line, err, p.stderr())
	}
	return p, nil
}

// send gives the member a command and waits for its "ok".
func (p *peer) send(cmd string) error {
	p.sendMu.Lock()
	defer p.sendMu.Unlock()
	if _, err := io.WriteString(p.stdin, cmd+"\n"); err != nil {
		return err
	}
	if line, err := p.next(10 * time.Second); err != nil || line != "ok" {
		return fmt.Errorf("member %s: %q: %q, %v", p.addr(), cmd, line, err)
	}
	return nil
}

// read forwards the child's stdout, then waits for it to exit.
func (p *peer) read(stdout io.Reader) {
	in := bufio.NewScanner(stdout)
	for in.Scan() {
		p.lines <- in.Text()
	}
	close(p.lines)
	_ = p.cmd.Wait()
	close(p.exited)
}

// next is the child's next line of output.
func (p *peer) next(within time.Duration) (string, error) {
	select {
	case line, ok := <-p.lines:
		if !ok {
			return "", io.EOF
		}
		return line, nil
	case <-time.After(within):
		return "", fmt.Errorf("no output within %v", within)
	}
}

// addr is host:port of the member's remote.
func (p *peer) addr() string { return fmt.Sprintf("%s:%d", p.status.Host, p.status.Port) }

// leave makes the member leave the cluster gracefully (cluster
// Shutdown(true): it leaves its provider, stops its grains, waits
// protoactor's fixed 2 s, closes its remote) and exit. Then the other
// members' providers drop it, as a real provider drops a member that
// deregistered.
func (p *peer) leave() {
	p.once.Do(func() {
		p.sendMu.Lock()
		_, _ = io.WriteString(p.stdin, "leave\n")
		p.sendMu.Unlock()
		p.drop(15 * time.Second)
	})
}

// crash kills the member's process: its grains and connections vanish
// without a word. Then the other members' providers drop it, as a real
// provider drops a member that stopped answering its health checks.
func (p *peer) crash() {
	p.once.Do(func() {
		_ = p.cmd.Process.Kill()
		p.drop(15 * time.Second)
	})
}

// drop waits for the child to exit (killing it after d) and tells the
// other members it has gone.
func (p *peer) drop(d time.Duration) {
	select {
	case <-p.exited:
	case <-time.After(d):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	p.onGone(p)
	close(p.gone)
}

// close makes the member leave if it has not, and returns what its race
// detector reported: an error for a race in Tripwire's or this test's
// code, else a note of protoactor's own races (empty if none).
func (p *peer) close() (note string, err error) {
	p.leave()
	defer os.RemoveAll(p.dir)
	return raceReports(filepath.Join(p.dir, "race"))
}

// stderr is what the child wrote to its stderr.
func (p *peer) stderr() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, "stderr"))
	return string(b)
}
