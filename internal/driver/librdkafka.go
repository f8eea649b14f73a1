package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// librdkafka, the C client under confluent-kafka-python, -dotnet, -go,
// Confluent's JavaScript client and rust-rdkafka, runs in a worker process
// of its own (cmd/prodlab-librdkafka, built with cgo and the build tag
// librdkafka), which speaks the worker protocol. prodlab's own binary
// stays free of cgo: this file holds what it needs before and around a
// trial (the settings, the check, the worker's start); librdkafka_run.go,
// compiled into the worker only, runs the trials.

// LibrdkafkaWorkerEnv names the librdkafka worker's executable, overriding
// the search next to the Java worker jar and to prodlab's own executable.
const LibrdkafkaWorkerEnv = "PRODLAB_LIBRDKAFKA_WORKER"

// librdkafkaWorkerName is the worker executable's file name.
const librdkafkaWorkerName = "prodlab-librdkafka"

func init() {
	register(clients.Librdkafka, kind{
		check: func(name string, props map[string]string) error { return CheckLibrdkafka(name, props, "") },
		start: func(ctx context.Context, _ string, workerJar, logDir string) (Driver, error) {
			return startLibrdkafka(ctx, LibrdkafkaWorker(workerJar), logDir)
		},
		notes: librdkafkaNotes,
	})
}

// LibrdkafkaWorker finds the librdkafka worker: $PRODLAB_LIBRDKAFKA_WORKER,
// beside the Java worker jar (bin/ after make build), beside prodlab's own
// executable, or bin/ of the source tree.
func LibrdkafkaWorker(workerJar string) string {
	if p := os.Getenv(LibrdkafkaWorkerEnv); p != "" {
		return p
	}
	var near []string
	if workerJar != "" {
		near = append(near, filepath.Join(filepath.Dir(workerJar), librdkafkaWorkerName))
	}
	if exe, err := os.Executable(); err == nil {
		near = append(near, filepath.Join(filepath.Dir(exe), librdkafkaWorkerName))
	}
	for _, p := range near {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return filepath.Join("bin", librdkafkaWorkerName)
}

// startLibrdkafka starts the worker at path and shakes hands with it.
func startLibrdkafka(ctx context.Context, path, logDir string) (Driver, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, missingLibrdkafkaWorker(path)
	}
	cmd := exec.Command(path, "serve")
	check := func(name string, props map[string]string) error { return CheckLibrdkafka(name, props, path) }
	return startWorker(ctx, clients.Librdkafka, clients.LibrdkafkaRelease, check, cmd, logDir, "librdkafka.log")
}

func missingLibrdkafkaWorker(path string) error {
	return fmt.Errorf("client librdkafka needs its worker, which is not at %s: build it with 'make build' (cgo and a C compiler; or point %s at it)", path, LibrdkafkaWorkerEnv)
}

// librdkafkaRefused are settings with no librdkafka counterpart prodlab
// could pass, with the reason.
var librdkafkaRefused = map[string]string{
	// The worker reads its batch, request and byte counters from these
	// reports; another interval (0 turns them off) would leave them wrong.
	"statistics.interval.ms": "prodlab's librdkafka worker sets it to read the client's batch, request and byte counters",
	"key.serializer":         "librdkafka takes raw bytes, as prodlab sends them",
	// Every record's delivery report is its acknowledgement: its latency,
	// its place in the audit, and what a flush waits for.
	"delivery.report.only.error": "prodlab's librdkafka worker counts every record by its delivery report",
	"dr_msg_cb":                  "prodlab's librdkafka worker reads delivery reports itself",
	"dr_cb":                      "prodlab's librdkafka worker reads delivery reports itself",
	"value.serializer":           "librdkafka takes raw bytes, as prodlab sends them",
}

