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
	"slices"
	"syscall"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/soak"
	"github.com/tripwire-go/tripwire/dashboard"
)

// serveSoakCmd is serve -soak: the dashboard of a soak run (internal/soak,
// as tripwire soak runs it) instead of the demo's. It stops when the soak
// ends, prints the soak's report, and exits as tripwire soak does: 0 every
// invariant held, 1 one was violated (or the run or the server failed), 2
// bad flags.
func serveSoakCmd(args []string, stdout, stderr io.Writer) int {
	o, err := parseServeSoakFlags(args, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := runServeSoak(ctx, o, stdout, nil)
	if err != nil {
		printError(stderr, "serve", err)
	}
	return code
}

// runServeSoak listens on o.addr, runs the soak with the dashboard served
// from its Watch (from before the load until after it), prints the soak's
// report and returns the exit status. Ending ctx ends the load early, as in
// tripwire soak. ready, if not nil, gets the server's base URL once the
// dashboard serves.
func runServeSoak(ctx context.Context, o serveSoakOptions, stdout io.Writer, ready func(url string)) (code int, err error) {
	metrics, err := newServeMetrics()
	if err != nil {
		return 1, err
	}
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), serveStopTimeout)
		defer cancel()
		if serr := metrics.Shutdown(stopCtx); serr != nil {
			code, err = 1, errors.Join(err, serr)
		}
	}()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return 1, err
	}
	defer ln.Close() // if the soak never started the server; once served, the server closed it
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	d := &soakDashboard{ln: ln, metrics: metrics, stdout: stdout, ready: ready, cancel: cancel}
	cfg := o.cfg
	cfg.Options = append(slices.Clone(cfg.Options), tripwire.WithMeterProvider(metrics.Provider()))
	cfg.Watch = d.watch
	fmt.Fprintln(stdout, describeSoak(cfg))
	rep, err := soak.Run(ctx, cfg)
	if err != nil {
		return 1, errors.Join(err, d.err)
	}
	code = printSoakReport(stdout, cfg, rep)
	if d.err != nil {
		return 1, d.err
	}
	return code, nil
}

// soakDashboard serves the dashboard of one soak run. Its watch and the
// stop watch returns run on the soak's goroutine, which is runServeSoak's.
type soakDashboard struct {
	ln      net.Listener
	metrics *serveMetrics
	stdout  io.Writer
	ready   func(url string)
	cancel  context.CancelFunc // ends the soak's load: the server failed
	err     error              // the dashboard's own failure
}

// watch is the soak's Config.Watch: it serves the dashboard of the run
// until the stop it returns, which the soak calls once its load is over,
// before its registry shuts down and it counts the goroutines left.
func (d *soakDashboard) watch(live *soak.Live) (stop func()) {
	h, err := dashboard.New(live.Registry(), serveDashboard(d.metrics, "tripwire serve -soak", dashboard.WithCrash(soakCrash(live)))...)
	if err != nil {
		d.err = err
		d.cancel()
		return nil
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	served := make(chan error, 1)
	go func() {
		err := srv.Serve(d.ln)
		if !errors.Is(err, http.ErrServerClosed) {
			d.cancel() // no dashboard: no reason to go on
		}
		served <- err
	}()
	url := baseURL(d.ln.Addr())
	fmt.Fprintf(d.stdout, "tripwire serve: dashboard on %s (%d keys); it stops when the soak ends, Ctrl-C ends the soak early\n",
		url, len(live.Keys()))
	if d.ready != nil {
		d.ready(url)
	}
	return func() {
		fmt.Fprintln(d.stdout, "tripwire serve: soak over, stopping the dashboard")
		h.Close() // event streams send their last changes and end, so Shutdown does not wait for them
		stopCtx, cancel := context.WithTimeout(context.Background(), serveStopTimeout)
		defer cancel()
		if err := srv.Shutdown(stopCtx); err != nil {
			d.err = fmt.Errorf("http server shutdown: %w", err)
		}
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			d.err = errors.Join(d.err, fmt.Errorf("http server: %w", err))
		}
	}
}

// soakCrash is the dashboard's crash of a soak run: through the run, which
// counts it with its own crashes (soak.Live.Crash), so its check that every
// crash restarted its breaker once still holds. Once the load is over a
// crash is refused as the registry refuses one after shutdown (503).
func soakCrash(live *soak.Live) func(ctx context.Context, key string) error {
	return func(_ context.Context, key string) error {
		err := live.Crash(key)
		if errors.Is(err, soak.ErrRunOver) {
			return fmt.Errorf("%w: %w", tripwire.ErrShutdown, err)
		}
		return err
	}
}
