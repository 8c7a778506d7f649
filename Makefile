GO ?= go

.PHONY: test scale bench dashbench cover vet demo fuzz soak chromium netns etcd prometheus partition reconnect faults failover screenshot sizes

# The test command CI runs (.ci/run). The dashboard's browser test needs
# chromium, the silent-partition test network namespaces and nftables
# (and root), the cluster tests against a real provider etcd, the Grafana
# dashboard's test a real Prometheus; each fails without them here (they
# skip in a plain go test). The scale tests measure in wall time, so they
# run after the rest, alone and without -race (the dashboard's speed is
# measured by make dashbench). The soak's packages and the answer path's
# hook run again built with the hook (-tags tripwire_sendhook; see
# internal/sendhook), as make soak builds them.
test: chromium netns etcd prometheus
	$(GO) vet ./...
	TRIPWIRE_REQUIRE_BROWSER=1 TRIPWIRE_REQUIRE_NETNS=1 TRIPWIRE_REQUIRE_ETCD=1 TRIPWIRE_REQUIRE_PROMETHEUS=1 \
		$(GO) test -race -count=1 -timeout 9m ./...
	$(GO) test -race -count=1 -timeout 2m -tags tripwire_sendhook ./internal/sendhook/ ./cmd/tripwire/internal/soak/
	$(GO) test -race -count=1 -timeout 1m -tags tripwire_sendhook -run 'TheHook' .
	$(GO) test -count=1 -timeout 5m ./test/scale/

# Debian's chromium, for the dashboard's browser test, unless it is there.
chromium:
	@test -x /usr/bin/chromium || { \
		SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
		$$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends chromium; }

# Debian's iproute2 and nftables, for the tests that cut the network
# between two namespaces of their own (test/remote), unless they are there.
netns:
	@{ command -v ip && command -v nft; } >/dev/null || { \
		SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
		$$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends iproute2 nftables; }

# Debian's etcd-server, for the cluster tests against a real provider
# (test/cluster), unless it is there. The tests start their own etcd.
etcd:
	@command -v etcd >/dev/null || { \
		SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
		$$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends etcd-server; }

# Debian's prometheus, for the test that scrapes a registry with a real
# Prometheus and runs the Grafana dashboard's queries on it (test/grafana),
# unless it is there. The test starts its own, on ports the OS had free.
prometheus:
	@command -v prometheus >/dev/null || { \
		SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
		$$SUDO apt-get update && $$SUDO apt-get install -y --no-install-recommends prometheus; }

# Silent partitions of 20 s and 60 s between a registry and its remote
# target's node, with remoting (mutual TLS, keepalive, ProbeOnReconnect) and
# with protoactor's remote as it is, twice each (about 8 minutes): the
# figures of docs/beyond-one-machine.md (Measured). make test runs 20 s with
# remoting, and requires the close within OpenTimeout + 3 s; here the bound
# is 2 minutes, since without keepalive the connection stays stuck.
partition: netns
	for r in true false; do for d in 20s 60s; do \
		TRIPWIRE_REQUIRE_NETNS=1 $(GO) test -count=2 -timeout 10m -run '^TestSilentPartition$$' -v ./test/remote/ \
			-args -partition.for=$$d -partition.remoting=$$r -partition.heal=2m | grep -E '^ +partition_test' || exit 1; \
	done; done

# Partitions of at least RECONNECT_FOR, healed at 12 phases of protoactor's
# cycle of connection attempts (0.5 s apart, each 50 ms after), under
# Linux's SYN schedules since and before 6.5 (about 14 minutes; 6 with
# RECONNECT_FOR=8s, partitions of 12-18 s): the figures of the bound on
# recovery in docs/beyond-one-machine.md. Each must close within
# OpenTimeout + 3 s.
RECONNECT_FOR ?= 20s
reconnect: netns
	for syn in linear exponential; do \
		TRIPWIRE_REQUIRE_NETNS=1 $(GO) test -count=1 -timeout 20m -run '^TestSilentPartition$$' -v ./test/remote/ \
			-args -partition.phases=12 -partition.for=$(RECONNECT_FOR) -partition.syn=$$syn | grep -E '^ +partition_test' || exit 1; \
	done

# A node killed for 15 s and one stopped for 5 s, with the demo's settings,
# 3 times each with remoting (mutual TLS, ProbeOnReconnect) and 3 times with
# protoactor's remote as it is (about 4 minutes): the figures of
# docs/beyond-one-machine.md (Measured). make test runs them with a
# CallTimeout of 1 s and a 6 s outage.
faults:
	for r in true false; do \
		$(GO) test -count=3 -timeout 10m -run '^(TestNodeKilledThenRestarted|TestNodePausedThenContinued)$$' -v ./test/remote/ \
			-args -faults.calltimeout=200ms -faults.outage=15s -faults.remoting=$$r | grep -E '^ +faults_test' || exit 1; \
	done

