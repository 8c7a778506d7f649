package task

import (
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
)

// routerSlots is the size of the router's table of waiting asks (128 KB):
// an ask waits in the slot its RequestId picks, unless an ask of an id as
// many asks older still waits there (a target holding it), and then in the
// overflow map.
const routerSlots = 1 << 14

// Router is one process, registered once, that receives the replies of all
// of a registry's asks. Each ask sends with a sender PID naming the router
// and carrying a RequestId of its own, which protoactor hands back with the
// reply (Respond, a dead-letter answer, over remote too): an ask costs no
// entry in protoactor's process registry. Finding the ask takes no lock and
// no map but for the overflow (a map access grew the target goroutine's
// small stack). RequestIds are a 32-bit counter: a reply is misrouted only
// if it arrives 2^32 asks late and the ask that reused its id still waits.
type Router struct {
	sys    *actor.ActorSystem
	id     string
	closed atomic.Bool
	next   atomic.Uint32         // the end of the last run of RequestIds handed out
	ids    sync.Pool             // *idRun: each P's own run, so asks on two cores do not share a counter
	table  atomic.Pointer[slots] // made by the first ask: a registry of function targets has none
	over   overflow
}

// slots are the router's table of waiting asks.
type slots [routerSlots]atomic.Pointer[sender]

// slots returns the router's table, made now if there is none.
func (r *Router) slots() *slots {
	if t := r.table.Load(); t != nil {
		return t
	}
	r.table.CompareAndSwap(nil, new(slots))
	return r.table.Load()
}

// sender is an ask's sender PID, made for one Start and never changed
// after it waits (but for the process PID.ref caches), the ask it is for,
// and the call's deadline: a slot holds it, so the router reads the
// RequestId of what a slot holds from memory no later ask writes. Its PID
// caches the sender itself as its process (cacheProcess): a reply sent
// through that PID, or through a copy of it, comes to the sender, which
// hands it to its router, and a local target reads the call's deadline
// from it (SenderDeadline) with no header. Over remote the PID goes by
// its Id, which names the router.
type sender struct {
	pid      actor.PID
	ask      *Ask
	owner    Inbox         // the mailbox its call's asks belong to (Call.Owner), or nil
	router   *Router       // where its replies go
	proc     actor.Process // the sender, where its PID's cached process points
	deadline int64         // the call's, in Unix nanoseconds; 0: none
}

var _ actor.Process = (*sender)(nil)

// SendUserMessage routes a reply sent to the sender's PID (or a copy of
// it) through its router.
func (s *sender) SendUserMessage(pid *actor.PID, message any) { s.router.SendUserMessage(pid, message) }

// SendSystemMessage ignores system messages, as the router does.
func (s *sender) SendSystemMessage(*actor.PID, any) {}

// Stop ignores protoactor's stop, as the router does.
func (s *sender) Stop(*actor.PID) {}

// overflow holds the asks whose slot was taken when they began to wait.
type overflow struct {
	n    atomic.Int32 // how many wait in asks: take looks only if any do
	mu   sync.Mutex
	asks map[uint32]*sender
}

var _ actor.Process = (*Router)(nil)

// NewRouter registers a router in sys. Close unregisters it.
func NewRouter(sys *actor.ActorSystem) *Router {
	r := &Router{sys: sys}
	pid, _ := sys.ProcessRegistry.Add(r, "tripwire$replies$"+sys.ProcessRegistry.NextId())
	r.id = pid.Id
	return r
}

// Close unregisters the router: later replies go to dead letters, or,
// sent to a PID that caches the router, are dropped.
func (r *Router) Close() {
	r.closed.Store(true)
	r.sys.ProcessRegistry.Remove(&actor.PID{Address: r.sys.ProcessRegistry.Address, Id: r.id})
}

