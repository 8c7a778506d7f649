package dashboard

import (
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// Summary counts the registry's keys by state and severity. Keys is the
// count at the last census (see Census) plus the keys seen since in a
// transition; the other counts follow every transition at once. Closed is
// Keys less Open and HalfOpen.
type Summary struct {
	Keys     int `json:"keys"`
	Closed   int `json:"closed"`
	Open     int `json:"open"`
	HalfOpen int `json:"half_open"`
	// Forced counts the keys forced open or closed, Failing the closed keys
	// with failures or overloads in their window (as far as the last look
	// at each tells: see docs/dashboard.md).
	Forced  int `json:"forced"`
	Failing int `json:"failing"`
	// Census is when the key list was last read whole, CensusMs how long
	// that took.
	Census   time.Time `json:"census,omitzero"`
	CensusMs float64   `json:"census_ms"`
}

// count is the summary of what the board knows: the census's key count
// amended since, and the marks. O(marks).
func (b *board) count() Summary {
	s := Summary{Census: utc(b.census.at), CensusMs: round(ms(b.census.took), 3)}
	s.Keys = max(len(b.census.keys)+len(b.late)-len(b.gone), len(b.marks))
	for _, m := range b.marks {
		switch m.state {
		case state.Open:
			s.Open++
		case state.HalfOpen:
			s.HalfOpen++
		}
		switch m.severity() {
		case Forced:
			s.Forced++
		case Failing:
			s.Failing++
		}
		if m.state == state.Open && m.forced != state.NotForced {
			s.Forced++
		}
	}
	s.Closed = s.Keys - s.Open - s.HalfOpen
	return s
}
