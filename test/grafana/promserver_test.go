package grafana

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// requirePrometheusEnv makes a missing prometheus fail the tests that
// scrape with a real one instead of skipping them (make test sets it, so
// CI cannot skip them).
const requirePrometheusEnv = "TRIPWIRE_REQUIRE_PROMETHEUS"

// promServer is a Prometheus server (Debian's prometheus) on 127.0.0.1,
// with a config and a data directory of its own, scraping one target
// every second.
type promServer struct {
	cmd    *exec.Cmd
	log    string // its stderr and stdout
	base   string // http://host:port of its web UI and API
	client *http.Client
	exited chan struct{}
}

// needPrometheus skips the test, saying why, if prometheus is not installed.
func needPrometheus(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("prometheus"); err != nil {
		if os.Getenv(requirePrometheusEnv) == "1" {
			t.Fatalf("%s=1 but no prometheus on PATH (make prometheus installs Debian's)", requirePrometheusEnv)
		}
		t.Skip("needs prometheus on PATH: Debian's prometheus (make prometheus installs it)")
	}
}

// scrapeEvery is the scrape interval of the test's Prometheus.
const scrapeEvery = time.Second

// startPrometheus starts Prometheus scraping target (host:port, path
// /metrics) every second, waits until it is ready, and stops it when t ends.
func startPrometheus(t *testing.T, target string) *promServer {
	t.Helper()
	dir := t.TempDir()
	config := fmt.Sprintf(`global:
  scrape_interval: %[1]s
  scrape_timeout: %[1]s
  evaluation_interval: %[1]s
scrape_configs:
  - job_name: tripwire
    static_configs:
      - targets: ['%[2]s']
`, scrapeEvery, target)
	configFile := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(configFile, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	listen := freePort(t)
	logFile := filepath.Join(dir, "log")
	out, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	p := &promServer{
		log: logFile, base: "http://" + listen, exited: make(chan struct{}),
		client: &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{}},
	}
	p.cmd = exec.Command("prometheus", "--config.file="+configFile,
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+listen,
		"--log.level=warn")
	p.cmd.Stdout, p.cmd.Stderr = out, out // files: exec starts no goroutine to copy them
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(p.stop)
	if err := p.waitReady(30 * time.Second); err != nil {
		t.Fatalf("%v; its log:\n%s", err, p.logText())
	}
	return p
}

// freePort is a host:port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// waitReady polls /-/ready until Prometheus says it serves queries.
func (p *promServer) waitReady(within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		select {
		case <-p.exited:
			return fmt.Errorf("prometheus exited")
		default:
		}
		if r, err := p.client.Get(p.base + "/-/ready"); err == nil {
			_ = r.Body.Close()
			if r.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("prometheus not ready within %v", within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends Prometheus (SIGTERM, then SIGKILL after 10 s) and its client's
// connections; t.TempDir removes its data after.
func (p *promServer) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	p.client.CloseIdleConnections()
}

func (p *promServer) logText() string {
	b, _ := os.ReadFile(p.log)
	return string(b)
}

// sample is one point of a query's answer: its labels, time and value (an
// instant vector has one point per series, a range vector several).
type sample struct {
	labels map[string]string
	at     float64 // seconds since the epoch, to the millisecond
	value  float64
}

// query evaluates expr at time at (zero: now) with the HTTP API, and
// returns its points: an instant vector's, or every point of a range
// vector's series.
func (p *promServer) query(expr string, at time.Time) ([]sample, error) {
	v := url.Values{"query": {expr}}
	if !at.IsZero() {
		v.Set("time", strconv.FormatFloat(float64(at.UnixMilli())/1000, 'f', 3, 64))
	}
	resp, err := p.client.Get(p.base + "/api/v1/query?" + v.Encode())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var answer struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			ResultType string `json:"resultType"`
			Result     []struct {
				Metric map[string]string `json:"metric"`
				Value  []any             `json:"value"`
				Values [][]any           `json:"values"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", expr, resp.Status, err)
	}
	if answer.Status != "success" {
		return nil, fmt.Errorf("%s: %s", expr, answer.Error)
	}
	var out []sample
	for _, r := range answer.Data.Result {
		points := r.Values
		if answer.Data.ResultType == "vector" {
			points = [][]any{r.Value}
		}
		for _, pt := range points {
			s, err := point(pt)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", expr, err)
			}
			s.labels = r.Metric
			out = append(out, s)
		}
	}
	return out, nil
}

// point reads the API's [time, "value"].
func point(pt []any) (sample, error) {
	if len(pt) != 2 {
		return sample{}, fmt.Errorf("point %v", pt)
	}
	at, ok := pt[0].(float64)
	text, ok2 := pt[1].(string)
	if !ok || !ok2 {
		return sample{}, fmt.Errorf("point %v", pt)
	}
	v, err := strconv.ParseFloat(text, 64)
	return sample{at: at, value: v}, err
}
