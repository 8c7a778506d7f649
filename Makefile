GO ?= go

.PHONY: test bench cover vet demo fuzz

# The test command CI runs (.ci/run).
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 9m ./...

# Benchmarks with their peers in one run; see BENCHMARKS.md.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./test/bench/

# Each fuzz target for FUZZTIME (make fuzz FUZZTIME=5m); their seed corpora
# also run as plain tests in `make test`.
FUZZTIME ?= 1m
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzStep$$' -fuzztime $(FUZZTIME) ./state/
	$(GO) test -run '^$$' -fuzz '^FuzzKey$$' -fuzztime $(FUZZTIME) .
	$(GO) test -run '^$$' -fuzz '^FuzzSettings$$' -fuzztime $(FUZZTIME) .

cover:
	$(GO) test -count=1 -coverprofile=coverage.out ./...
	$(GO) tool cover -func=coverage.out | tail -1

demo:
	$(GO) run ./cmd/tripwire demo
