package etcdprovider

import (
	"slices"
	"testing"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

func TestAResyncPassesOnWhatChangedWhileTheWatchWasAway(t *testing.T) {
	// Given a watch that passed on members a, b and c
	m := &members{keys: map[string]int64{"/p/c/a": 3, "/p/c/b": 4, "/p/c/c": 5}, rev: 5}

	// When the list after its failure has a as it was, c put again, d new, and b gone
	kv := func(key string, rev int64) *mvccpb.KeyValue {
		return &mvccpb.KeyValue{Key: []byte(key), ModRevision: rev, Value: []byte(key)}
	}
	list := &clientv3.GetResponse{Header: &etcdserverpb.ResponseHeader{Revision: 9},
		Kvs: []*mvccpb.KeyValue{kv("/p/c/a", 3), kv("/p/c/c", 7), kv("/p/c/d", 8)}}
	d := m.diff(list)
	m.saw(d.Events, d.Header.Revision)

	// Then the provider is handed puts of c and d and a delete of b, at the list's revision
	var got []string
	for _, ev := range d.Events {
		got = append(got, ev.Type.String()+" "+string(ev.Kv.Key))
	}
	slices.Sort(got)
	if want := []string{"DELETE /p/c/b", "PUT /p/c/c", "PUT /p/c/d"}; !slices.Equal(got, want) || d.Header.Revision != 9 {
		t.Fatalf("events %q at revision %d, want %q at 9", got, d.Header.Revision, want)
	}
	// and the watch goes on from the list
	if m.rev != 9 || len(m.keys) != 3 || m.keys["/p/c/c"] != 7 {
		t.Fatalf("after the resync: revision %d, keys %v", m.rev, m.keys)
	}
}
