# kubeloop: the two commands a newcomer needs are `make run` and `make test`.
GO ?= go

.PHONY: run trace test test-main test-conformance test-examples bench bench-all bench-scale chaos vet fmt debug debug-headless

# make run [RUN_FLAGS='--controllers=*,-labeler'] (flags of kubeloop up).
run:
	$(GO) run ./cmd/kubeloop up $(RUN_FLAGS)

# The spine of "scale to 5" from inside every component, numbered as the
# deep-dive's sequence diagram; also written as .kubeloop/trace.mmd
# (docs/trace.md).
trace:
	$(GO) run ./cmd/kubeloop trace

# Every test of the main module under the race detector, then the
# conformance module (real client-go; real kubectl where the machine has it),
# the exercises' graders and the tutorial's example. Those three run side by
# side, so one's compiling overlaps another's waiting (on kubectl processes,
# on the graders' clusters): on two cores about 3 to 4 minutes against 4.3
# one after another. -O keeps each one's output together (GNU make 4; the
# 3.81 of macOS interleaves them).
test: linebudget test-main
	$(MAKE) --no-print-directory -j3 $(if $(filter output-sync,$(.FEATURES)),-O) test-conformance test-exercises test-examples

# Test binaries are linked without DWARF: a sixth less link time, and about
# a hundred are linked. Stack traces and race reports are unchanged; a
# debugger builds its own binary (make debug).
TESTLD = -ldflags=-w

# The size of each client-side concept against its budget (hack/linebudget.sh).
.PHONY: linebudget
linebudget:
	./hack/linebudget.sh

test-main:
	$(GO) vet ./...
	$(GO) test -race -count=1 $(TESTLD) ./...
	# The store's 64 writers x 50 increments at full size: too slow under
	# -race, about 20 s without it.
	$(GO) test -count=1 $(TESTLD) -run TestConcurrentGuaranteedUpdatesLoseNoIncrement ./store/ -args -counter.full

# The conformance module drives our server through real clients (kubectl,
# client-go); our concurrent packages already run under -race above, and
# building client-go with -race would double CI's compile time.
test-conformance:
	cd conformance && $(GO) vet ./... && $(GO) test -count=1 $(TESTLD) ./...

# The tutorial's controller (examples/configmap-controller), a module of its
# own like conformance/: client-go and kubeloop versions against one cluster.
test-examples:
	cd examples/configmap-controller && $(GO) vet ./... && $(GO) test -count=1 $(TESTLD) ./...

# The benchmark table (cmd/benchratio/rows.go, docs/performance.md): each
# figure with kubeloop and its reference measured in the same run, the
# ratio, the target and whether it was met; also written to bench/results/
# (bench.json, bench.md, and raw.txt, the go test output). A missed target
# is printed as MISSED and the command still finishes. About 5 minutes.
# The workqueue rows are goroutine hand-offs of a few hundred nanoseconds
# that one run's scheduling noise can tip either way: they run three times,
# each pair together, and the table shows the medians. Three runs of
# -count=1 rather than one of -count=3, which would run each side three
# times in a row and let the machine's drift between them tip the pair.
BENCH = $(GO) test -run '^$$' -benchmem -count=1
# The managedFields benchmark's two sides take turns in 16 rounds, and a
# garbage collection (about 100 ms of marking) is charged to whichever side
# runs while it marks. With the default second (about 900 pods a side,
# rounds of 40 ms) each of the run's ~14 collections spread over two or
# three rounds of both sides and single runs swung by where they fell;
# 10,000 pods a side (15-35 s) make rounds of 300 ms or more and ~40
# collections (docs/server-side-apply.md, Cost).
MANAGEDFIELDS_PODS ?= 10000
bench:
	@mkdir -p bench/results
	( $(BENCH) -bench 'BenchmarkCreate$$' ./store/ ; \
	  $(BENCH) -bench 'BenchmarkCreateConfigMaps' ./apiserver/ ; \
	  $(BENCH) -bench 'BenchmarkCreateUpdateManagedFields' -benchtime $(MANAGEDFIELDS_PODS)x ./apiserver/ ; \
	  $(BENCH) -bench 'BenchmarkApply100ContainerPod' ./apiserver/fieldmanager/ ; \
	  $(BENCH) -bench 'BenchmarkCreateCustomResourceVsConfigMap' -benchtime 60x ./apiserver/apiextensions/crdserving/ ; \
	  $(BENCH) -bench 'List10kPods|Fanout1000Watchers|CacheMemory10kPods' ./watchcache/ ; \
	  $(BENCH) -bench 'PodList10kProtobuf' ./api/ ; \
	  $(BENCH) -bench 'ScaleTo1000' -benchtime 1x ./cluster/full/ ; \
	  cd conformance && $(BENCH) -bench 'DeltaFIFO|InformerInitialSync|PodList10k|PodWatch10k' . ; \
	  for run in 1 2 3; do $(BENCH) -benchtime=0.5s -bench 'Queue' . ; done ) 2>&1 \
	  | tee bench/results/raw.txt | $(GO) run ./cmd/benchratio -results bench/results

# The chaos suite at full size (chaos/doc.go): kill -9 during scaling and
# writes, cut watches and compaction, two apiservers on one etcd, hostile
# bodies; then every fuzz target for a fixed number of executions. The short
# form of the scenarios runs in make test.
FUZZ_EXECS ?= 5000
FUZZ_TARGETS = ./api/:FuzzDecodeStrict ./api/:FuzzDecode ./api/:FuzzProtobufDecode ./api/:FuzzUnstructuredFast \
	./api/:FuzzParseSelector ./api/:FuzzParseFieldSelector \
	./apiserver/endpoints/handlers/:FuzzCreateAndPatch ./apiserver/endpoints/handlers/:FuzzBodiesByCodec
