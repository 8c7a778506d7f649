package supervisor

import "sync"

// dispatcher runs the supervisor actor's turns on one goroutine of its own,
// which keeps its grown stack: with a goroutine per activation, a quarter of
// a Register's time went to growing stacks.
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

// Schedule runs fn on the dispatcher's goroutine (one waits at most: one
// mailbox); after Stop it is dropped (a stopped actor's mailbox run).
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
