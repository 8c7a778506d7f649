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

// inTripwire reports whether a race report concerns Tripwire's code: a
// Tripwire frame anywhere outside this test package (a child runs none), or
// a racing access made by this package's own code (its top frame).
func inTripwire(report string) bool {
	const module = "github.com/tripwire-go/tripwire"
	lines := strings.Split(report, "\n")
	for i, line := range lines {
		frame := strings.TrimSpace(line)
		if strings.HasPrefix(frame, module) && !strings.HasPrefix(frame, module+"/test/cluster") {
			return true
		}
		access := strings.TrimPrefix(frame, "Previous ")
		if (strings.HasPrefix(access, "Read at") || strings.HasPrefix(access, "Write at")) && i+1 < len(lines) &&
			strings.HasPrefix(strings.TrimSpace(lines[i+1]), module) {
			return true
		}
	}
	return false
}
