package etcdprovider

import (
	"context"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// protoactor's provider lists its cluster's members once, then watches
// them from the revision the watch starts at; when the watch ends with an
// error it watches again, from the revision of that moment, without
// listing again (etcd_provider.go:275-310). A member that left, or joined,
// between the two never reached its topology: after a watch that etcd
// compacted away (a member cut off from etcd for a moment, while its
// auto-compaction ran), a member that had left stayed in the topology for
// the life of the process.
//
// members makes the watch protoactor's provider reads one that never ends
// but with its context: it goes on from the revision of the provider's
// list, and when the watch under it fails it lists the members again,
// hands the provider the difference as events (puts of the members it
// has not seen, deletes of those gone), and watches on from that list.

// members is what one cluster's watch has passed on: the members' keys and
// the revision they are of. The provider's list (scopedKV.Get) sets it.
type members struct {
	client *clientv3.Client
	prefix string // BaseKey/name/

	listed chan struct{}    // closed once the provider has listed
	keys   map[string]int64 // key -> mod revision
	rev    int64
}

// retryEvery is how long a failed list waits before the next.
const retryEvery = 500 * time.Millisecond

// list records the provider's list of the members.
func (m *members) list(resp *clientv3.GetResponse) {
	if m.keys != nil {
		return // protoactor lists once; a later Get goes its way
	}
	m.keys = make(map[string]int64, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		m.keys[string(kv.Key)] = kv.ModRevision
	}
	m.rev = resp.Header.GetRevision()
	close(m.listed)
}

// watch is the provider's watch of the members, under ctx.
func (m *members) watch(ctx context.Context, inner clientv3.Watcher) clientv3.WatchChan {
	out := make(chan clientv3.WatchResponse)
	go m.follow(ctx, inner, out)
	return out
}

// follow passes on the watch from m.rev, listing again when it fails,
// until ctx or the client ends.
func (m *members) follow(ctx context.Context, inner clientv3.Watcher, out chan<- clientv3.WatchResponse) {
	defer close(out)
	select {
	case <-m.listed:
	case <-ctx.Done():
		return
	}
	for m.live(ctx) {
		wctx, cancel := context.WithCancel(ctx)
		passed := false
		for resp := range inner.Watch(wctx, m.prefix, clientv3.WithPrefix(), clientv3.WithRev(m.rev+1)) {
			if resp.Err() != nil || resp.Canceled {
				break
			}
			m.saw(resp.Events, resp.Header.GetRevision())
			if len(resp.Events) > 0 && !send(ctx, out, resp) {
				cancel()
				return
			}
			passed = true
		}
		cancel()
		if !passed && !pause(ctx, retryEvery) { // a watch that fails at once
			return
		}
		if !m.resync(ctx, out) {
			return
		}
	}
}

// live reports whether the watch is still wanted.
func (m *members) live(ctx context.Context) bool {
	return ctx.Err() == nil && m.client.Ctx().Err() == nil
}

// saw takes events of revision rev into what was passed on.
func (m *members) saw(evs []*clientv3.Event, rev int64) {
	for _, ev := range evs {
		if ev.Type == clientv3.EventTypeDelete {
			delete(m.keys, string(ev.Kv.Key))
		} else {
			m.keys[string(ev.Kv.Key)] = ev.Kv.ModRevision
		}
	}
	m.rev = max(m.rev, rev)
}

// resync lists the members again until it can, and passes on what changed
// since the last revision passed on; false if the watch is no longer
// wanted.
func (m *members) resync(ctx context.Context, out chan<- clientv3.WatchResponse) bool {
	for {
		if !m.live(ctx) {
			return false
		}
		resp, err := m.client.KV.Get(ctx, m.prefix, clientv3.WithPrefix())
		if err == nil {
			diff := m.diff(resp)
			m.saw(diff.Events, resp.Header.GetRevision())
			return len(diff.Events) == 0 || send(ctx, out, diff)
		}
		if !pause(ctx, retryEvery) {
			return false
		}
	}
}

// pause waits d; false if ctx ends first.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// diff is the events that take what was passed on to the list resp: a put
// of each member new or changed, a delete of each member gone.
func (m *members) diff(resp *clientv3.GetResponse) clientv3.WatchResponse {
	d := clientv3.WatchResponse{Header: *resp.Header}
	now := make(map[string]bool, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		now[string(kv.Key)] = true
		if rev, ok := m.keys[string(kv.Key)]; !ok || rev != kv.ModRevision {
			d.Events = append(d.Events, &clientv3.Event{Type: mvccpb.PUT, Kv: kv})
		}
	}
	for key := range m.keys {
		if !now[key] {
			d.Events = append(d.Events, &clientv3.Event{Type: mvccpb.DELETE, Kv: &mvccpb.KeyValue{Key: []byte(key)}})
		}
	}
	return d
}

// send hands resp to the provider; false if ctx ends first.
func send(ctx context.Context, out chan<- clientv3.WatchResponse, resp clientv3.WatchResponse) bool {
	select {
	case out <- resp:
		return true
	case <-ctx.Done():
		return false
	}
}
