package actor

import "container/heap"

// deadlines is a min-heap of calls in flight ordered by deadline, so one timer
// at the earliest deadline enforces them all.
type deadlines []*Call

func (d deadlines) Len() int           { return len(d) }
func (d deadlines) Less(i, j int) bool { return d[i].Deadline.Before(d[j].Deadline) }
func (d deadlines) Swap(i, j int) {
	d[i], d[j] = d[j], d[i]
	d[i].index, d[j].index = i, j
}

func (d *deadlines) Push(x any) {
	c := x.(*Call)
	c.index = len(*d)
	*d = append(*d, c)
}

func (d *deadlines) Pop() any {
	old := *d
	c := old[len(old)-1]
	old[len(old)-1] = nil
	c.index = -1
	*d = old[:len(old)-1]
	return c
}

func (d *deadlines) add(c *Call) { heap.Push(d, c) }

// remove takes c out of the heap; it reports false if c was not in it.
func (d *deadlines) remove(c *Call) bool {
	if c.index < 0 || c.index >= len(*d) || (*d)[c.index] != c {
		return false
	}
	heap.Remove(d, c.index)
	return true
}

func (d deadlines) earliest() *Call {
	if len(d) == 0 {
		return nil
	}
	return d[0]
}
