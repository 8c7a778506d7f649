// Package grafana checks the Grafana dashboard of docs/grafana against what
// Tripwire exports: every metric, label and label value its queries use
// must appear in a real scrape of a registry's Prometheus exporter, so a
// renamed series or a misspelt label fails the build, not an operator's
// panel.
package grafana

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
