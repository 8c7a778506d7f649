package tripwiretest_test

import (
	"context"
	"errors"
	"maps"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// restarts returns each key's Snapshot.Restarts.
func restarts(t *testing.T, reg *tripwire.Registry, keys ...string) map[string]int {
	t.Helper()
	m := map[string]int{}
	for _, k := range keys {
		s, err := reg.Snapshot(context.Background(), k)
		if err != nil {
			t.Fatalf("Snapshot(%q): %v", k, err)
		}
		m[k] = s.Restarts
	}
	return m
}

func registerEchoes(t *testing.T, reg *tripwire.Registry, keys ...string) {
	t.Helper()
	for _, k := range keys {
		testkit.Register(t, reg, k, tripwiretest.New().Func(nil), tripwire.Settings{})
	}
}

func TestCrashEveryCrashesAtItsRateUntilStopped(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given three keys and a crash every 10 ms
		keys := []string{"a", "b", "c"}
		registerEchoes(t, e.Reg, keys...)
		stop := tripwiretest.CrashEvery(e.Reg, 10*time.Millisecond, tripwiretest.Seed(1))
		// When 105 ms pass and it is stopped
		time.Sleep(105 * time.Millisecond)
		rep := stop()
		// Then it crashed 10 times (at 10, 20, ..., 100 ms) without an error
		if rep.Crashes != 10 || rep.Errors != 0 || rep.Err != nil {
			t.Fatalf("report %+v, want 10 crashes", rep)
		}
		// and the breakers' own restart counts agree, key by key
		if got := restarts(t, e.Reg, keys...); !maps.Equal(got, withZeros(rep.ByKey, keys)) {
			t.Fatalf("restarts %v, report %v", got, rep.ByKey)
		}
		// and nothing crashes after stop
		time.Sleep(100 * time.Millisecond)
		total := 0
		for _, n := range restarts(t, e.Reg, keys...) {
			total += n
		}
		if total != 10 {
			t.Fatalf("%d restarts after stop, want 10", total)
		}
		// and stop again returns the same report
		if again := stop(); again.Crashes != rep.Crashes || !maps.Equal(again.ByKey, rep.ByKey) {
			t.Fatalf("second stop: %+v, first %+v", again, rep)
		}
	})
}

// withZeros is m with a 0 for every key it lacks.
func withZeros(m map[string]int, keys []string) map[string]int {
	out := maps.Clone(m)
	for _, k := range keys {
		out[k] += 0
	}
	return out
}

func TestCrashEveryWithASeedPicksTheSameKeys(t *testing.T) {
	run := func(seed uint64) map[string]int {
		var byKey map[string]int
		testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
			registerEchoes(t, e.Reg, "a", "b", "c", "d", "e")
			stop := tripwiretest.CrashEvery(e.Reg, 10*time.Millisecond, tripwiretest.Seed(seed))
			time.Sleep(405 * time.Millisecond)
			byKey = stop().ByKey
		})
		return byKey
	}
	// Given two runs with one seed and one with another
	a, b, c := run(11), run(11), run(12)
	// Then the same seed crashes the same keys as often
	if !maps.Equal(a, b) {
		t.Fatalf("seed 11 twice: %v and %v", a, b)
	}
	if maps.Equal(a, c) {
		t.Fatalf("seeds 11 and 12 gave the same 40 picks: %v", a)
	}
}

func TestCrashEveryOnlyKeys(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given three keys and a crash schedule limited to "b" and an unregistered "zz"
		registerEchoes(t, e.Reg, "a", "b", "c")
		stop := tripwiretest.CrashEvery(e.Reg, 10*time.Millisecond, tripwiretest.OnlyKeys("b", "zz"), tripwiretest.Seed(5))
		time.Sleep(205 * time.Millisecond)
		rep := stop()
		// Then only "b" crashed, and picks of "zz" were errors
		got := restarts(t, e.Reg, "a", "b", "c")
		if got["a"] != 0 || got["c"] != 0 || got["b"] != rep.Crashes || rep.ByKey["b"] != rep.Crashes {
			t.Fatalf("restarts %v, report %+v", got, rep)
		}
		if rep.Crashes == 0 || rep.Errors == 0 || rep.Crashes+rep.Errors != 20 {
			t.Fatalf("report %+v, want 20 picks split between b and zz", rep)
		}
	})
}

func TestCrashEveryKeepsCallersAnswered(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a key whose target takes about 3 ms and a crash every 10 ms
		s := tripwiretest.New()
		must(t, s.Latency(3001*time.Microsecond)) // never ends at a crash instant
		testkit.Register(t, e.Reg, "k", s.Func(nil), tripwire.Settings{})
		stop := tripwiretest.CrashEvery(e.Reg, 10*time.Millisecond)
		// When one caller calls for 200 ms
		var ok, restarted int
		for end := time.Now().Add(200 * time.Millisecond); time.Now().Before(end); {
			_, err := e.Reg.Call(ctx, "k", 1)
			switch {
			case err == nil:
				ok++
			case errors.Is(err, tripwire.ErrBreakerRestarted):
				restarted++
			default:
				t.Fatalf("call: %v", err)
			}
		}
		rep := stop()
		// Then every call got its target's answer: a crash costs the calls
		// in flight nothing
		if rep.Crashes < 15 || ok == 0 || restarted != 0 {
			t.Fatalf("%d ok, %d restarted, report %+v", ok, restarted, rep)
		}
	})
}

func TestCrashEveryLeavesNoGoroutineAfterStop(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a registry at rest, and the goroutines it has
		registerEchoes(t, e.Reg, "a", "b")
		synctest.Wait()
		before := goleak.IgnoreCurrent()
		// When a crash schedule runs and is stopped
		stop := tripwiretest.CrashEvery(e.Reg, time.Millisecond)
		time.Sleep(50 * time.Millisecond)
		if rep := stop(); rep.Crashes == 0 {
			t.Fatalf("no crash: %+v", rep)
		}
		synctest.Wait()
		// Then no goroutine is left that was not there before
		if err := goleak.Find(before); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCrashEveryRejectsBadArguments(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		for name, stop := range map[string]func() tripwiretest.CrashReport{
			"nil registry": tripwiretest.CrashEvery(nil, time.Millisecond),
			"zero period":  tripwiretest.CrashEvery(e.Reg, 0),
			"negative":     tripwiretest.CrashEvery(e.Reg, -time.Second),
		} {
			// When CrashEvery gets a bad argument, Then stop reports ErrInvalid and no crash
			if rep := stop(); !errors.Is(rep.Err, tripwiretest.ErrInvalid) || rep.Crashes != 0 {
				t.Errorf("%s: %+v", name, rep)
			}
		}
	})
}

func TestCrashEveryCountsErrorsAfterShutdown(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a crash schedule on a registry that is then shut down
		registerEchoes(t, e.Reg, "a")
		stop := tripwiretest.CrashEvery(e.Reg, 10*time.Millisecond)
		time.Sleep(35 * time.Millisecond)
		if err := e.Reg.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(35 * time.Millisecond)
		// When it is stopped, Then the crashes before count and the picks after find no key
		rep := stop()
		if rep.Crashes != 3 || rep.Errors != 0 {
			t.Fatalf("report %+v, want 3 crashes: Keys() is empty after Shutdown", rep)
		}
	})
}
