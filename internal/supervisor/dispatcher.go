package supervisor

import "sync"

// dispatcher runs the supervisor actor's turns on one goroutine of its own,
// which keeps the stack it has grown. protoactor's default dispatcher starts
// a goroutine per activation, and a turn that spawns a breaker (whose first
// turns run inline) grew a fresh stack each time: a quarter of the time of
// a Register went to copying stacks.
type dispatcher struct {
	jobs chan func()
	done chan struct{}
	once sync.Once
	wg   sync.WaitGroup
}

func newDispatcher() *dispatcher {
	d := &dispatcher{jobs: make(chan func(), 1), done: make(chan struct{})}
	d.wg.Add(1)
	go d.run()
	return d
}

func (d *dispatcher) run() {
	defer d.wg.Done()
	for {
		select {
		case fn := <-d.jobs:
			fn()
		case <-d.done:
			return
		}
	}
}

// Schedule runs fn on the dispatcher's goroutine. protoactor schedules a
// mailbox once per activation, so with one mailbox at most one waits. After
// Stop fn is dropped: it could only be the run of a stopped actor's mailbox.
func (d *dispatcher) Schedule(fn func()) {
	select {
	case d.jobs <- fn:
	case <-d.done:
	}
}

// Throughput is how many messages a turn of the mailbox takes before it
// yields, as protoactor's default.
func (d *dispatcher) Throughput() int { return 300 }

// Stop ends the goroutine once the turn it runs (if any) is over.
func (d *dispatcher) Stop() {
	d.once.Do(func() { close(d.done) })
	d.wg.Wait()
}
