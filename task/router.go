package task

import (
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
)

// routerShards spreads the router's table over locks, so replies on many
// goroutines rarely wait for each other.
const routerShards = 16

// Router is one process, registered once, that receives the replies of all
// of a registry's asks. Each ask sends with a sender PID naming the router
// and carrying a RequestId of its own; protoactor hands that PID back with
// the reply (ctx.Respond, a dead-letter answer, and over remote too), and the
// router passes the reply to the ask it names. An ask then costs no entry in
// protoactor's process registry: no id string, no PID, no concurrent-map
// insert and delete per call.
//
// RequestIds are a 32-bit counter: a reply is misrouted only if it arrives
// after 2^32 later asks and the ask that reused its id is still waiting.
type Router struct {
	sys    *actor.ActorSystem
	id     string
	self   actor.Process // the router, as its asks' sender PIDs cache it (cacheProcess)
	closed atomic.Bool
	next   atomic.Uint32
	shards [routerShards]routerShard
}

type routerShard struct {
	mu   sync.Mutex
	asks map[uint32]*Ask
}

var _ actor.Process = (*Router)(nil)

// NewRouter registers a router in sys. Close unregisters it.
func NewRouter(sys *actor.ActorSystem) *Router {
	r := &Router{sys: sys}
	r.self = r
	for i := range r.shards {
		r.shards[i].asks = make(map[uint32]*Ask)
	}
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

// nextID returns a fresh RequestId (never 0: protoactor's default).
func (r *Router) nextID() uint32 {
	id := r.next.Add(1)
	for id == 0 {
		id = r.next.Add(1)
	}
	return id
}

// enter makes a, whose sender PID carries its RequestId, wait for its reply.
func (r *Router) enter(a *Ask) {
	id := a.self.RequestId
	s := &r.shards[id%routerShards]
	s.mu.Lock()
	s.asks[id] = a
	s.mu.Unlock()
}

// take removes and returns the ask waiting under id, or nil.
func (r *Router) take(id uint32) *Ask {
	s := &r.shards[id%routerShards]
	s.mu.Lock()
	a := s.asks[id]
	if a != nil {
		delete(s.asks, id)
	}
	s.mu.Unlock()
	return a
}

// Waiting returns the asks waiting for a reply that match reports for; it
// is called under the router's locks, and must not call into the router.
func (r *Router) Waiting(match func(*Ask) bool) []*Ask {
	var found []*Ask
	for i := range r.shards {
		s := &r.shards[i]
		s.mu.Lock()
		for _, a := range s.asks {
			if match(a) {
				found = append(found, a)
			}
		}
		s.mu.Unlock()
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
