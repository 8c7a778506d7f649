package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"io"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/dashboard"
)

// urlWriter is a stdout the command may write from any goroutine; the first
// dashboard URL it prints goes to url.
type urlWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	url  chan string
	sent bool
}

var dashboardURL = regexp.MustCompile(`dashboard on (http://\S+/)`)

func newURLWriter() *urlWriter { return &urlWriter{url: make(chan string, 1)} }

func (w *urlWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if m := dashboardURL.FindSubmatch(w.buf.Bytes()); m != nil && !w.sent {
		w.url <- string(m[1])
		w.sent = true
	}
	return n, err
}

func (w *urlWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// waitURL returns the dashboard's URL once the command prints it, or fails
// the test if the command ends first or 10 s pass.
func (w *urlWriter) waitURL(t *testing.T, ended <-chan int) string {
	t.Helper()
	select {
	case url := <-w.url:
		return url
	case code := <-ended:
		t.Fatalf("exit %d before the dashboard served:\n%s", code, w.String())
	case <-time.After(10 * time.Second):
		t.Fatalf("no dashboard after 10s:\n%s", w.String())
	}
	return ""
}

func TestServeSoakShowsTheSoakAndEndsWithItsReport(t *testing.T) {
	// Given serve -soak for 2 s on any free port
	out, errOut := newURLWriter(), &bytes.Buffer{}
	ended := make(chan int, 1)
	go func() {
		ended <- run([]string{"serve", "-soak", "-addr", "127.0.0.1:0", "-duration", "2s",
			"-callers", "8", "-keys", "4", "-actor-every", "2"}, out, errOut)
	}()
	base := out.waitURL(t, ended)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

	// When its API is read and a breaker crashed while the soak runs
	var list dashboard.List
	serveGetJSON(t, client, base+"api/breakers", &list)
	resp, err := client.Post(base+"api/breakers/k0002/crash", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// Then the rows are the soak's keys, and the crash is done
	var keys []string
	for _, r := range list.Rows {
		keys = append(keys, r.Key)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"k0000", "k0001", "k0002", "k0003"}) || resp.StatusCode != http.StatusOK {
		t.Fatalf("keys %v, crash %d", keys, resp.StatusCode)
	}
	// and the page and the metrics are the soak registry's
	for path, want := range map[string]string{"": "<title>Tripwire", "metrics": `tripwire_key="k0002"`} {
		if body := serveGet(t, client, base+path); !strings.Contains(body, want) {
			t.Errorf("/%s has no %q", path, want)
		}
	}

	// When a page follows the events until the soak ends (30 s at most)
	follower := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	stream, err := follower.Get(base + "api/events")
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	sc := bufio.NewScanner(stream.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok && name != "transitions" {
			events = append(events, name)
		}
	}
	stream.Body.Close()
	// Then its stream ended with "end", after the rows as they changed
	if err := sc.Err(); err != nil {
		t.Fatalf("stream: %v after %v", err, events)
	}
	if len(events) < 4 || !slices.Equal(events[:3], []string{"hello", "rows", "history"}) || events[len(events)-1] != "end" {
		t.Fatalf("events %v", events)
	}
	// And serve exits 0 by itself, having printed the soak's report: every
	// invariant held (the dashboard's crash counted, nothing of the server left)
	select {
	case code := <-ended:
		if code != 0 {
			t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve -soak still running 30s after a 2s soak")
	}
	for _, want := range []string{"soak: 8 callers + 1 askers on 4 keys", "soak over, stopping the dashboard",
		"soak done after", "\n  calls ", "\n  restarts ", "\n  goroutines left   0 ", "PASS: every invariant held"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

func TestServeSoakEndsEarlyWhenInterrupted(t *testing.T) {
	// Given serve -soak for a minute
	o, err := parseServeSoakFlags([]string{"-soak", "-addr", "127.0.0.1:0", "-duration", "1m", "-callers", "4", "-keys", "2"}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	var out bytes.Buffer
	type result struct {
		code int
		err  error
	}
	ended := make(chan result, 1)
	urls := make(chan string, 1)
	go func() {
		code, err := runServeSoak(ctx, o, &out, func(url string) { urls <- url })
		ended <- result{code, err}
	}()
	var base string
	select {
	case base = <-urls:
	case r := <-ended:
		t.Fatalf("ended before serving: %d %v", r.code, r.err)
	}
	// When it is interrupted (Ctrl-C) once its breakers have restarted
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	deadline := time.Now().Add(10 * time.Second)
	for restarts := 0.0; restarts == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no restart within 10s")
		}
		var list dashboard.List
		serveGetJSON(t, client, base+"api/breakers", &list)
		for _, r := range list.Rows {
			restarts += float64(r.Restarts)
		}
		time.Sleep(10 * time.Millisecond)
	}
	interrupt()
	// Then the soak stops early and reports as tripwire soak does
	select {
	case r := <-ended:
		if r.code != 0 || r.err != nil || !strings.Contains(out.String(), "soak interrupted after") {
			t.Fatalf("exit %d, %v\n%s", r.code, r.err, out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still running 30s after the interrupt")
	}
}

func TestServeSoakReportsAnAddressInUse(t *testing.T) {
	// Given a port taken by someone else
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// When serve -soak is asked to listen on it
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "-soak", "-addr", ln.Addr().String()}, &out, &errOut)
	// Then it says so and exits 1 without running the soak
	if code != 1 || !strings.Contains(errOut.String(), "address already in use") || out.Len() != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
}

func TestServeSoakRefusesABadCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"-soak", "-pattern", "flaky"}, "-pattern is a flag of the demo's dependency"},
		{[]string{"-threshold=3", "-soak"}, "-threshold is a flag of the demo's dependency"},
		{[]string{"--soak", "--interval", "5ms"}, "-interval is a flag of the demo's dependency"},
		{[]string{"-soak", "-callers", "-1"}, "-callers=-1: want ≥ 0"},
		{[]string{"-soak", "-fail-rate", "2"}, "-fail-rate=2: want 0..1"},
		{[]string{"-soak", "-must-see", "bogus"}, `"bogus" is not an outcome`},
		{[]string{"-soak", "-nope"}, "not defined: -nope"},
		{[]string{"-soak", "extra"}, "unexpected argument"},
		{[]string{"-soak", "-addr", "8080"}, "want host:port"},
		{[]string{"-soak", "-addr"}, "needs an argument: -addr"},
		{[]string{"-soak=maybe"}, "invalid boolean value"},
	} {
		// When serve -soak is run with a command line it cannot run
		var out, errOut bytes.Buffer
		code := run(append([]string{"serve"}, tc.args...), &out, &errOut)
		// Then it exits 2, saying why and where the flags are explained, having run nothing
		if code != 2 || !strings.Contains(errOut.String(), tc.says) || !strings.Contains(errOut.String(), "tripwire serve -h") || out.Len() != 0 {
			t.Errorf("%v: exit %d, %q %q", tc.args, code, errOut.String(), out.String())
		}
	}
}

