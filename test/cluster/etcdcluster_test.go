package cluster

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/internal/testkit"
)

// etcdCluster is the etcd tests' cluster: etcd, member r (the registry's)
// and member b, each in a child process, shared by the tests of a run;
// tests that make a member leave or crash add their own (join).
type etcdCluster struct {
	name  string
	etcd  *etcdServer
	r, b  *etcdPeer
	mu    sync.Mutex
	names map[string]int
}

var sharedEtcd struct {
	once sync.Once
	ec   *etcdCluster
	err  error
}

// etcdClusterFor returns the etcd tests' cluster, starting it on first
// use, or skips the test if etcd is not installed. TestMain stops it.
func etcdClusterFor(t *testing.T) *etcdCluster {
	t.Helper()
	needEtcd(t)
	sharedEtcd.once.Do(func() { sharedEtcd.ec, sharedEtcd.err = startEtcdCluster() })
	if sharedEtcd.err != nil {
		t.Fatalf("start the etcd cluster: %v", sharedEtcd.err)
	}
	return sharedEtcd.ec
}

// startEtcdCluster starts etcd and the members r and b, and waits until r
// sees both. On a loaded machine (make test runs every package at once) a
// member's first lease can lapse before its first keepalive, and
// protoactor's member then stays out for good (see
// TestEtcdPausedMemberIsEvictedForGood): every test would fail on a cluster
// one member short. It starts the cluster once more if so.
func startEtcdCluster() (*etcdCluster, error) {
	for attempt := 1; ; attempt++ {
		ec, err := startEtcdClusterOnce()
		if err != nil {
			return nil, err
		}
		seen, err := ec.bothIn(20 * time.Second)
		if err == nil {
			return ec, nil
		}
		_, _ = ec.stop()
		if attempt == 2 {
			return nil, fmt.Errorf("%w (r's last answer: %q)", err, seen)
		}
	}
}

// bothIn waits until r sees itself and b, returning its last answer.
func (ec *etcdCluster) bothIn(within time.Duration) (string, error) {
	var last string
	var err error
	if testkit.Poll(within, func() bool {
		last, err = ec.r.ask("members")
		return err == nil && strings.HasPrefix(last, "ok 2 ")
	}) {
		return last, nil
	}
	if err == nil {
		err = fmt.Errorf("r did not see both members within %v", within)
	}
	return last, err
}

func startEtcdClusterOnce() (*etcdCluster, error) {
	e, err := startEtcd()
	if err != nil {
		return nil, err
	}
	ec := &etcdCluster{name: fmt.Sprintf("tripwire-etcd-test-%d", os.Getpid()), etcd: e}
	var errR, errB error
	var wg sync.WaitGroup
	wg.Go(func() { ec.r, errR = startEtcdPeer(ec.name, e.endpoint, time.Second) })
	wg.Go(func() { ec.b, errB = startEtcdPeer(ec.name, e.endpoint, time.Second) })
	wg.Wait()
	if errR != nil || errB != nil {
		_, _ = ec.stop()
		return nil, fmt.Errorf("members: %v, %v", errR, errB)
	}
	return ec, nil
}

// stopSharedEtcd stops the etcd tests' cluster if a test started it:
// members first (each leave takes protoactor's fixed 2 s), then etcd.
func stopSharedEtcd() (note string, err error) {
	if sharedEtcd.ec == nil {
		return "", nil
	}
	return sharedEtcd.ec.stop()
}

func (ec *etcdCluster) stop() (note string, err error) {
	var wg sync.WaitGroup
	notes, errs := make([]string, 2), make([]error, 2)
	for i, p := range []*etcdPeer{ec.r, ec.b} {
		if p != nil {
			wg.Go(func() { notes[i], errs[i] = p.close() })
		}
	}
	wg.Wait()
	ec.etcd.stop()
	for i := range errs {
		if errs[i] != nil {
			return "", errs[i]
		}
		if notes[i] != "" {
			note = notes[i]
		}
	}
	return note, nil
}

// members waits until r sees n members.
func (ec *etcdCluster) members(t *testing.T, n int, within time.Duration) {
	t.Helper()
	want := fmt.Sprint(n)
	var last string
	if !testkit.Poll(within, func() bool {
		last = ec.r.do(t, "members")
		count, _, _ := strings.Cut(last, " ")
		return count == want
	}) {
		t.Fatalf("not within %v: r sees %d members (its last answer: %q)", within, n, last)
	}
}

// identityOn is a fresh identity whose grain lives on the member at addr
// (asking r, which activates it there).
func (ec *etcdCluster) identityOn(t *testing.T, name, addr string) string {
	t.Helper()
	ec.mu.Lock()
	if ec.names == nil {
		ec.names = map[string]int{}
	}
	ec.mu.Unlock()
	for range 64 {
		ec.mu.Lock()
		ec.names[name]++
		id := fmt.Sprintf("%s-%d", name, ec.names[name])
		ec.mu.Unlock()
		if ec.r.do(t, "host "+id) == addr {
			return id
		}
	}
	t.Fatalf("none of 64 identities from %q lives on %s", name, addr)
	return ""
}
