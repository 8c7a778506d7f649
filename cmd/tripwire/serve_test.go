package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/dashboard"
)

func TestServeHelpExplainsEveryFlag(t *testing.T) {
	// Given serve's flags
	var o serveOptions
	fs := serveFlagSet(&o, io.Discard)
	grouped := map[string]int{}
	for _, g := range serveFlagGroups {
		for _, name := range g.names {
			grouped[name]++
		}
	}
	// When its help is asked for, both ways
	for _, args := range [][]string{{"serve", "-h"}, {"help", "serve"}} {
		var out bytes.Buffer
		if code := run(args, &out, &out); code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		// Then every flag is in it, in exactly one group, with its explanation
		help := out.String()
		fs.VisitAll(func(f *flag.Flag) {
			if grouped[f.Name] != 1 {
				t.Errorf("-%s is in %d groups", f.Name, grouped[f.Name])
			}
			first, _, _ := strings.Cut(f.Usage, "\n")
			named := strings.Contains(help, "\n  -"+f.Name+" ") || strings.Contains(help, "\n  -"+f.Name+"\n")
			if !named || !strings.Contains(help, first) {
				t.Errorf("%v: -%s not explained", args, f.Name)
			}
		})
		for _, want := range []string{"127.0.0.1:8080", "/api/breakers/{key}/{action}", "/metrics", "/api/events"} {
			if !strings.Contains(help, want) {
				t.Errorf("%v: no %q in the help", args, want)
			}
		}
	}
	if len(grouped) != serveFlagCount(fs) {
		t.Errorf("groups name %d flags, the flag set has %d", len(grouped), serveFlagCount(fs))
	}
	// and `tripwire help` lists the command
	var out bytes.Buffer
	run([]string{"help"}, &out, &out)
	if !strings.Contains(out.String(), "  serve ") {
		t.Errorf("help lists no serve:\n%s", out.String())
	}
}

func serveFlagCount(fs *flag.FlagSet) (n int) {
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n
}

func TestServeRefusesABadCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"-addr", "8080"}, "want host:port"},
		{[]string{"-addr", "localhost:http"}, "not a number"},
		{[]string{"-keys", "0"}, "keys 0"},
		{[]string{"-pattern", "sideways"}, "unknown failure pattern"},
		{[]string{"-duration", "-1s"}, "must not be negative"},
		{[]string{"-min-calls", "5"}, "need -window"},
		{[]string{"-window", "0"}, "positive number of calls"},
		{[]string{"-nope"}, "not defined"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"-addr", "127.0.0.1:0", "-threshold", "-1"}, "invalid settings"},
	} {
		// When serve is run with a command line it cannot run
		var out, errOut bytes.Buffer
		code := run(append([]string{"serve"}, tc.args...), &out, &errOut)
		// Then it exits 2, saying why and where the flags are explained
		if code != 2 || !strings.Contains(errOut.String(), tc.says) || !strings.Contains(errOut.String(), "tripwire serve -h") {
			t.Errorf("%v: exit %d, %q", tc.args, code, errOut.String())
		}
	}
}

func TestServeRunsForItsDurationAndStops(t *testing.T) {
	// When serve runs for 300 ms on any free port
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "-addr", "127.0.0.1:0", "-duration", "300ms"}, &out, &errOut)
	// Then it printed its URL, stopped by itself and exited 0
	if code != 0 || !strings.Contains(out.String(), "dashboard on http://127.0.0.1:") ||
		!strings.Contains(out.String(), "stopping") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
}

func TestServeAnswersAndShutsDownWithAStreamOpen(t *testing.T) {
	// Given serve running with its defaults on a free port
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	o := serveDefaults()
	o.addr = "127.0.0.1:0"
	urls := make(chan string, 1)
	ended := make(chan error, 1)
	go func() { ended <- runServe(ctx, o, io.Discard, func(url string) { urls <- url }) }()
	var base string
	select {
	case base = <-urls:
	case err := <-ended:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("not listening after 10s")
	}
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()

	// When the API, the page and the metrics are asked for
	var list dashboard.List
	serveGetJSON(t, client, base+"api/breakers", &list)
	resp, err := client.Post(base+"api/breakers/dep-03/crash", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// Then they answer: four keys, a crash done
	if len(list.Rows) != 4 || list.Summary.Keys != 4 || resp.StatusCode != http.StatusOK {
		t.Fatalf("list %+v, crash %d", list, resp.StatusCode)
	}
	for path, want := range map[string]string{"": "<title>Tripwire", "metrics": "tripwire_restarts_total"} {
		if body := serveGet(t, client, base+path); !strings.Contains(body, want) {
			t.Errorf("/%s has no %q", path, want)
		}
	}

	// When a page follows the events and serve is told to stop
	stream, err := client.Get(base + "api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if line, err := bufio.NewReader(stream.Body).ReadString('\n'); err != nil || !strings.HasPrefix(line, "retry:") {
		t.Fatalf("stream: %q %v", line, err)
	}
	stop()
	// Then it stops cleanly and soon, without waiting for the page to go
	select {
	case err := <-ended:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(serveStopTimeout):
		t.Fatal("serve still running 10s after stop")
	}
	if _, err := io.Copy(io.Discard, stream.Body); err != nil {
		t.Fatalf("stream ended with %v", err)
	}
}

func TestServeReportsAnAddressInUse(t *testing.T) {
	// Given a port taken by someone else
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// When serve is asked to listen on it
	var out, errOut bytes.Buffer
	code := run([]string{"serve", "-addr", ln.Addr().String()}, &out, &errOut)
	// Then it says so and exits 1, having started nothing that lingers
	if code != 1 || !strings.Contains(errOut.String(), "address already in use") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}

func serveGet(t *testing.T, c *http.Client, url string) string {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %v", url, resp.StatusCode, err)
	}
	return string(body)
}

func serveGetJSON(t *testing.T, c *http.Client, url string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(serveGet(t, c, url)), v); err != nil {
		t.Fatal(err)
	}
}