# The grain's member killed under load, its breaker in front of a cluster
# grain with grain.Failover, 5 times (OpenTimeout 30 s and 1 s each), then
# 3 times without Failover for comparison (that run fails: without it the
# 30 s breaker waits its OpenTimeout), about 3 minutes: the failover figures
# of docs/beyond-one-machine.md (Measured). make test runs it once, with -race.
failover: etcd
	TRIPWIRE_REQUIRE_ETCD=1 $(GO) test -count=5 -timeout 10m -run '^TestEtcdFailoverOnMemberKilled$$' -v ./test/cluster/ | grep 'c killed'
	-TRIPWIRE_REQUIRE_ETCD=1 $(GO) test -count=3 -timeout 10m -run '^TestEtcdFailoverOnMemberKilled$$' -v ./test/cluster/ \
		-args -failover=false | grep 'c killed'

# The docs' picture of the dashboard (docs/dashboard.png), taken in headless chromium.
screenshot: chromium
	$(GO) test -count=1 -run '^TestScreenshot$$' ./dashboard/ -args -screenshot=$(CURDIR)/docs/dashboard.png

# A million keys against their peers (gobreaker in a map, plain protoactor
# actors), one run each; see BENCHMARKS.md. About 3 minutes, 3 GB.
scale:
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 30m ./test/scale/

# Benchmarks with their peers in one run, after the dashboard's; see BENCHMARKS.md.
bench: dashbench
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./test/bench/

# The dashboard's speed (BENCHMARKS.md, "The dashboard"): an update of the
# page at 1,000 keys in headless chromium (12 updates a run, one a second),
# then a refresh at 100,000 keys, 5 runs each (about 3 minutes). Wall time:
# run it alone.
dashbench: chromium
	TRIPWIRE_REQUIRE_BROWSER=1 $(GO) test -run '^$$' -bench '^BenchmarkBrowserUpdateAThousandKeys$$' -benchtime 12x -count 5 -timeout 20m ./dashboard/
	$(GO) test -run '^$$' -bench '^BenchmarkTickAtAHundredThousandKeys$$' -benchmem -count 5 -timeout 10m ./dashboard/

# Each fuzz target for FUZZTIME (make fuzz FUZZTIME=5m); their seed corpora
# also run as plain tests in `make test`.
FUZZTIME ?= 1m
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzStep$$' -fuzztime $(FUZZTIME) ./state/
	$(GO) test -run '^$$' -fuzz '^FuzzKey$$' -fuzztime $(FUZZTIME) .
	$(GO) test -run '^$$' -fuzz '^FuzzSettings$$' -fuzztime $(FUZZTIME) .

# The model-based test with 20,000 cases (about 5 minutes), then the load and
# chaos test at soak size (cmd/tripwire/internal/soak's TestLoad and TestHotKey; `make test` runs both small).
# Without -race, which costs 5-10x and on a small machine would make the
# lateness check measure the scheduler; make test covers races. Callers think
# 50 ms between calls so the process stays below saturation. Built with the
# answer path's hook (internal/sendhook), so the lateness check judges when
# Tripwire sent each late answer, not how long its caller then waited to run.
soak:
	$(GO) test -count=1 -timeout 60m -run '^TestRegistryModel$$' ./test/model -rapid.checks=20000
	$(GO) test -count=1 -timeout 60m -tags tripwire_sendhook -run '^(TestLoad|TestHotKey)$$' -v ./cmd/tripwire/internal/soak/ -args \
		-load.callers=512 -load.keys=1000 -load.duration=5m \
		-load.hotcallers=1000 -load.hotduration=5m -load.think=50ms

cover:
	$(GO) test -count=1 -coverprofile=coverage.out ./...
	$(GO) tool cover -func=coverage.out | tail -1

demo:
	$(GO) run ./cmd/tripwire demo

# The stripped sizes of a function-target program and of protoactor's hello
# world (test/size), for BENCHMARKS.md.
sizes:
	@for p in functarget protohello; do \
		$(GO) build -ldflags='-s -w' -o /tmp/tripwire-size-$$p ./test/size/$$p && \
		printf '%-11s %9d bytes\n' $$p $$(stat -c %s /tmp/tripwire-size-$$p); \
		rm -f /tmp/tripwire-size-$$p; done
