package state

// Gen identifies the incarnation of a breaker and the transition it is in.
// Outcomes and timers carry the Gen they were issued in; they change the
// circuit only while that Gen is current.
type Gen struct {
	Incarnation uint64
	Seq         uint64
}

func (g Gen) next() Gen { return Gen{Incarnation: g.Incarnation, Seq: g.Seq + 1} }
