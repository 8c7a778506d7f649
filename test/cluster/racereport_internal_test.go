package cluster

import "testing"

func TestRaceReportBlamesTheAccess(t *testing.T) {
	const protoactorRead = `WARNING: DATA RACE
Read at 0x00c000650db8 by main goroutine:
  github.com/asynkron/protoactor-go/cluster.(*MemberSet).Len()
      /mod/protoactor-go/cluster/members.go:26 +0xb09
  github.com/tripwire-go/tripwire/etcdprovider.(*Provider).Shutdown()
      /work/etcdprovider/provider.go:63 +0x61

Previous write at 0x00c000650db8 by goroutine 30:
  github.com/asynkron/protoactor-go/cluster.NewMemberSet()
      /mod/protoactor-go/cluster/members.go:18 +0x164

Goroutine 30 (running) created at:
  github.com/tripwire-go/tripwire/etcdprovider.(*Provider).StartMember()
      /work/etcdprovider/provider.go:48 +0x5b
`
	const tripwireWrite = `WARNING: DATA RACE
Write at 0x00c0003240c1 by goroutine 7:
  runtime.mapassign_faststr()
      /go/src/runtime/map.go:1 +0x1
  github.com/tripwire-go/tripwire/task.(*Grain).Call()
      /work/task/grain.go:10 +0x1

Previous read at 0x00c0003240c1 by goroutine 37:
  github.com/asynkron/protoactor-go/actor.(*PID).ref()
      /mod/protoactor-go/actor/pid.go:27 +0x1
`
	// A race whose accesses are both inside protoactor is protoactor's,
	// whoever called in or started the goroutine
	if inTripwire(protoactorRead) {
		t.Error("a race inside protoactor blamed on Tripwire")
	}
	// A write made by Tripwire's code (under a runtime frame) is Tripwire's
	if !inTripwire(tripwireWrite) {
		t.Error("a race in Tripwire's code not blamed on it")
	}
}
