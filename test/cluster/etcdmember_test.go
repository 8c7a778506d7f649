package cluster

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"

	"github.com/tripwire-go/tripwire/etcdprovider"
	"github.com/tripwire-go/tripwire/internal/system"
)

// The members of the etcd tests all run in child processes, the registry's
// too: protoactor's etcd provider writes its shutdown flag while its
// keepalive and watch goroutines read it, without synchronisation
// (clusterproviders/etcd/etcd_provider.go:117, 177, 303), a data race under
// -race in whichever process runs a member; in a child its reports go to a
// file and only one in Tripwire's code fails the test (racereport_test.go).
const etcdMemberEnv = "TRIPWIRE_TEST_ETCD_MEMBER" // an etcdMemberSpec, in JSON

type etcdMemberSpec struct {
	Cluster   string
	Endpoints []string
	Timeout   time.Duration // etcdprovider.Config.Timeout
	TLS       *tlsFiles     // its remote's mutual TLS (remoting.Options)
}

// runEtcdMember is a child's whole life: join the cluster through etcd,
// print "MEMBER <address>", then answer the commands on stdin, a line
// each, with a line "ok ..." or "err ...", until "leave" (or the end of
// stdin): it leaves gracefully, prints "LEFT <how long> <what Shutdown
// returned>" and exits.
func runEtcdMember(spec string) int {
	var s etcdMemberSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "etcd member spec:", err)
		return 2
	}
	remoteOpts, err := remoteOptions(s.TLS)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, err := etcdprovider.New(etcdprovider.Config{Endpoints: s.Endpoints, Timeout: s.Timeout})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	left := &leaving{Provider: p}
	quiet := actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) })
	sys := system.New(nil, append(slices.Clone(systemOptions), quiet)...)
	cfg := cluster.Configure(s.Cluster, left, disthash.New(), remote.Configure("127.0.0.1", 0, remoteOpts...), cluster.WithKinds(echoKindOf()))
	cfg.GossipInterval = time.Hour // membership comes from etcd; see newMember
	c := cluster.New(sys, cfg)
	d := &driver{c: c, loads: map[string]*load{}}
	// MemberList.Length reads the member set without its lock
	// (cluster/member_list.go:120-122): count the topologies instead.
	sys.EventStream.Subscribe(func(ev any) {
		if t, ok := ev.(*cluster.ClusterTopology); ok {
			addrs := make([]string, 0, len(t.Members))
			for _, m := range t.Members {
				addrs = append(addrs, m.Address())
			}
			slices.Sort(addrs)
			d.members.Store(fmt.Sprintf("%d %s", len(addrs), strings.Join(addrs, ",")))
			for _, m := range t.Left {
				d.left.LoadOrStore(m.Address(), time.Now())
			}
		}
	})
	c.StartMember()
	fmt.Printf("MEMBER %s\n", sys.Address())
	for in := bufio.NewScanner(os.Stdin); in.Scan() && in.Text() != "leave"; {
		fmt.Println(d.do(strings.Fields(in.Text())))
	}
	if d.failover != nil {
		d.failover.Stop()
	}
	if d.reg != nil {
		_ = d.reg.Shutdown(context.Background())
	}
	start := time.Now()
	c.Shutdown(true)
	took := time.Since(start).Round(time.Millisecond)
	fmt.Printf("LEFT %v deregister=%v timeout=%v etcd_goroutines=%d %v\n", took,
		errors.Is(left.err, etcdprovider.ErrDeregister), errors.Is(left.err, etcdprovider.ErrTimeout),
		etcdClientGoroutines(2*time.Second), left.err)
	return 0
}

// etcdClientGoroutines is how many goroutines of the etcd client are left
// once within has passed or there are none: the client's own loops (its
// lease's keepalive) end with its context, which Shutdown must end.
func etcdClientGoroutines(within time.Duration) int {
	deadline := time.Now().Add(within)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		n := strings.Count(stacks, "go.etcd.io/etcd/client/v3.(*lessor)")
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// leaving keeps what the provider's Shutdown returned, which
// cluster.Shutdown drops.
type leaving struct {
	*etcdprovider.Provider
	err error
}

func (l *leaving) Shutdown(graceful bool) error {
	l.err = l.Provider.Shutdown(graceful)
	return l.err
}