// LibrdkafkaConfig turns producer properties into librdkafka's
// configuration: librdkafka's own names (and the Java names it shares,
// acks, linger.ms, batch.size, …) pass as written; the security properties
// prodlab's clusters give in the Java client's terms (a PEM truststore,
// a SCRAM login in sasl.jaas.config) become librdkafka's; anything else is
// refused, naming the nearest setting librdkafka has.
func LibrdkafkaConfig(props map[string]string) (map[string]string, error) {
	conf := map[string]string{}
	var errs []error
	sec := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		v := strings.TrimSpace(props[k])
		switch {
		case strings.HasPrefix(k, "ssl.truststore.") || k == "sasl.jaas.config" || k == "ssl.endpoint.identification.algorithm":
			sec[k] = v
		case slices.Contains(kafkaconf.TransactionSettings, k):
			// prodlab's own transaction schedule: the driver keeps it
			// (txnSchedule), librdkafka never sees it.
		case librdkafkaRefused[k] != "":
			errs = append(errs, errors.New(kafkaconf.RefuseFor(k, clients.Librdkafka, "", librdkafkaRefused[k])))
		default:
			p, ok := kafkaconf.Librdkafka(k)
			if !ok {
				errs = append(errs, errors.New(kafkaconf.RefuseFor(k, clients.Librdkafka, librdkafkaNearest(k), "")))
				continue
			}
			val := librdkafkaValue(p, v)
			if err := p.CheckValue(val); err != nil {
				errs = append(errs, err)
				continue
			}
			conf[k] = val
		}
	}
	if err := librdkafkaSecurity(sec, conf); err != nil {
		errs = append(errs, err)
	}
	return conf, errors.Join(errs...)
}

// librdkafkaNearest is the librdkafka setting nearest to name.
func librdkafkaNearest(name string) string {
	has := func(n string) bool { _, ok := kafkaconf.Librdkafka(n); return ok }
	return kafkaconf.Nearest(name, has, kafkaconf.LibrdkafkaNames())
}

// librdkafkaValue is v as librdkafka reads property p: the Java spelling
// of an enumerated value (security.protocol SASL_SSL, acks all) in
// librdkafka's.
func librdkafkaValue(p kafkaconf.LibrdkafkaProp, v string) string {
	switch p.Canonical() {
	case "security.protocol":
		return strings.ToLower(v)
	case "request.required.acks":
		if v == "all" {
			return "-1"
		}
	}
	return v
}

// librdkafkaSecurity translates the Java client's security properties of
// sec into librdkafka's in conf.
func librdkafkaSecurity(sec, conf map[string]string) error {
	if len(sec) == 0 {
		return nil
	}
	var errs []error
	trustType := strings.ToUpper(sec["ssl.truststore.type"])
	if trustType != "" && trustType != "PEM" {
		errs = append(errs, fmt.Errorf("ssl.truststore.type=%s is not readable by client librdkafka: give a PEM truststore (ssl.truststore.type=PEM) or librdkafka's ssl.ca.location", trustType))
	}
	for _, k := range slices.Sorted(maps.Keys(sec)) {
		v := sec[k]
		switch k {
		case "ssl.truststore.type":
		case "ssl.truststore.certificates":
			conf["ssl.ca.pem"] = v
		case "ssl.truststore.location":
			conf["ssl.ca.location"] = v
		case "ssl.endpoint.identification.algorithm":
			if v == "" {
				v = "none"
			}
			conf[k] = v
		case "sasl.jaas.config":
			user, pass := jaasLogin(v)
			if user == "" {
				errs = append(errs, errors.New("sasl.jaas.config: no username=\"…\" found (client librdkafka needs a login module line with username and password, or its own sasl.username and sasl.password)"))
				continue
			}
			conf["sasl.username"], conf["sasl.password"] = user, pass
		default:
			errs = append(errs, errors.New(kafkaconf.RefuseFor(k, clients.Librdkafka, librdkafkaNearest(k), "")))
		}
	}
	return errors.Join(errs...)
}

// jaasLogin reads the username and password of a JAAS login module line.
func jaasLogin(jaas string) (user, pass string) {
	for _, m := range jaasOption.FindAllStringSubmatch(jaas, -1) {
		switch m[1] {
		case "username":
			user = m[2]
		case "password":
			pass = m[2]
		}
	}
	return user, pass
}

