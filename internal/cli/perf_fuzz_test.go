package cli

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// fuzzSecret is a password the fuzzed properties always carry: no
// refusal may print it.
const fuzzSecret = "FUZZ-s3cr3t-VALUE"

// FuzzPerfFlags drives `prodlab perf`'s flag parsing and checks (never
// its run) with mutated counts, rates, properties and a producer.config
// file. Nothing may panic or hang; a refusal is a usage error (exit 2)
// whose message is bounded, printable and free of the secret; an accepted
// plan is one a run can honour. Under plain `go test` only the seeds run;
//
//	go test -run '^$' -fuzz FuzzPerfFlags -fuzztime 60s ./internal/cli
func FuzzPerfFlags(f *testing.F) {
	f.Add("100000", "1024", "-1", "acks=all linger.ms=5", "compression.type=lz4\n", "0")
	f.Add("1000", "100", "5000", "batch.size=65536", "# comment\nlinger.ms : 50\nkey\\\n  continued=1\r\n", "100")
	f.Add("10", "0", "NaN", "acks=2", "\\u0041cks=1\n", "20")
	f.Add("-1", "50", "+Inf", "=x", strings.Repeat("a", 1<<12), "5")
	f.Add("1e9", "9999999", "1", "transactional.id=t acks=1", "enable.idempotence=false\n", "-3")
	f.Add("5", "5", "0", "max.in.flight.requests.per.connection=9", "\x00\x01binary", "4")
	f.Fuzz(func(t *testing.T, records, size, rate, props, config, warmup string) {
		dir := t.TempDir()
		file := filepath.Join(dir, "producer.properties")
		if err := os.WriteFile(file, []byte("ssl.key.password="+fuzzSecret+"\n"+config), 0o600); err != nil {
			t.Fatal(err)
		}
		args := []string{"--client", "franz-go", "--topic", "t", "--num-records", records, "--record-size", size,
			"--throughput", rate, "--warmup-records", warmup, "--producer.config", file, "--producer-props"}
		args = append(args, strings.Fields(props)...)
		plan, err := parsePerfBounded(t, args)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		checkPlan(t, plan)
	})
}

// parsePerfBounded is parsePerf with the root command's flag errors,
// failing the test when it takes more than 5 s (a hang).
func parsePerfBounded(t *testing.T, args []string) (*perfPlan, error) {
	type answer struct {
		p   *perfPlan
		err error
	}
	done := make(chan answer, 1)
	go func() {
		var plan *perfPlan
		c := perfCommand(&perfFlags{}, func(_ *cobra.Command, p *perfPlan) error { plan = p; return nil })
		c.SetFlagErrorFunc(flagError) // as under the root command
		c.SetArgs(args)
		c.SetOut(io.Discard)
		c.SetErr(io.Discard)
		c.SilenceUsage, c.SilenceErrors = true, true
		err := c.Execute()
		done <- answer{plan, err}
	}()
	select {
	case a := <-done:
		return a.p, a.err
	case <-time.After(10 * time.Second):
		t.Fatalf("perf %q did not answer within 10 s", args)
		return nil, nil
	}
}

// checkRefusal holds a refusal to what a user can act on.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	msg := err.Error()
	switch {
	case exitCode(err) != ExitUsage:
		t.Errorf("refused with exit %d, want %d: %v", exitCode(err), ExitUsage, err)
	case len(msg) > 16<<10:
		t.Errorf("a refusal of %d bytes", len(msg))
	case strings.Contains(msg, fuzzSecret):
		t.Errorf("the refusal shows the password: %s", msg)
	case strings.ContainsFunc(msg, func(r rune) bool { return r < ' ' && r != '\n' && r != '\t' }):
		t.Errorf("the refusal holds control characters: %q", msg)
	}
}

// checkPlan holds an accepted plan to what a run can honour.
func checkPlan(t *testing.T, p *perfPlan) {
	t.Helper()
	switch {
	case p.records <= 0 || p.warmup < 0 || p.warmup >= p.records:
		t.Errorf("accepted records %d with warm-up %d", p.records, p.warmup)
	case p.recordSize <= 0 && p.fileSizes == nil:
		t.Errorf("accepted a record size of %d without a payload file", p.recordSize)
	case !(p.rate >= 0) || math.IsInf(p.rate, 0):
		t.Errorf("accepted a rate of %v", p.rate)
	case p.props["ssl.key.password"] != fuzzSecret:
		t.Errorf("the producer.config's password did not reach the plan")
	}
}

// FuzzJavaProperties feeds arbitrary bytes to the --producer.config
// reader: no panic, no hang, and a refusal bounded and printable.
//
//	go test -run '^$' -fuzz FuzzJavaProperties -fuzztime 60s ./internal/cli
func FuzzJavaProperties(f *testing.F) {
	f.Add([]byte("# c\n! c\nacks=all\nlinger.ms : 5\nbatch.size 1024\nk\\\n  v=1\r\n\\u00e9=x\n"))
	f.Add([]byte("a=\\u00\n"))
	f.Add([]byte("\xff\xfe"))
	f.Add([]byte(strings.Repeat("=", 1000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "p.properties")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err := readJavaProperties(path)
		if d := time.Since(start); d > 10*time.Second { // a hang guard
			t.Errorf("reading %d bytes took %v", len(data), d)
		}
		if err != nil && (len(err.Error()) > 4<<10 ||
			strings.ContainsFunc(err.Error(), func(r rune) bool { return r < ' ' && r != '\n' && r != '\t' })) {
			t.Errorf("refusal not bounded or not printable: %q", err.Error())
		}
	})
}
