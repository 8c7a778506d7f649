package demo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tripwire-go/tripwire/internal/node"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/load"
)

// Driver runs a demo: it registers the keys, calls them, and keeps what the
// callers saw.
type Driver struct {
	cfg   Config
	reg   *tripwire.Registry
	sys   *actor.ActorSystem
	keys  []string
	deps  []*dependency
	wins  []window
	stats []*stats
	start time.Time
	msg   any // what callers send
}

// ErrNilRegistry: New got no registry or no actor system.
var ErrNilRegistry = errors.New("demo: nil registry or actor system")

// New registers cfg.Keys keys on reg, each in front of a dependency that
// misbehaves as cfg.Pattern says (the Dies pattern spawns its actors on sys,
// the registry's actor system). Its clock starts now. If a key cannot be
// registered (an invalid cfg.Settings is tripwire.ErrInvalidSettings), the
// keys and actors New made so far are removed again.
func New(reg *tripwire.Registry, sys *actor.ActorSystem, cfg Config) (*Driver, error) {
	if reg == nil || sys == nil {
		return nil, ErrNilRegistry
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d := &Driver{cfg: cfg, reg: reg, sys: sys, start: time.Now(), msg: cfg.request()}
	for i := range cfg.Keys {
		if err := d.add(i); err != nil {
			d.remove()
			return nil, err
		}
	}
	return d, nil
}

// add registers the i-th key in front of its dependency.
func (d *Driver) add(i int) error {
	cfg, key := d.cfg, KeyName(i)
	win := window{start: d.start, offset: time.Duration(i) * cfg.Stagger,
		downAt: cfg.DownAt, upAt: cfg.UpAt, cycle: cfg.Cycle}
	dep := &dependency{pattern: cfg.Pattern, win: win, latency: cfg.Latency,
		slow: slowLatency(cfg.Settings), failRate: cfg.FailRate,
		rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i)))}
	target := tripwire.Func(dep.call)
	switch cfg.Pattern {
	case Remote:
		target = tripwire.ActorTarget(remoteDependency(cfg.Remote))
	case Dies:
		if _, err := d.sys.Root.SpawnNamed(node.EchoProps(cfg.Latency, &dep.calls), key); err != nil {
			return fmt.Errorf("demo: spawn %s: %w", key, err)
		}
		target = tripwire.ActorTarget(d.sys.NewLocalPID(key))
	}
	if err := d.reg.Register(context.Background(), key, target, cfg.Settings); err != nil {
		if cfg.Pattern == Dies {
			_ = d.sys.Root.StopFuture(d.sys.NewLocalPID(key)).Wait()
		}
		return err
	}
	d.keys, d.deps, d.wins = append(d.keys, key), append(d.deps, dep), append(d.wins, win)
	d.stats = append(d.stats, new(stats))
	return nil
}

// remove unregisters the keys added so far and stops their actors.
func (d *Driver) remove() {
	for _, key := range d.keys {
		_ = d.reg.Unregister(context.Background(), key)
		if d.cfg.Pattern == Dies {
			_ = d.sys.Root.StopFuture(d.sys.NewLocalPID(key)).Wait()
		}
	}
	d.keys, d.deps, d.wins, d.stats = nil, nil, nil, nil
}

// Keys returns the demo's keys in order.
func (d *Driver) Keys() []string { return append([]string(nil), d.keys...) }

// Start is when the driver's clock started.
func (d *Driver) Start() time.Time { return d.start }

// Run calls every key with cfg.Callers callers until ctx ends, and (for the
// Dies pattern) stops and restarts the dependency actors on schedule. It
// returns when every caller has returned. The calls do not take ctx's
// deadline as theirs: at its end they are withdrawn, not timed out.
func (d *Driver) Run(ctx context.Context) {
	calls, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	callers := load.Start(len(d.keys)*d.cfg.Callers, func(i int) time.Duration {
		return d.call(calls, i/d.cfg.Callers)
	})
	defer context.AfterFunc(ctx, func() { callers.Halt(); cancel() })()
	var wg sync.WaitGroup
	if d.cfg.Pattern == Dies {
		for i, key := range d.keys {
			wg.Go(func() { d.lifecycle(calls, key, d.wins[i], &d.deps[i].calls) })
		}
	}
	callers.Wait()
	wg.Wait()
}

// call makes one call to the k-th key, counts its answer, and returns the
// pause before the next.
func (d *Driver) call(ctx context.Context, k int) time.Duration {
	begin := time.Now()
	_, err := d.reg.Call(ctx, d.keys[k], d.msg)
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return 0 // the demo ended during the call: not an answer of the dependency
	}
	d.stats[k].add(err, time.Since(begin))
	return load.Think{Pause: d.cfg.Interval}.After(nil, err)
}

// lifecycle stops the key's dependency actor when its window opens and
// spawns it again under the same name when the window closes.
func (d *Driver) lifecycle(ctx context.Context, key string, win window, calls *atomic.Int64) {
	pid := d.sys.NewLocalPID(key)
	alive := true
	for {
		at, ok := win.next(time.Now())
		if !ok {
			return
		}
		t := time.NewTimer(time.Until(at))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		switch down := win.down(at); {
		case down && alive:
			_ = d.sys.Root.StopFuture(pid).Wait()
			alive = false
		case !down && !alive:
			if _, err := d.sys.Root.SpawnNamed(node.EchoProps(d.cfg.Latency, calls), key); err == nil {
				alive = true
			}
		}
	}
}
