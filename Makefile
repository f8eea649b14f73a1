# prodlab — build, run, test. `make help` lists the targets.
SHELL := /bin/bash
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/prodlab/prodlab/internal/cli.Version=$(VERSION)
GO ?= go
MVN ?= mvn -B -q
WORKER_JAR := java/worker/target/prodlab-worker.jar
WORKER_SRC := $(shell find java/worker/src/main java/worker/pom.xml -type f 2>/dev/null)
AGENT_JAR := java/agent/target/prodlab-agent.jar
AGENT_SRC := $(shell find java/agent/src/main java/agent/pom.xml -type f 2>/dev/null)
EXPERIMENT ?= compression
GOTEST_TIMEOUT ?= 25m
# make test lists the tests slower than this (gotestsum, a go.mod tool), so
# that CI's log says where the suite's time goes.
SLOW_TEST ?= 15s
# make test's two tiers (internal/testtier): the packages holding tests that
# judge timings or measured figures run those alone, one package at a
# time; then every test that only checks behaviour runs side by side,
# SHARED_P packages and SHARED_P tests of a package at once.
QUIET_PKGS = ./internal/lab ./internal/driver ./internal/netem
SHARED_P ?= 2
# The shared tier starts its longest packages first (go test runs packages
# in the order given): with ./... alone, lab (about 5 minutes side by side)
# started 200 s in and ran its last 110 s alone (34427f6's fresh clone, RESULTS §44).
SHARED_PKGS = ./internal/lab ./internal/cluster ./internal/cli ./internal/stats ./internal/driver ./internal/trogdor ./internal/report ./...
# The shared tier's brokers and Java workers compile with C1 only: half a
# broker start's CPU (bench/RESULTS.md §44), and its tests time nothing.
SHARED_JVM_OPTS ?= -XX:TieredStopAtLevel=1

.PHONY: help build run test test-fast test-go test-java bench lint clean gen-librdkafka studies-doc screenshot

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

build: bin/prodlab bin/prodlab-worker.jar bin/prodlab-agent.jar bin/prodlab-librdkafka ## build prodlab, the Java worker, the librdkafka worker and the KIP-1269 agent

bin/prodlab: $(shell find cmd internal experiments -type f) go.mod go.sum
	$(GO) build -ldflags "$(LDFLAGS)" -o $@ ./cmd/prodlab

# The librdkafka worker: confluent-kafka-go with its bundled librdkafka,
# through cgo (a C compiler), compiled only with the build tag librdkafka
# so that bin/prodlab stays free of cgo.
bin/prodlab-librdkafka: $(shell find cmd/prodlab-librdkafka internal -type f) go.mod go.sum
	CGO_ENABLED=1 $(GO) build -tags librdkafka -o $@ ./cmd/prodlab-librdkafka

studies-doc: ## rewrite docs/studies.md from the built-in experiments and the runs kept under bench/studies
	$(GO) run ./bench/benchtool studies bench/studies > docs/studies.md.tmp && mv docs/studies.md.tmp docs/studies.md

screenshot: bin/prodlab ## docs/img/report.png: report.html of the run kept in docs/img/run, by headless Chromium
	scripts/screenshot.sh

gen-librdkafka: bin/prodlab-librdkafka ## rewrite librdkafka's property table from the bundled library
	./bin/prodlab-librdkafka properties > internal/kafkaconf/librdkafka_properties.tsv

bin/prodlab-worker.jar: $(WORKER_SRC)
	@if [ -f java/worker/pom.xml ]; then $(MVN) -f java/worker/pom.xml package -DskipTests && mkdir -p bin && cp $(WORKER_JAR) $@; else mkdir -p bin && touch $@; fi

# The KIP-1269 emulation agent (java/agent): -javaagent of brokers and workers
# when a scenario has a kip1269 section.
bin/prodlab-agent.jar: $(AGENT_SRC)
	$(MVN) -f java/agent/pom.xml package -DskipTests && mkdir -p bin && cp $(AGENT_JAR) $@

run: build ## run the default experiment (EXPERIMENT=compression) on an embedded cluster
	./bin/prodlab run $(EXPERIMENT)

test: build test-go test-java ## build everything and run all tests (what CI runs)

# The edit-test loop: every test that starts no broker, JVM, Trogdor or
# browser (-short skips those), packages in parallel, plus vet and gofmt.
test-fast: ## vet, gofmt and the tests that start nothing (go test -short), in parallel
	$(GO) vet ./...
	@unformatted=$$(gofmt -l cmd internal experiments bench deploy); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) test -short -count=1 ./...

test-go:
	$(GO) vet ./...
	CGO_ENABLED=1 $(GO) vet -tags librdkafka ./internal/driver ./cmd/prodlab-librdkafka
	@unformatted=$$(gofmt -l cmd internal experiments bench deploy); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	@mkdir -p bin; status=0; export PRODLAB_WORKER_JAR=$(CURDIR)/bin/prodlab-worker.jar PRODLAB_LIBRDKAFKA_WORKER=$(CURDIR)/bin/prodlab-librdkafka; \
		echo "quiet tier (alone, one package at a time): $(QUIET_PKGS)"; \
		PRODLAB_TEST_TIER=quiet $(GO) tool gotestsum --format pkgname-and-test-fails --hide-summary skipped --jsonfile bin/test-quiet.json -- -p 1 -count=1 -timeout $(GOTEST_TIMEOUT) $(QUIET_PKGS) || status=$$?; \
		echo "shared tier (side by side: -p $(SHARED_P), -parallel $(SHARED_P), JVMs $(SHARED_JVM_OPTS)): $(SHARED_PKGS)"; \
		PRODLAB_TEST_TIER=shared PRODLAB_BROKER_JVM_OPTS="$(SHARED_JVM_OPTS)" PRODLAB_WORKER_JVM_OPTS="$(SHARED_JVM_OPTS)" $(GO) tool gotestsum --format pkgname-and-test-fails --hide-summary skipped --jsonfile bin/test-shared.json -- -p $(SHARED_P) -parallel $(SHARED_P) -count=1 -timeout $(GOTEST_TIMEOUT) $(SHARED_PKGS) || status=$$?; \
		cat bin/test-quiet.json bin/test-shared.json > bin/test.json; \
		echo "tests over $(SLOW_TEST):"; $(GO) tool gotestsum tool slowest --jsonfile bin/test.json --threshold $(SLOW_TEST); exit $$status
	CGO_ENABLED=1 PRODLAB_LIBRDKAFKA_WORKER=$(CURDIR)/bin/prodlab-librdkafka $(GO) test -tags librdkafka -count=1 -run 'Librdkafka' ./internal/driver

test-java:
	@if [ -f java/worker/pom.xml ]; then mvn -B -ntp -f java/worker/pom.xml test | grep -E "Tests run|FAIL|ERROR|BUILD"; test $${PIPESTATUS[0]} -eq 0; fi
	mvn -B -ntp -f java/agent/pom.xml test | grep -E "Tests run|FAIL|ERROR|BUILD"; test $${PIPESTATUS[0]} -eq 0

bench: build ## paired, interleaved benchmarks; writes bench/RESULTS.md
	./bench/run.sh

lint: ## gofmt, go vet and golangci-lint (installed with go install on first use)
	gofmt -l cmd internal experiments bench deploy
	$(GO) vet ./...
	@command -v golangci-lint >/dev/null || test -x $$($(GO) env GOPATH)/bin/golangci-lint || $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
	PATH=$$($(GO) env GOPATH)/bin:$$PATH golangci-lint run ./...

clean: ## remove build output
	rm -rf bin java/worker/target java/agent/target
