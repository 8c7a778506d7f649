package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/tripwire-go/tripwire/internal/system"
)

// testCluster is the package's cluster: member a, in this process, which
// the registries run on, and member b, in a child process, for the whole
// run; tests that make a member leave add their own (join).
type testCluster struct {
	name  string
	agent *test.InMemAgent // a's provider agent
	a     *member
	b     *peer
	holds *holds // hears the echo grains that hold a call

	mu    sync.Mutex
	peers []*peer        // the members in child processes that have not gone
	names map[string]int // how many identities fresh gave for each name
}

// shared is the package's one cluster: starting and stopping members takes
// seconds (StartMember sleeps 1 s, a graceful Shutdown 2 s, both fixed in
// protoactor's cluster.go), and one remote per process keeps -race quiet
// (child_test.go).
var shared struct {
	once sync.Once
	tc   *testCluster
	err  error
}

// clusterFor returns the package's cluster, starting it on first use.
// TestMain stops it after the last test.
func clusterFor(t *testing.T) *testCluster {
	t.Helper()
	shared.once.Do(func() { shared.tc, shared.err = startCluster() })
	if shared.err != nil {
		t.Fatalf("start the cluster: %v", shared.err)
	}
	return shared.tc
}

// stopShared stops the package's cluster if a test started it.
func stopShared() (note string, err error) {
	if shared.tc == nil {
		return "", nil
	}
	return shared.tc.stop()
}

// startCluster starts a, then b, and waits until a sees both.
func startCluster() (*testCluster, error) {
	name := fmt.Sprintf("tripwire-test-%d", os.Getpid())
	agent := test.NewInMemAgent()
	tc := &testCluster{name: name, agent: agent,
		a: newMember(name, agent, system.New(nil, systemOptions...))}
	tc.a.start()
	b, err := tc.add()
	if err != nil {
		tc.a.c.Shutdown(true)
		return nil, err
	}
	tc.b = b
	tc.holds = newHolds(tc.a.system())
	return tc, nil
}

// add starts a member in a child process and lists it with every member.
func (tc *testCluster) add() (*peer, error) {
	tc.mu.Lock()
	members := []test.AgentServiceStatus{tc.a.status()}
	others := slices.Clone(tc.peers)
	for _, q := range others {
		members = append(members, q.status)
	}
	tc.mu.Unlock()
	p, err := startPeer(tc.name, members, tc.gone)
	if err != nil {
		return nil, err
	}
	status, _ := json.Marshal(p.status)
	for _, q := range others {
		if err := q.send("join " + string(status)); err != nil {
			_, _ = p.close()
			return nil, err
		}
	}
	tc.agent.RegisterService(p.status)
	tc.mu.Lock()
	tc.peers = append(tc.peers, p)
	tc.mu.Unlock()
	if err := tc.waitMembers(len(members) + 1); err != nil {
		_, _ = p.close()
		return nil, err
	}
	return p, nil
}

// gone drops p, which has exited, from every member's provider.
func (tc *testCluster) gone(p *peer) {
	tc.mu.Lock()
	tc.peers = slices.DeleteFunc(tc.peers, func(q *peer) bool { return q == p })
	others := slices.Clone(tc.peers)
	tc.mu.Unlock()
	tc.agent.DeregisterService(p.status.ID)
	for _, q := range others {
		if err := q.send("drop " + p.status.ID); err != nil {
			fmt.Fprintln(os.Stderr, "cluster test:", err)
		}
	}
}

// stop makes b leave, then a; each graceful leave takes 2 s.
func (tc *testCluster) stop() (note string, err error) {
	if tc.holds != nil {
		tc.holds.stop()
	}
	note, err = tc.b.close()
	tc.a.c.Shutdown(true)
	return note, err
}

// waitMembers waits until a sees n members.
func (tc *testCluster) waitMembers(n int) error {
	deadline := time.Now().Add(10 * time.Second)
	for tc.a.c.MemberList.Length() != n {
		if time.Now().After(deadline) {
			return errors.New("a does not see " + fmt.Sprint(n) + " members within 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// join starts another member in a child process and waits until a sees it.
// The test's cleanup makes it leave, if it has not.
func (tc *testCluster) join(t *testing.T) *peer {
	t.Helper()
	p, err := tc.add()
	if err != nil {
		t.Fatalf("start a member: %v", err)
	}
	t.Cleanup(func() {
		note, err := p.close()
		if err != nil {
			t.Error(err)
		} else if note != "" {
			t.Log(note)
		}
	})
	return p
}

// fresh returns an identity no test of this process has used: name the
// first time, then name-2, name-3... (with -count=n the cluster outlives
// a run, and so do its grains).
func (tc *testCluster) fresh(name string) string {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.names == nil {
		tc.names = map[string]int{}
	}
	tc.names[name]++
	if n := tc.names[name]; n > 1 {
		return fmt.Sprintf("%s-%d", name, n)
	}
	return name
}

// identityOn returns a fresh identity, from name, whose grain lives on the
// member at addr, asking a's cluster (which activates the grain there).
func (tc *testCluster) identityOn(t *testing.T, name, addr string) string {
	t.Helper()
	for range 64 {
		if id := tc.fresh(name); tc.hostOf(t, id) == addr {
			return id
		}
	}
	t.Fatalf("none of 64 identities from %q lives on %s", name, addr)
	return ""
}

// hostOf is the address of the member where the grain of id lives now.
func (tc *testCluster) hostOf(t *testing.T, id string) string {
	t.Helper()
	pid := tc.a.c.Get(id, echoKind)
	if pid == nil {
		t.Fatalf("no member hosts %s/%s", echoKind, id)
	}
	return pid.Address
}
