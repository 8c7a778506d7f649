package cluster

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// requireEtcdEnv makes a missing etcd fail the etcd tests instead of
// skipping them (make test sets it, so CI cannot skip them).
const requireEtcdEnv = "TRIPWIRE_REQUIRE_ETCD"

// etcdServer is a one-member etcd (Debian's etcd-server) on 127.0.0.1 with
// ports the OS had free and a data directory of its own.
type etcdServer struct {
	cmd      *exec.Cmd
	dir      string
	endpoint string // host:port of its client URL
	exited   chan struct{}
}

// needEtcd skips the test, saying why, if etcd is not installed.
func needEtcd(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("etcd"); err != nil {
		if os.Getenv(requireEtcdEnv) == "1" {
			t.Fatalf("%s=1 but no etcd on PATH (make etcd installs Debian's etcd-server)", requireEtcdEnv)
		}
		t.Skip("needs etcd on PATH: Debian's etcd-server (make etcd installs it)")
	}
}

// startEtcd starts etcd and waits until it is healthy.
func startEtcd() (*etcdServer, error) {
	client, peer := freePort(), freePort()
	if client == "" || peer == "" {
		return nil, fmt.Errorf("no free port on 127.0.0.1")
	}
	dir, err := os.MkdirTemp("", "tripwire-etcd-")
	if err != nil {
		return nil, err
	}
	clientURL, peerURL := "http://"+client, "http://"+peer
	e := &etcdServer{dir: dir, endpoint: client, exited: make(chan struct{})}
	e.cmd = exec.Command("etcd", "--name", "t", "--data-dir", filepath.Join(dir, "data"),
		"--listen-client-urls", clientURL, "--advertise-client-urls", clientURL,
		"--listen-peer-urls", peerURL, "--initial-advertise-peer-urls", peerURL,
		"--initial-cluster", "t="+peerURL, "--log-level", "warn")
	logFile, err := os.Create(filepath.Join(dir, "log"))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	defer logFile.Close()
	e.cmd.Stdout, e.cmd.Stderr = logFile, logFile
	if err := e.cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	go func() { _ = e.cmd.Wait(); close(e.exited) }()
	if err := e.waitHealthy(10 * time.Second); err != nil {
		log := e.log()
		e.stop()
		return nil, fmt.Errorf("%w; its log:\n%s", err, log)
	}
	return e, nil
}

// freePort is a host:port on 127.0.0.1 that was free a moment ago.
func freePort() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return ""
	}
	defer l.Close()
	return l.Addr().String()
}

// waitHealthy polls etcd's /health until it says so.
func (e *etcdServer) waitHealthy(within time.Duration) error {
	deadline := time.Now().Add(within)
	c := http.Client{Timeout: time.Second}
	for {
		select {
		case <-e.exited:
			return fmt.Errorf("etcd exited")
		default:
		}
		if r, err := c.Get("http://" + e.endpoint + "/health"); err == nil {
			b, _ := io.ReadAll(r.Body)
			_ = r.Body.Close()
			if strings.Contains(string(b), `"health":"true"`) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("etcd not healthy within %v", within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill ends etcd at once, as a crashed machine would.
func (e *etcdServer) kill() {
	_ = e.cmd.Process.Kill()
	<-e.exited
}

// stop ends etcd and deletes its data.
func (e *etcdServer) stop() {
	_ = e.cmd.Process.Signal(os.Interrupt)
	select {
	case <-e.exited:
	case <-time.After(5 * time.Second):
		e.kill()
	}
	_ = os.RemoveAll(e.dir)
}

// log is what etcd wrote.
func (e *etcdServer) log() string {
	b, _ := os.ReadFile(filepath.Join(e.dir, "log"))
	return string(b)
}
