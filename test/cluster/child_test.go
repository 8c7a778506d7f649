package cluster

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
)

// The members other than the registry's run in child processes (this test
// binary, started with memberEnv set), each standing for another machine.
// In one process two members race inside protoactor under -race: remote.Start
// writes gRPC's global logger without a lock (remote/server.go:61), and a
// member that leaves writes its block list, its endpoint reader's suspended
// flag and its endpoint manager's connections while its gRPC goroutines
// read them (remote/blocklist.go, endpoint_reader.go, endpoint_manager.go).
// In a child they are that process's own: its race reports go to a file,
// are counted in the test log, and one in Tripwire's code fails the test.
const memberEnv = "TRIPWIRE_TEST_CLUSTER_MEMBER"

// memberSpec tells a child which cluster to join and who is already in it.
type memberSpec struct {
	Cluster string
	Members []test.AgentServiceStatus
}

// runMember is a child's whole life: join the cluster, print how the
// provider lists it, then follow the commands on stdin, each a line: "join
// <status>" and "drop <id>" (another member joined or left; answered "ok")
// and "leave" (leave gracefully and exit; so does the end of stdin).
func runMember(spec string) int {
	var s memberSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, "member spec:", err)
		return 2
	}
	agent := test.NewInMemAgent()
	for _, m := range s.Members { // before ours joins, so it sees them at once
		agent.RegisterService(m)
	}
	quiet := actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) })
	m := newMember(s.Cluster, agent, actor.NewActorSystem(append(slices.Clone(systemOptions), quiet)...))
	m.start()
	status, _ := json.Marshal(m.status())
	fmt.Printf("MEMBER %s\n", status)
	for in := bufio.NewScanner(os.Stdin); in.Scan() && in.Text() != "leave"; {
		cmd, arg, _ := strings.Cut(in.Text(), " ")
		switch cmd {
		case "join":
			var other test.AgentServiceStatus
			if err := json.Unmarshal([]byte(arg), &other); err != nil {
				fmt.Fprintln(os.Stderr, "join:", err)
				return 2
			}
			agent.RegisterService(other)
		case "drop":
			agent.DeregisterService(arg)
		default:
			fmt.Fprintf(os.Stderr, "unknown command %q\n", in.Text())
			return 2
		}
		fmt.Println("ok")
	}
	m.c.Shutdown(true)
	fmt.Println("LEFT")
	return 0
}
