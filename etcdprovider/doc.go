// Package etcdprovider is protoactor's etcd cluster provider
// (cluster/clusterproviders/etcd) made to end: every request it makes to
// etcd without a deadline — all of them — gives up after Config.Timeout,
// and Shutdown closes its connection to etcd.
//
// protoactor's provider calls etcd with context.TODO(). When etcd is gone
// its Shutdown, which deletes the member's key, waits forever (and so does
// cluster.Shutdown(true)), and its keepalive loop sticks in a request that
// never returns. It also never closes its etcd client, whose connection
// then redials etcd for the life of the process. And it reads and watches
// its cluster's members under the prefix BaseKey/name, so a member of
// cluster "shop" took in the members of "shop2" from the same etcd; here
// it reads BaseKey/name/ only. When its watch of the members fails (etcd
// compacted the history it was to resume from, after the member lost etcd
// for a moment), protoactor watches again from that moment without listing
// the members again, so a member that left meanwhile stayed in the
// topology for the life of the process; here the watch lists them again
// and hands protoactor what changed.
//
//	p, err := etcdprovider.New(etcdprovider.Config{Endpoints: []string{"127.0.0.1:2379"}})
//	if err != nil { ... }
//	cfg := cluster.Configure("shop", p, disthash.New(), remote.Configure("10.0.0.5", 7070))
//	c := cluster.New(sys, cfg)
//	c.StartMember()
//	defer c.Shutdown(true) // returns within Timeout (plus protoactor's fixed 2 s) even if etcd is down
//
// What protoactor's provider does, and this package leaves as it is: each
// member holds a lease of 3 s on its key (fixed in protoactor) and keeps
// it alive; a member that cannot renew it in time — crashed, partitioned
// from etcd, or paused (SIGSTOP, a long GC pause, a frozen VM) — is
// dropped by the others when its key expires, and they block its ID for
// the life of their processes (protoactor's member list never lets a
// member that left join again). A paused member that wakes up registers
// again under the same ID and is ignored: it is a member only in its own
// eyes. Restart such a process (a new actor system has a new ID and joins
// normally); see the README's "Beyond one machine".
//
// cluster.Shutdown(false) does not call the provider's Shutdown: the
// member's key and its lease's keepalive stay, and the others go on
// counting it, until the process ends. Leave with Shutdown(true). A
// Provider is for one cluster, started once: make a new one to start
// again.
package etcdprovider
