package supervisor

import "github.com/tripwire-go/tripwire/registry"

// children maps the breaker actors alive (by actor id) to their keys'
// entries. A Go map keeps the buckets of the largest it ever was; this one
// is copied into a map of its size once it has shrunk to a quarter of its
// peak, so keys that go (unregistered, passivated) give their memory back.
// Copying n entries after n*3 removals keeps a removal O(1) amortized.
type children struct {
	m    map[string]*registry.Entry
	peak int
}

func newChildren() children { return children{m: map[string]*registry.Entry{}} }

func (c *children) get(id string) (*registry.Entry, bool) {
	e, ok := c.m[id]
	return e, ok
}

func (c *children) add(id string, e *registry.Entry) {
	c.m[id] = e
	c.peak = max(c.peak, len(c.m))
}

func (c *children) remove(id string) {
	delete(c.m, id)
	if c.peak >= 64 && len(c.m) < c.peak/4 {
		m := make(map[string]*registry.Entry, len(c.m))
		for k, v := range c.m {
			m[k] = v
		}
		c.m, c.peak = m, len(m)
	}
}