func TestServeSoakHelpIsServes(t *testing.T) {
	// When serve -soak is asked for help
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "-soak", "-callers", "8", "-h"}, &out, &errOut)
	// Then it is serve's help, on stdout, which says what -soak does
	if code != 0 || !strings.Contains(out.String(), "Usage: tripwire serve") || !strings.Contains(out.String(), "With -soak:") || errOut.Len() != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
}

func TestServeWantsSoakAsTheFlagPackageWould(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-soak"}, true},
		{[]string{"--soak"}, true},
		{[]string{"-soak=true"}, true},
		{[]string{"-soak=1"}, true},
		{[]string{"-soak=false"}, false},
		{[]string{"-soak", "-soak=false"}, false}, // the last one decides
		{[]string{"-soak=maybe"}, false},          // the demo's parser refuses it
		{[]string{"-addr", ":0", "-soak"}, true},
		{[]string{"--", "-soak"}, false}, // not a flag after --
		{[]string{"-soaked"}, false},
		{[]string{"soak"}, false},
	} {
		if got := serveWantsSoak(tc.args); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestServeSoakKnowsTripwireSoaksFlags(t *testing.T) {
	// Given tripwire soak's flags, as its help lists them
	var help bytes.Buffer
	if code := run([]string{"soak", "-h"}, &help, &help); code != 0 {
		t.Fatalf("soak -h: exit %d", code)
	}
	var soakNames []string
	for _, line := range strings.Split(help.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "  -"); ok {
			soakNames = append(soakNames, strings.Fields(rest)[0])
		}
	}
	// Then serve's help lists them all, and no other
	var listed []string
	for _, f := range strings.FieldsFunc(serveSoakFlagList, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' }) {
		listed = append(listed, strings.TrimPrefix(f, "-"))
	}
	slices.Sort(soakNames)
	slices.Sort(listed)
	if len(soakNames) < 10 || !slices.Equal(soakNames, listed) {
		t.Fatalf("tripwire soak has %v; serve -soak lists %v", soakNames, listed)
	}
	// And the flags serve's demo shares with it are the ones serve gives the soak
	var o serveOptions
	shared := map[string]bool{}
	serveFlagSet(&o, io.Discard).VisitAll(func(f *flag.Flag) {
		if slices.Contains(soakNames, f.Name) {
			shared[f.Name] = true
		}
	})
	if len(shared) != len(serveSoakShared) {
		t.Fatalf("shared %v, serve -soak passes on %v", shared, serveSoakShared)
	}
	for name := range shared {
		if !serveSoakShared[name] {
			t.Fatalf("shared %v, serve -soak passes on %v", shared, serveSoakShared)
		}
	}
}
