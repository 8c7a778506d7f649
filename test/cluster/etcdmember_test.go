package cluster

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/etcdprovider"
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
	p, err := etcdprovider.New(etcdprovider.Config{Endpoints: s.Endpoints, Timeout: s.Timeout})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	left := &leaving{Provider: p}
	quiet := actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) })
	sys := tripwire.NewActorSystem(nil, append(slices.Clone(systemOptions), quiet)...)
	cfg := cluster.Configure(s.Cluster, left, disthash.New(), remote.Configure("127.0.0.1", 0), cluster.WithKinds(echoKindOf()))
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
		}
	})
	c.StartMember()
	fmt.Printf("MEMBER %s\n", sys.Address())
	for in := bufio.NewScanner(os.Stdin); in.Scan() && in.Text() != "leave"; {
		fmt.Println(d.do(strings.Fields(in.Text())))
	}
	if d.reg != nil {
		_ = d.reg.Shutdown(context.Background())
	}
	start := time.Now()
	c.Shutdown(true)
	fmt.Printf("LEFT %v deregister=%v timeout=%v %v\n", time.Since(start).Round(time.Millisecond),
		errors.Is(left.err, etcdprovider.ErrDeregister), errors.Is(left.err, etcdprovider.ErrTimeout), left.err)
	return 0
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

// driver runs a member's commands; the first "register" starts a registry
// on it.
type driver struct {
	c       *cluster.Cluster
	reg     *tripwire.Registry
	loads   map[string]*load
	members atomic.Value // "<n> <addresses>" of the last topology
}

func (d *driver) do(cmd []string) string {
	arg := func(i int) string {
		if i < len(cmd) {
			return cmd[i]
		}
		return ""
	}
	switch arg(0) {
	case "members": // "<how many> <their addresses>" this one sees, itself included
		m, _ := d.members.Load().(string)
		return "ok " + m
	case "host": // host ID: where the grain of ID lives (activating it)
		if pid := d.c.Get(arg(1), echoKind); pid != nil {
			return "ok " + pid.Address
		}
		return "err nowhere"
	case "register": // register KEY ID THRESHOLD OPEN-TIMEOUT CALL-TIMEOUT
		return d.register(arg(1), arg(2), arg(3), arg(4), arg(5))
	case "call": // call KEY TEXT: "ok <reply>" or "err <error>"
		v, err := d.reg.Call(context.Background(), arg(1), wrapperspb.String(arg(2)))
		if err != nil {
			return "err " + err.Error()
		}
		return "ok " + v.(*wrapperspb.StringValue).GetValue()
	case "load": // load KEY: callers keep calling KEY until "stats KEY ..."
		d.loads[arg(1)] = startLoad(d.reg, arg(1))
		return "ok"
	case "stats": // stats KEY FAULT-UNIX-NS OLD-HOST: what the load saw since the fault
		l, ok := d.loads[arg(1)]
		if !ok {
			return "err no load"
		}
		fault, _ := strconv.ParseInt(arg(2), 10, 64)
		return "ok " + l.stats(time.Unix(0, fault), arg(3))
	case "unload": // unload KEY: stop the load
		if l, ok := d.loads[arg(1)]; ok {
			l.stop()
			delete(d.loads, arg(1))
		}
		return "ok"
	}
	return fmt.Sprintf("err unknown command %q", cmd)
}

func (d *driver) register(key, id, threshold, open, call string) string {
	if d.reg == nil {
		reg, err := tripwire.Start(d.c.ActorSystem)
		if err != nil {
			return "err " + err.Error()
		}
		d.reg = reg
	}
	var s tripwire.Settings
	var err error
	s.Threshold, err = strconv.Atoi(threshold)
	if err == nil {
		s.OpenTimeout, err = time.ParseDuration(open)
	}
	if err == nil {
		s.CallTimeout, err = time.ParseDuration(call)
	}
	if err == nil {
		err = d.reg.Register(key, tripwire.ClusterTarget(echoKind, id), s)
	}
	if err != nil {
		return "err " + err.Error()
	}
	return "ok"
}
