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
	"syscall"
	"testing"
	"time"
)

// etcdPeer is a member of an etcd test cluster in a child process.
type etcdPeer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	addr   string // host:port of its remote
	dir    string // its stderr and race reports
	mu     sync.Mutex
	lines  chan string
	exited chan struct{}
}

// startEtcdPeer starts a member of cluster name whose provider finds the
// others in etcd at endpoint, and waits until it has joined.
func startEtcdPeer(name, endpoint string, timeout time.Duration) (*etcdPeer, error) {
	files, err := etcdMemberTLS()
	if err != nil {
		return nil, err
	}
	spec, err := json.Marshal(etcdMemberSpec{Cluster: name, Endpoints: []string{endpoint}, Timeout: timeout, TLS: &files})
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "tripwire-etcd-member-")
	if err != nil {
		return nil, err
	}
	p := &etcdPeer{dir: dir, lines: make(chan string, 16), exited: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), etcdMemberEnv+"="+string(spec),
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
	go func() {
		for in := bufio.NewScanner(stdout); in.Scan(); {
			p.lines <- in.Text()
		}
		close(p.lines)
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	line, err := p.next(15 * time.Second)
	addr, ok := strings.CutPrefix(line, "MEMBER ")
	if err != nil || !ok {
		p.kill()
		defer os.RemoveAll(dir)
		return nil, fmt.Errorf("etcd member said %q (%v); its stderr: %s", line, err, p.stderr())
	}
	p.addr = addr
	return p, nil
}

// join starts a member for the test; its cleanup makes it leave if it
// has not, and fails the test on a data race in Tripwire's code.
func (e *etcdCluster) join(t *testing.T) *etcdPeer {
	t.Helper()
	p, err := startEtcdPeer(e.name, e.etcd.endpoint, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := p.close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// do sends a command and returns the member's answer, failing the test
// unless it is "ok ...".
func (p *etcdPeer) do(t *testing.T, cmd string) string {
	t.Helper()
	answer, err := p.ask(cmd)
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(answer, "ok")
	if !ok {
		t.Fatalf("member %s: %q: %q", p.addr, cmd, answer)
	}
	return strings.TrimSpace(rest)
}

// ask sends a command and returns the member's answer line.
func (p *etcdPeer) ask(cmd string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := io.WriteString(p.stdin, cmd+"\n"); err != nil {
		return "", err
	}
	return p.next(15 * time.Second)
}

func (p *etcdPeer) next(within time.Duration) (string, error) {
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

// leave makes the member leave gracefully and returns its LEFT line.
func (p *etcdPeer) leave(within time.Duration) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, _ = io.WriteString(p.stdin, "leave\n")
	for {
		line, err := p.next(within)
		if err != nil {
			return "", fmt.Errorf("member %s leaving: %v; its stderr: %s", p.addr, err, p.stderr())
		}
		if strings.HasPrefix(line, "LEFT ") {
			return line, nil
		}
	}
}

// kill ends the member's process at once (kill -9).
func (p *etcdPeer) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// close makes the member leave if it still runs, waits for it to exit,
// and returns the race detector's verdict (raceReports).
func (p *etcdPeer) close() (note string, err error) {
	select {
	case <-p.exited:
	default:
		if _, err := p.leave(15 * time.Second); err != nil {
			p.kill()
		}
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			p.kill()
		}
	}
	defer os.RemoveAll(p.dir)
	return raceReports(filepath.Join(p.dir, "race"))
}

func (p *etcdPeer) stderr() string {
	b, _ := os.ReadFile(filepath.Join(p.dir, "stderr"))
	return string(b)
}
