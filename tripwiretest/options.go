package tripwiretest

// Option configures a Script at New.
type Option interface {
	applyScript(*Script)
}

// CrashOption configures CrashEvery.
type CrashOption interface {
	applyCrash(*crashConfig)
}

// Seed seeds the random choices of a Script (FailRate, HangRate) or of
// CrashEvery (which key to crash), so a test sees the same choices on every
// run. Without it the seed is random.
type Seed uint64

func (s Seed) applyScript(sc *Script)    { sc.rng = newRand(uint64(s)) }
func (s Seed) applyCrash(c *crashConfig) { c.rng = newRand(uint64(s)) }

// OnlyKeys makes CrashEvery pick only among these keys; picking one that is
// not registered counts in CrashReport.Errors, and OnlyKeys() with no key
// crashes nothing. Without it CrashEvery picks among the keys registered at
// that moment.
func OnlyKeys(keys ...string) CrashOption {
	return onlyKeys(append([]string{}, keys...))
}

type onlyKeys []string

func (k onlyKeys) applyCrash(c *crashConfig) { c.keys = k }