// newSender returns the sender PID of a, with a fresh RequestId (never 0:
// protoactor's default), naming the router, and caching itself as the
// PID's process (cacheProcess).
func (r *Router) newSender(a *Ask) *sender {
	id := r.newID()
	s := &sender{ask: a, router: r, pid: actor.PID{Address: r.sys.ProcessRegistry.Address, Id: r.id, RequestId: id}}
	if !a.deadline.IsZero() {
		s.deadline = a.deadline.UnixNano()
	}
	s.owner = a.call.Owner()
	s.proc = s
	cacheProcess(&s.pid, &s.proc)
	return s
}

// enter makes the ask of s wait for its reply.
func (r *Router) enter(s *sender) {
	id := s.pid.RequestId
	if r.slots()[id%routerSlots].CompareAndSwap(nil, s) {
		return
	}
	r.over.mu.Lock()
	if r.over.asks == nil {
		r.over.asks = make(map[uint32]*sender)
	}
	r.over.asks[id] = s
	r.over.n.Add(1)
	r.over.mu.Unlock()
}

// take removes and returns the ask waiting under id, or nil.
func (r *Router) take(id uint32) *Ask {
	slot := &r.slots()[id%routerSlots]
	if s := slot.Load(); s != nil && s.pid.RequestId == id {
		if slot.CompareAndSwap(s, nil) {
			return s.ask
		}
		return nil // taken at this moment: by the reply, or by Abandon
	}
	if r.over.n.Load() == 0 {
		return nil
	}
	r.over.mu.Lock()
	defer r.over.mu.Unlock()
	s := r.over.asks[id]
	if s == nil {
		return nil
	}
	delete(r.over.asks, id)
	r.over.n.Add(-1)
	return s.ask
}

// waiting reports whether the ask whose sender PID is self still waits
// for its reply.
func (r *Router) waiting(self *actor.PID) bool {
	id := self.RequestId
	if s := r.slots()[id%routerSlots].Load(); s != nil && &s.pid == self {
		return true
	}
	if r.over.n.Load() == 0 {
		return false
	}
	r.over.mu.Lock()
	defer r.over.mu.Unlock()
	s := r.over.asks[id]
	return s != nil && &s.pid == self
}

// Waiting returns the asks of owner (Call.Owner; nil: of calls that say
// none) waiting for a reply, reading every slot (a breaker's target died,
// or it stops) and no ask of another owner, whose memory its next use may
// be writing; the owner keeps what it returns from being used meanwhile.
func (r *Router) Waiting(owner Inbox) []*Ask {
	var found []*Ask
	if t := r.table.Load(); t != nil {
		for i := range t {
			if s := t[i].Load(); s != nil && s.owner == owner {
				found = append(found, s.ask)
			}
		}
	}
	if r.over.n.Load() == 0 {
		return found
	}
	r.over.mu.Lock()
	defer r.over.mu.Unlock()
	for _, s := range r.over.asks {
		if s.owner == owner {
			found = append(found, s.ask)
		}
	}
	return found
}

// SendUserMessage routes a reply to the ask its RequestId names; a reply
// for no waiting ask (late, or a second one) is dropped.
func (r *Router) SendUserMessage(pid *actor.PID, message any) {
	if r.closed.Load() {
		return
	}
	if a := r.take(pid.RequestId); a != nil {
		a.receive(message)
	}
}

// SendSystemMessage ignores system messages: asks watch nothing.
func (r *Router) SendSystemMessage(*actor.PID, any) {}

// Stop ignores protoactor's stop: the router lives as long as its registry.
func (r *Router) Stop(*actor.PID) {}

// idRunLen is how many RequestIds a run holds (a P takes the counter once a run).
const idRunLen = 64

// idRun is a run of RequestIds that one P hands out.
type idRun struct{ next, end uint32 }

// newID returns a fresh RequestId, never 0 (protoactor's default).
func (r *Router) newID() uint32 {
	run, _ := r.ids.Get().(*idRun)
	if run == nil {
		run = new(idRun)
	}
	for {
		if run.next == run.end {
			run.end = r.next.Add(idRunLen) // (wrapping around as a uint32 does)
			run.next = run.end - idRunLen
		}
		id := run.next
		run.next++
		if id != 0 {
			r.ids.Put(run)
			return id
		}
	}
}
