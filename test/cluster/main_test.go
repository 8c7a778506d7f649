// Package cluster holds the scenarios of cluster targets: a registry on one
// member of a two-member protoactor cluster (in-memory test provider,
// disthash identity lookup, remote on loopback) calls an echo grain by kind
// and identity through tripwire.ClusterTarget, while the grain lives on
// either member, stops, or moves when its member leaves. The other member
// is a child process (child_test.go says why). They run in real time: the
// cluster talks gRPC, which synctest cannot fake.
package cluster

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(memberEnv); spec != "" {
		os.Exit(runMember(spec))
	}
	if spec := os.Getenv(etcdMemberEnv); spec != "" {
		os.Exit(runEtcdMember(spec))
	}
	goleak.VerifyTestMain(withCluster{m}, ignores...)
}

// ignores are the goroutines protoactor leaves behind after a proper
// shutdown, which nothing can end sooner.
var ignores = []goleak.Option{
	// The test provider's TTL reporter ranges over a ticker's channel;
	// Provider.Shutdown stops the ticker, which never closes the channel,
	// so the goroutine outlives every member (test_provider.go:124-130).
	goleak.IgnoreTopFunction("github.com/asynkron/protoactor-go/cluster/clusterproviders/test.(*Provider).startTtlReport.func1"),
	// Cluster.Shutdown sets a gossip key, which starts the gossiper's
	// log throttle: a goroutine that waits out its fixed 60 s period on
	// a ticker and then ends; nothing can stop it sooner
	// (cluster/gossiper.go:290, actor/throttler.go:26-39).
	goleak.IgnoreTopFunction("github.com/asynkron/protoactor-go/cluster.(*Gossiper).StartGossiping.NewThrottle.func3.1"),
}

// withCluster runs the tests, then stops the cluster they shared, before
// goleak looks for what is left.
type withCluster struct{ m *testing.M }

func (w withCluster) Run() int {
	code := w.m.Run()
	defer removeMemberCerts()
	for _, stop := range []func() (string, error){stopShared, stopSharedEtcd} {
		note, err := stop()
		if note != "" {
			fmt.Println(note)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "FAIL:", err)
			code = 1
		}
	}
	return code
}
