package policies

import (
	"fmt"
	"strings"
	"sync"
	"weak"

	"github.com/asynkron/protoactor-go/actor"
)

// breakerSeq is what breakerActors remembers of one actor system: the
// supervisor's id and the highest breaker number seen.
type breakerSeq struct {
	supID  string
	maxSeq int
}

// breakerSeqs holds a breakerSeq per actor system, without keeping the
// system alive.
var breakerSeqs sync.Map // weak.Pointer[actor.ActorSystem] -> *breakerSeq

// breakerActors returns the ids of the live breaker actors of key, as the
// actor system's process registry lists them. A breaker is the supervisor's
// child named "<key>#<n>", n counting the supervisor's spawns; the
// supervisor's id is found once by scanning the registry, and the breakers
// are then looked up by id.
func breakerActors(sys *actor.ActorSystem, key string) []string {
	v, _ := breakerSeqs.LoadOrStore(weak.Make(sys), &breakerSeq{})
	b := v.(*breakerSeq)
	if b.supID == "" {
		for _, m := range sys.ProcessRegistry.LocalPIDs.LocalPIDs {
			for _, id := range m.Keys() {
				if strings.HasPrefix(id, "tripwire-") && !strings.Contains(id, "/") {
					b.supID = id
				}
			}
		}
	}
	var ids []string
	for n := 1; n <= b.maxSeq+64; n++ {
		id := fmt.Sprintf("%s/%s#%d", b.supID, key, n)
		if _, ok := sys.ProcessRegistry.GetLocal(id); ok {
			ids = append(ids, id)
			b.maxSeq = max(b.maxSeq, n)
		}
	}
	return ids
}
