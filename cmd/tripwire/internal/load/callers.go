package load

import (
	"sync"
	"time"
)

// Callers is a set of goroutines that each call over and over until Halt.
// Its methods other than Halt are for the one goroutine that runs the load.
type Callers struct {
	stop     chan struct{}
	halt     sync.Once
	back     chan int // a caller's index, as it returns
	done     []bool   // by index: Wait has seen it return
	returned []int    // indexes in the order they returned
}

// Start starts n callers. The i-th calls call(i) at once and then again
// after each pause call returns, until Halt: call makes one call, tallies
// its answer and returns the pause before the next.
func Start(n int, call func(i int) (pause time.Duration)) *Callers {
	c := &Callers{stop: make(chan struct{}), back: make(chan int, n), done: make([]bool, n)}
	for i := range n {
		go func() {
			c.loop(func() time.Duration { return call(i) })
			c.back <- i
		}()
	}
	return c
}

// loop calls until stop, pausing between calls; a halt ends a pause, not a
// call.
func (c *Callers) loop(call func() time.Duration) {
	pause := time.NewTimer(0)
	defer pause.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-pause.C:
		}
		select {
		case <-c.stop: // a halt at the moment the pause ends wins
			return
		default:
		}
		pause.Reset(call())
	}
}

// Halt tells every caller to make no more calls; the calls in flight go
// on. It may be called from any goroutine, more than once.
func (c *Callers) Halt() { c.halt.Do(func() { close(c.stop) }) }

// Wait waits until every caller has returned.
func (c *Callers) Wait() {
	for len(c.returned) < len(c.done) {
		c.saw(<-c.back)
	}
}

// WaitFor waits at most d for every caller to return, and reports whether
// all have.
func (c *Callers) WaitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for len(c.returned) < len(c.done) {
		select {
		case i := <-c.back:
			c.saw(i)
		case <-t.C:
			return false
		}
	}
	return true
}

func (c *Callers) saw(i int) {
	c.done[i] = true
	c.returned = append(c.returned, i)
}

// Returned lists the callers that Wait or WaitFor saw return, in the order
// they returned; what such a caller wrote is safe to read.
func (c *Callers) Returned() []int { return append([]int(nil), c.returned...) }

// Running lists the callers not seen to return, in index order.
func (c *Callers) Running() []int {
	var running []int
	for i, done := range c.done {
		if !done {
			running = append(running, i)
		}
	}
	return running
}