chaos:
	$(GO) test -count=1 -timeout 30m ./chaos/ -args -chaos.long
	@for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "fuzz $$fn ($$pkg): $(FUZZ_EXECS) executions"; \
	  $(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZ_EXECS)x $$pkg || exit 1; \
	done

# How the cost grows with the cluster (not part of make test): 0 → 30 pods
# per node on 20, 200 and 1000 simulated nodes, the whole cluster in one
# process, printed as a table of growth (docs/performance.md). Needs about
# 4 GiB of memory and, at 1000 nodes, four minutes or more. SCALE_NODES=20,200
# for a shorter run; SCALE_FLAGS for the benchmark's other flags, e.g.
# SCALE_FLAGS='-scale.pods-per-node=5 -scale.idleprofile=/tmp/idle-NODES.out'
# or '-scale.progress=10s -scale.pprof=127.0.0.1:6060' to watch a run
# (docs/performance.md, "Looking inside a size").
# The smallest size is the baseline of the CPU target and runs for under a
# second, so its figures swing most (cpu-ms/pod 2.05 to 3.13 in one
# session): it runs twice more before the others and the table shows the
# medians of its three runs.
SCALE_NODES ?= 20,200,1000
SCALE_FLAGS ?=
comma := ,
SCALE_BASELINE = $(firstword $(subst $(comma), ,$(SCALE_NODES)))
SCALE_RUN = $(GO) test -run '^$$' -bench 'ScaleGrowth' -benchtime 1x -timeout 60m ./cluster/full/ -args $(SCALE_FLAGS)
bench-scale:
	@mkdir -p bench/results
	( for run in 1 2; do $(SCALE_RUN) -scale.nodes=$(SCALE_BASELINE) ; done ; \
	  $(SCALE_RUN) -scale.nodes=$(SCALE_NODES) ) 2>&1 \
	  | tee bench/results/scale-raw.txt | $(GO) run ./cmd/benchratio

# Every benchmark of both modules, paired where a reference exists.
bench-all:
	( $(GO) test -run '^$$' -bench . -benchmem -count=1 ./... ; \
	  cd conformance && $(GO) test -run '^$$' -bench . -benchmem -count=1 ./... ) 2>&1 | tee /tmp/kubeloop-bench.txt | $(GO) run ./cmd/benchratio

fmt:
	gofmt -w $$(git ls-files '*.go')

# The exercises (exercises/README.md, docs/exercises.md).
.PHONY: test-exercises grade

# Graders proven sound: each exercise's grader fails on its stub, passes on
# its reference and catches its first two planted bugs (exercises/*/bugs);
# test-exercises-all proves every planted bug. About two minutes on two
# cores (all: three and a half); run without -race (see docs/exercises.md).
test-exercises:
	$(GO) test -count=1 -timeout 20m -run 'TestGradersAreSound|TestExport' ./exercises/ -args -soundness -soundness.bugs=2

.PHONY: test-exercises-all
test-exercises-all:
	$(GO) test -count=1 -timeout 20m -run 'TestGradersAreSound|TestExport' ./exercises/ -args -soundness

# The score table: make grade [EX=4] [GRADE_FORMAT=json] [GRADE_TAGS=solution]
# [BUG=name (with one EX: the reference with that planted bug)] [V=1].
grade:
	@$(GO) run ./exercises/grade -ex "$(EX)" -format "$(or $(GRADE_FORMAT),table)" \
		-tags "$(or $(GRADE_TAGS),exercise)" $(if $(BUG),-bug "$(BUG)") $(if $(V),-v)

# The reading path in a debugger (docs/reading-path.md, "Stepping through a
# step"): make debug STEP=N runs that step's test under Delve (go tool dlv,
# pinned in go.mod) with the breakpoints of docs/debug/stepN.dlv set.
# make debug-headless STEP=N waits on 127.0.0.1:2345 for an editor instead.
DEBUG_SCRIPT = docs/debug/step$(STEP).dlv
DEBUG_PKG = $$(sed -n 's/^\# package: //p' $(DEBUG_SCRIPT))
DEBUG_TEST = $$(sed -n 's/^\# test: //p' $(DEBUG_SCRIPT))

debug:
	@test -f "$(DEBUG_SCRIPT)" || { echo "usage: make debug STEP=N, N one of: $$(ls docs/debug | sed -n 's/^step\([0-9]*\)\.dlv$$/\1/p' | sort -n | tr '\n' ' ')(docs/reading-path.md)"; exit 2; }
	$(GO) tool dlv test $(DEBUG_PKG) --init $(DEBUG_SCRIPT) -- -test.run "^$(DEBUG_TEST)\$$" -test.count=1 -test.v

debug-headless:
	@test -f "$(DEBUG_SCRIPT)" || { echo "usage: make debug-headless STEP=N (docs/reading-path.md)"; exit 2; }
	@echo "waiting for a debugger client on 127.0.0.1:2345; breakpoints: go tool dlv connect 127.0.0.1:2345 --init $(DEBUG_SCRIPT)"
	$(GO) tool dlv test $(DEBUG_PKG) --headless --listen 127.0.0.1:2345 --api-version 2 --accept-multiclient -- \
		-test.run "^$(DEBUG_TEST)\$$" -test.count=1 -test.v
