package cluster

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/grain"
)

// driver runs a member's commands; the first "register" starts a registry
// on it.
type driver struct {
	c        *cluster.Cluster
	reg      *tripwire.Registry
	failover *grain.Failover // made by the first "register ... failover"
	loads    map[string]*load
	members  atomic.Value // "<n> <addresses>" of the last topology
	left     sync.Map     // address -> time.Time: when a topology dropped it
}

func (d *driver) do(cmd []string) string {
	arg := func(i int) string {
		if i < len(cmd) {
			return cmd[i]
		}
		return ""
	}
	switch arg(0) {
	case "members": // "<how many> <their addresses>" this one sees, itself included
		m, _ := d.members.Load().(string)
		return "ok " + m
	case "host": // host ID: where the grain of ID lives (activating it)
		if pid := d.c.Get(arg(1), echoKind); pid != nil {
			return "ok " + pid.Address
		}
		return "err nowhere"
	case "register": // register KEY ID THRESHOLD OPEN-TIMEOUT CALL-TIMEOUT [failover]
		return d.register(arg(1), arg(2), arg(3), arg(4), arg(5), arg(6) == "failover")
	case "left": // left ADDR: "ok <unix ns>" when this member's topology dropped ADDR
		if at, ok := d.left.Load(arg(1)); ok {
			return fmt.Sprintf("ok %d", at.(time.Time).UnixNano())
		}
		return "err not left"
	case "call": // call KEY TEXT: "ok <reply>" or "err <error>"
		v, err := d.reg.Call(context.Background(), arg(1), wrapperspb.String(arg(2)))
		if err != nil {
			return "err " + err.Error()
		}
		return "ok " + v.(*wrapperspb.StringValue).GetValue()
	case "load": // load KEY: callers keep calling KEY until "stats KEY ..."
		d.loads[arg(1)] = startLoad(d.reg, arg(1))
		return "ok"
	case "stats": // stats KEY FAULT-UNIX-NS OLD-HOST: what the load saw since the fault
		l, ok := d.loads[arg(1)]
		if !ok {
			return "err no load"
		}
		fault, _ := strconv.ParseInt(arg(2), 10, 64)
		return "ok " + l.stats(time.Unix(0, fault), arg(3))
	case "history": // history KEY FAULT-UNIX-NS: the breaker's transitions and the calls' ends since the fault
		l, ok := d.loads[arg(1)]
		if !ok {
			return "err no load"
		}
		fault, _ := strconv.ParseInt(arg(2), 10, 64)
		return "ok " + l.history(time.Unix(0, fault))
	case "unload": // unload KEY: stop the load
		if l, ok := d.loads[arg(1)]; ok {
			l.stop()
			delete(d.loads, arg(1))
		}
		return "ok"
	}
	return fmt.Sprintf("err unknown command %q", cmd)
}

func (d *driver) register(key, id, threshold, open, call string, failover bool) string {
	if d.reg == nil {
		reg, err := tripwire.Start(tripwire.WithActorSystem(d.c.ActorSystem))
		if err != nil {
			return "err " + err.Error()
		}
		d.reg = reg
	}
	if failover && d.failover == nil {
		f, err := grain.NewFailover(d.reg, d.c)
		if err != nil {
			return "err " + err.Error()
		}
		d.failover = f
	}
	var s tripwire.Settings
	var err error
	s.Threshold, err = strconv.Atoi(threshold)
	if err == nil {
		s.OpenTimeout, err = time.ParseDuration(open)
	}
	if err == nil {
		s.CallTimeout, err = time.ParseDuration(call)
	}
	var target tripwire.Target
	switch {
	case err == nil && failover:
		target, err = d.failover.Target(key, echoKind, id)
	case err == nil:
		target, err = grain.Target(d.c, echoKind, id)
	}
	if err == nil {
		err = d.reg.Register(context.Background(), key, target, s)
	}
	if err != nil {
		return "err " + err.Error()
	}
	return "ok"
}
