package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	remotenode "github.com/tripwire-go/tripwire/internal/node"
)

func init() {
	register(command{name: "node", order: 40, run: node,
		summary: "serve the built-in dependency as a remote actor, for `tripwire demo -remote`"})
}

type nodeConfig struct {
	listen  string
	latency time.Duration
	report  time.Duration
	shed    bool
	remote  remoteFlags
}

// nodeFlags parses args into a nodeConfig. -h prints the help to stdout
// and returns flag.ErrHelp; a command line the node cannot run prints why
// and a hint to stderr and returns the error.
func nodeFlags(args []string, stdout, stderr io.Writer) (nodeConfig, error) {
	var c nodeConfig
	fs := flag.NewFlagSet("node", flag.ContinueOnError)
	fs.StringVar(&c.listen, "listen", "127.0.0.1:7070", "host:port to listen on, a host peers dial: the node is named by it (port 0: chosen by the OS)")
	fs.DurationVar(&c.latency, "latency", 2*time.Millisecond, "how long the dependency takes to answer")
	fs.DurationVar(&c.report, "report", time.Second, "how often to print the number of requests served (0: never)")
	fs.BoolVar(&c.shed, "shed", false, "drop, unanswered, each request whose caller's deadline has passed when the\n"+
		"dependency gets to it (remoting.ShedExpired), instead of serving it late")
	c.remote.define(fs)
	if err := parseFlags(fs, args, "node", stdout, stderr, nodeHelp); err != nil {
		return c, err
	}
	var err error
	switch {
	case fs.NArg() > 0:
		err = fmt.Errorf("unexpected arguments %q", fs.Args())
	case c.latency < 0 || c.report < 0:
		err = errors.New("-latency and -report must not be negative")
	default:
		err = checkRemoteAddr("listen", c.listen)
	}
	if err == nil {
		_, err = c.remote.options(nil) // checked here; the files are read again when the node starts
	}
	if err != nil {
		printError(stderr, "node", err)
		printHint(stderr, "node")
	}
	return c, err
}

func nodeHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage: tripwire node [flags]

Serves the built-in dependency as an actor named "dependency" over
protoactor's remote, until interrupted. It answers each protobuf request with
the request itself. Drive it from another process with
tripwire demo -remote ADDRESS, then stop and restart this node to watch the
breakers there open and close. Give both the same -keepalive, and with
-tls-cert, -tls-key and -tls-ca both run mutual TLS: certificates of one CA,
each naming the host its peers dial. With -shed,
a request that reaches the dependency after its caller's deadline (a node
that was stopped with SIGSTOP, then continued) is dropped, not served.

Flags:
`)
	fs.PrintDefaults()
}

func node(args []string, stdout, stderr io.Writer) int {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	return runNode(args, stdout, stderr, stop)
}

// runNode is the node command, serving until stop delivers.
func runNode(args []string, stdout, stderr io.Writer, stop <-chan os.Signal) int {
	cfg, err := nodeFlags(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	opts, err := cfg.remote.options(warningLogger(stderr))
	if err != nil {
		printError(stderr, "node", err)
		return 1
	}
	n, err := remotenode.StartConfig(remotenode.Config{Listen: cfg.listen, Latency: cfg.latency, Shed: cfg.shed, Remote: opts})
	if err != nil {
		printError(stderr, "node", err)
		return 1
	}
	defer n.Stop()
	fmt.Fprintf(stdout, "node: serving %q at %s (latency %v, %v%s); drive it with: tripwire demo -remote %s\n",
		remotenode.Name, n.Address(), cfg.latency, cfg.remote, shedding(cfg.shed), n.Address())
	serveUntil(stdout, n, cfg.remote, cfg.report, stop)
	fmt.Fprintf(stdout, "node: stopping after %d requests%s%s\n", n.Calls(), shedCount(cfg.shed, n.Shed()), refusedCount(cfg.remote.Refused()))
	return 0
}

// serveUntil prints the requests served (and shed, and refused by the
// guard) every period until stop delivers.
func serveUntil(w io.Writer, n *remotenode.Node, r remoteFlags, period time.Duration, stop <-chan os.Signal) {
	var tick <-chan time.Time
	if period > 0 {
		t := time.NewTicker(period)
		defer t.Stop()
		tick = t.C
	}
	last, lastShed, lastRefused := int64(0), int64(0), int64(0)
	for {
		select {
		case <-stop:
			return
		case <-tick:
			if c, s, f := n.Calls(), n.Shed(), r.Refused(); c != last || s != lastShed || f != lastRefused {
				fmt.Fprintf(w, "node: %d requests (+%d)%s%s\n", c, c-last, shedCount(s > 0, s), refusedCount(f))
				last, lastShed, lastRefused = c, s, f
			}
		}
	}
}

// shedding says that the node sheds, for its first line.
func shedding(on bool) string {
	if on {
		return ", shedding expired requests"
	}
	return ""
}

// shedCount says how many requests the node shed, if it sheds.
func shedCount(on bool, n int64) string {
	if on {
		return fmt.Sprintf(", %d shed", n)
	}
	return ""
}

// refusedCount says how many messages of peers the guard refused, if any
// (remoting.Refusal: a type this node does not know, a serializer it does
// not have...).
func refusedCount(n int64) string {
	if n > 0 {
		return fmt.Sprintf(", %d refused", n)
	}
	return ""
}
