package size

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestFunctionTargetProgramLinksNoGRPC lists what the functarget program
// links: nothing of gRPC, and nothing of protoactor's remote or cluster.
func TestFunctionTargetProgramLinksNoGRPC(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./functarget").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 || !slices.Contains(deps, "github.com/tripwire-go/tripwire") {
		t.Fatalf("go list -deps gave %d packages, not the program's: %q", len(deps), out)
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "google.golang.org/grpc") ||
			strings.HasPrefix(d, "github.com/asynkron/protoactor-go/remote") ||
			strings.HasPrefix(d, "github.com/asynkron/protoactor-go/cluster") {
			t.Errorf("a function-target program links %s", d)
		}
	}
}
