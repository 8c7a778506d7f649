package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// raceReports reads the race detector's reports of a child (GORACE
// log_path=prefix writes prefix.<pid>). A report that concerns Tripwire's
// or this test's code is an error; protoactor's own races are only counted.
func raceReports(prefix string) (note string, err error) {
	files, _ := filepath.Glob(prefix + ".*")
	races := 0
	for _, f := range files {
		b, rerr := os.ReadFile(f)
		if rerr != nil {
			return "", rerr
		}
		if inTripwire(string(b)) {
			return "", fmt.Errorf("a child member reported a data race in Tripwire's or this test's code:\n%s", b)
		}
		races += strings.Count(string(b), "WARNING: DATA RACE")
	}
	if races == 0 {
		return "", nil
	}
	return fmt.Sprintf("a child member reported %d data races inside protoactor, none in Tripwire's code", races), nil
}

// inTripwire reports whether a race report concerns Tripwire's code (this
// test's included): whether either racing access was made by it — the
// first frame of the access's stack outside the Go runtime and standard
// library is the module's. A race inside protoactor is protoactor's, even
// when Tripwire's code called in (a member's registry, etcdprovider
// forwarding to protoactor's provider) or started the goroutine.
func inTripwire(report string) bool {
	const module = "github.com/tripwire-go/tripwire"
	lines := strings.Split(report, "\n")
	for i, line := range lines {
		access := strings.TrimPrefix(strings.TrimSpace(line), "Previous ")
		if !strings.HasPrefix(access, "Read at") && !strings.HasPrefix(access, "Write at") {
			continue
		}
		for _, frame := range lines[i+1:] {
			frame = strings.TrimSpace(frame)
			if frame == "" {
				break // the end of the access's stack
			}
			if strings.HasPrefix(frame, "/") || isStd(frame) {
				continue // a file line, or the runtime or standard library
			}
			if strings.HasPrefix(frame, module) {
				return true
			}
			break
		}
	}
	return false
}

// isStd reports whether a stack frame is in the Go runtime or standard
// library: its package path's first element has no dot.
func isStd(frame string) bool {
	slash := strings.LastIndex(frame, "/")
	pkg := frame[:slash+1] + strings.SplitN(frame[slash+1:], ".", 2)[0]
	return !strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".")
}
