package actor

import "time"

// failed records err as the key's last failure (nil: the next opening is
// not a failure's, as with ForceOpen).
func (c *Cell) failed(err error) {
	if err != nil {
		_, w := c.window(time.Now())
		w.cause = err
	} else if s := c.stats.Load(); s != nil && s.win != nil {
		s.win.cause = nil
	}
}

// openCause is the key's last failure, which opened the circuit when it
// is open.
func (c *Cell) openCause() error {
	if s := c.stats.Load(); s != nil && s.win != nil {
		return s.win.cause
	}
	return nil
}

// keyStats returns the key's statistics, made now if it has none.
func (c *Cell) keyStats() *keyStats {
	if s := c.stats.Load(); s != nil {
		return s
	}
	s := new(keyStats)
	if c.stats.CompareAndSwap(nil, s) {
		return s
	}
	return c.stats.Load()
}
