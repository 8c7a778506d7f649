package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tripwire-go/tripwire"
	demopkg "github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/dashboard"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func init() {
	register(command{name: "serve", order: 30, run: serve,
		summary: "a live dashboard of breakers over HTTP: the page, a JSON API, events, /metrics (-soak: of the soak)"})
}

// serveStopTimeout bounds the shutdown of the server, the callers and the
// registry once serve is told to stop.
const serveStopTimeout = 10 * time.Second

func serve(args []string, stdout, stderr io.Writer) int {
	if serveWantsSoak(args) {
		return serveSoakCmd(args, stdout, stderr)
	}
	o, err := parseServeFlags(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.duration)
		defer cancel()
	}
	if err := runServe(ctx, o, stdout, nil); err != nil {
		printError(stderr, "serve", err)
		if errors.Is(err, tripwire.ErrInvalidSettings) {
			printHint(stderr, "serve")
			return 2
		}
		return 1
	}
	return 0
}

// runServe serves the dashboard until ctx ends, then stops the server, the
// callers and the registry, in that order. ready, if not nil, gets the
// server's base URL once it listens.
func runServe(ctx context.Context, o serveOptions, stdout io.Writer, ready func(url string)) (err error) {
	metrics, err := newServeMetrics()
	if err != nil {
		return err
	}
	sys := system.New(nil)
	defer sys.Shutdown()
	reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithMeterProvider(metrics.Provider()))
	if err != nil {
		return err
	}
	// Each stage stops what it started, last first; the first error is kept.
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), serveStopTimeout)
		defer cancel()
		err = errors.Join(err, reg.Shutdown(stopCtx), metrics.Shutdown(stopCtx))
	}()
	drv, err := demopkg.New(reg, sys, o.cfg)
	if err != nil {
		return err
	}
	h, err := dashboard.New(reg, serveDashboard(metrics, "tripwire serve", dashboard.WithCrash(func(ctx context.Context, key string) error { return tripwiretest.Crash(ctx, reg, key) }))...)
	if err != nil {
		return err
	}
	defer h.Close()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	callers, stopCallers := context.WithCancel(context.Background())
	driven := make(chan struct{})
	go func() { defer close(driven); drv.Run(callers) }()
	defer func() { stopCallers(); <-driven }()

	url := baseURL(ln.Addr())
	fmt.Fprintf(stdout, "tripwire serve: dashboard on %s (%d keys, pattern %s); Ctrl-C stops it\n",
		url, o.cfg.Keys, o.cfg.Pattern)
	if ready != nil {
		ready(url)
	}
	select {
	case <-ctx.Done():
	case err = <-served: // the listener failed: nothing to shut down
		return fmt.Errorf("http server: %w", err)
	}
	fmt.Fprintln(stdout, "tripwire serve: stopping")
	h.Close() // event streams end, so Shutdown does not wait for them
	stopCtx, cancel := context.WithTimeout(context.Background(), serveStopTimeout)
	defer cancel()
	if err := srv.Shutdown(stopCtx); err != nil {
		return fmt.Errorf("http server shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("http server: %w", err)
	}
	return nil
}

// serveDashboard are the options of serve's dashboard, titled title: the
// control buttons for every page (the demo and the soak are there to be
// pushed around; a service would pass its own check to WithControl), and
// the registry's metrics at /metrics.
func serveDashboard(metrics *serveMetrics, title string, more ...dashboard.Option) []dashboard.Option {
	everyone := func(*http.Request) bool { return true }
	return append([]dashboard.Option{dashboard.WithControl(everyone), dashboard.WithMetrics(metrics.Handler()),
		dashboard.WithTitle(title)}, more...)
}

// baseURL is the URL of a server listening on addr; an address on every
// interface is shown as localhost.
func baseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
