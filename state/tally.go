package state

// Tally is how a call ended, as a key's statistics count it: each is one
// of Counts' fields (a TallyTimeout is in Failures too).
type Tally uint8

const (
	TallySuccess Tally = iota
	TallyFailure
	TallyTimeout // a failure: its deadline passed
	TallyRejected
	TallyOverloaded
	TallyIgnored
	TallyCanceled
	// Tallies is how many kinds of end there are.
	Tallies
)

// Totals are a key's calls by Tally: those its Rolling window no longer
// holds, kept next to it.
type Totals [Tallies]uint64

// Add counts n calls that ended as t.
func (c *Counts) Add(t Tally, n uint64) {
	switch t {
	case TallySuccess:
		c.Successes += n
	case TallyFailure:
		c.Failures += n
	case TallyTimeout:
		c.Failures += n
		c.Timeouts += n
	case TallyRejected:
		c.Rejected += n
	case TallyOverloaded:
		c.Overloaded += n
	case TallyIgnored:
		c.Ignored += n
	case TallyCanceled:
		c.Canceled += n
	}
	c.Calls += n
}