// CheckLibrdkafka refuses, before anything starts, producer properties
// client librdkafka (name as written) does not have or whose values or
// combination it refuses: the names by prodlab's table of librdkafka's
// settings, the values and the rules between them (idempotence with acks
// other than all or more than 5 in flight, a transactional.id with
// idempotence off, …) by the bundled librdkafka itself, through its worker
// (worker "" finds it with LibrdkafkaWorker).
func CheckLibrdkafka(name string, props map[string]string, worker string) error {
	if _, err := clients.Parse(name); err != nil { // another release: the error names the bundled one
		return err
	}
	conf, err := LibrdkafkaConfig(props)
	if err != nil {
		return err
	}
	if worker == "" {
		worker = LibrdkafkaWorker("")
	}
	_, err = librdkafkaResolveVia(worker, conf)
	return err
}

// LibrdkafkaRefusedExit is the exit status of the worker's check command
// when librdkafka refuses the configuration (its reason on stderr); any
// other failure (a panic exits 2, a crash by signal) is the worker's own.
const LibrdkafkaRefusedExit = 4

// librdkafkaCheckTimeout bounds the worker's check command.
const librdkafkaCheckTimeout = 20 * time.Second

// librdkafkaChecked remembers the worker's answer per worker path and
// configuration, so that a plan of many scenarios with the same producer
// settings starts the worker once, not once per scenario.
var librdkafkaChecked struct {
	mu  sync.Mutex
	ans map[string]librdkafkaAnswer
}

type librdkafkaAnswer struct {
	resolved map[string]string
	err      error
}

// librdkafkaResolveVia asks the worker at path to build a producer
// configuration from conf (`prodlab-librdkafka check`): librdkafka's
// resolved configuration, or its refusal as an error. A worker that could
// not answer (missing, timed out) is not remembered.
func librdkafkaResolveVia(path string, conf map[string]string) (map[string]string, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, missingLibrdkafkaWorker(path)
	}
	in, err := json.Marshal(conf) // map keys sorted: one key per configuration
	if err != nil {
		return nil, fmt.Errorf("librdkafka check: %w", err)
	}
	key := path + "\x00" + string(in)
	librdkafkaChecked.mu.Lock()
	a, ok := librdkafkaChecked.ans[key]
	librdkafkaChecked.mu.Unlock()
	if ok {
		return a.resolved, a.err
	}
	resolved, final, err := librdkafkaRunCheck(path, in)
	if final {
		librdkafkaChecked.mu.Lock()
		if librdkafkaChecked.ans == nil {
			librdkafkaChecked.ans = map[string]librdkafkaAnswer{}
		}
		librdkafkaChecked.ans[key] = librdkafkaAnswer{resolved, err}
		librdkafkaChecked.mu.Unlock()
	}
	return resolved, err
}

// librdkafkaRunCheck runs the worker's check on the configuration in;
// final says the answer is librdkafka's own (a resolution or a refusal),
// worth remembering.
func librdkafkaRunCheck(path string, in []byte) (resolved map[string]string, final bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), librdkafkaCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "check")
	cmd.Stdin = bytes.NewReader(in)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		msg := textfmt.Foreign(strings.TrimSpace(errOut.String()))
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == LibrdkafkaRefusedExit && msg != "" && ctx.Err() == nil {
			return nil, true, fmt.Errorf("client librdkafka refuses these producer properties: %s", msg)
		}
		// A crash, a timeout or a kill is the worker's failure, not
		// librdkafka's answer, and is not remembered.
		if msg != "" {
			return nil, false, fmt.Errorf("librdkafka check (%s) failed: %w: %s", path, err, msg)
		}
		return nil, false, fmt.Errorf("librdkafka check (%s) failed: %w", path, err)
	}
	if err := json.Unmarshal(out.Bytes(), &resolved); err != nil {
		return nil, false, fmt.Errorf("librdkafka check wrote %.200q: %w", out.String(), err)
	}
	return resolved, true, nil
}

// librdkafkaNotes is librdkafka's kind.notes: the canonical name of each
// setting the file writes by an alias (linger.ms is
// queue.buffering.max.ms), as its effective configuration names it.
func librdkafkaNotes(props map[string]string) (string, map[string]string) {
	per := map[string]string{}
	for k := range props {
		if p, ok := kafkaconf.Librdkafka(k); ok && p.Canonical() != k {
			per[k] = "librdkafka: " + p.Canonical()
		}
	}
	if len(per) == 0 {
		return "", nil
	}
	return "The client is librdkafka: above a property it knows by another name, that name (as its effective configuration shows it).", per
}
