package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
)

// parsePerf runs the perf command's flag parsing and validation on args and
// returns the plan it would run.
func parsePerf(t *testing.T, args ...string) (*perfPlan, error) {
	t.Helper()
	var plan *perfPlan
	c := perfCommand(&perfFlags{}, func(_ *cobra.Command, p *perfPlan) error { plan = p; return nil })
	c.SetArgs(args)
	c.SetOut(&bytes.Buffer{})
	c.SetErr(&bytes.Buffer{})
	c.SilenceUsage, c.SilenceErrors = true, true
	if err := c.Execute(); err != nil {
		return nil, err
	}
	return plan, nil
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPerfFlags(t *testing.T) {
	base := []string{"--topic", "t", "--num-records", "1000", "--record-size", "100"}
	config := writeFile(t, "producer.properties", "# pasted from a client\nacks=1\nlinger.ms = 50\ncompression.type: lz4\n")
	payloads := writeFile(t, "payloads.txt", "alpha,bravo,,charlie")
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, p *perfPlan)
	}{
		{
			// a kafka-producer-perf-test command pasted as is: several values after
			// --producer-props, bootstrap.servers among them
			name: "pasted perf-test command",
			args: []string{"--topic", "t", "--num-records", "1000", "--record-size", "100", "--throughput", "-1",
				"--producer-props", "bootstrap.servers=127.0.0.1:9092,127.0.0.1:9093", "acks=all", "linger.ms=5", "batch.size=65536"},
			check: func(t *testing.T, p *perfPlan) {
				wantProps(t, p, map[string]string{"acks": "all", "linger.ms": "5", "batch.size": "65536", "client.id": perfClientID})
				if strings.Join(p.bootstrap, ",") != "127.0.0.1:9092,127.0.0.1:9093" {
					t.Errorf("bootstrap %v", p.bootstrap)
				}
				if p.rate != 0 || p.records != 1000 || p.recordSize != 100 || p.payload != "text" || p.client != "java" {
					t.Errorf("plan %+v", p)
				}
			},
		},
		{
			// values may contain '=' and ','; the flag may be repeated
			name: "repeated producer-props, values with = and ,",
			args: append(base, "--producer-props", "client.id=a=b", "--producer-props", "ssl.cipher.suites=x,y", "acks=0"),
			check: func(t *testing.T, p *perfPlan) {
				wantProps(t, p, map[string]string{"client.id": "a=b", "ssl.cipher.suites": "x,y", "acks": "0"})
				if p.bootstrap != nil {
					t.Errorf("bootstrap %v, want none (embedded cluster)", p.bootstrap)
				}
			},
		},
		{
			// --producer-props win over --producer.config; --bootstrap-server over both
			name: "producer.config under producer-props",
			args: append(base, "--producer.config", config, "--producer-props", "acks=all", "bootstrap.servers=h:1",
				"--bootstrap-server", "127.0.0.1:9999"),
			check: func(t *testing.T, p *perfPlan) {
				wantProps(t, p, map[string]string{"acks": "all", "linger.ms": "50", "compression.type": "lz4", "client.id": perfClientID})
				if strings.Join(p.bootstrap, ",") != "127.0.0.1:9999" {
					t.Errorf("bootstrap %v", p.bootstrap)
				}
			},
		},
		{
			// --transaction-duration-ms alone enables transactions with a generated id
			name: "transaction duration",
			args: append(base, "--transaction-duration-ms", "500"),
			check: func(t *testing.T, p *perfPlan) {
				if !strings.HasPrefix(p.props["transactional.id"], perfTxIDPrefix) || p.props["transaction.duration.ms"] != "500" {
					t.Errorf("props %v", p.props)
				}
			},
		},
		{
			// --transactional-id wins over the property, duration defaults to 3000 ms
			name: "transactional id",
			args: append(base, "--producer-props", "transactional.id=p", "--transactional-id", "x"),
			check: func(t *testing.T, p *perfPlan) {
				if p.props["transactional.id"] != "x" || p.props["transaction.duration.ms"] != "3000" {
					t.Errorf("props %v", p.props)
				}
			},
		},
		{
			// a throughput limit, warm-up, prodlab's own flags
			name: "throughput, warm-up, client, partitions",
			args: append(base, "--throughput", "2500", "--warmup-records", "100", "--client", "franz-go",
				"--partitions", "3", "--payload", "json", "--print-metrics"),
			check: func(t *testing.T, p *perfPlan) {
				if p.rate != 2500 || p.warmup != 100 || p.client != "franz-go" || p.partitions != 3 || p.payload != "json" || !p.printMetrics {
					t.Errorf("plan %+v", p)
				}
			},
		},
		{
			// a record above 1 MiB is fine when the client may send it and
			// the cluster is the user's own
			name: "large record, raised limit, own cluster",
			args: []string{"--topic", "t", "--num-records", "1", "--record-size", "4000000",
				"--producer-props", "max.request.size=4000082", "--bootstrap-server", "[::1]:9092,h:9093"},
			check: func(t *testing.T, p *perfPlan) {
				if p.recordSize != 4000000 || strings.Join(p.bootstrap, ",") != "[::1]:9092,h:9093" {
					t.Errorf("plan %+v", p)
				}
			},
		},
		{
			// a payload file split at a delimiter; empty payloads are skipped
			name: "payload file",
			args: []string{"--topic", "t", "--num-records", "10", "--payload-file", payloads, "--payload-delimiter", ","},
			check: func(t *testing.T, p *perfPlan) {
				if !strings.HasPrefix(p.payload, "file:") || len(p.fileSizes) != 3 || p.recordSize != 0 {
					t.Fatalf("plan %+v", p)
				}
				// alpha bravo charlie alpha bravo charlie ... (10 records)
				if got := p.request().ValueBytes(10); got != 3*(5+5+7)+5 {
					t.Errorf("valueBytes(10) = %d", got)
				}
				if _, err := os.Stat(strings.TrimPrefix(p.payload, "file:")); !os.IsNotExist(err) {
					t.Errorf("temporary payload file not removed after the run: %v", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parsePerf(t, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, p)
		})
	}
}

func wantProps(t *testing.T, p *perfPlan, want map[string]string) {
	t.Helper()
	if len(p.props) != len(want) {
		t.Errorf("props %v, want %v", p.props, want)
		return
	}
	for k, v := range want {
		if p.props[k] != v {
			t.Errorf("props %v, want %v", p.props, want)
			return
		}
	}
}

func TestPerfFlagErrors(t *testing.T) {
	base := []string{"--topic", "t", "--num-records", "1000", "--record-size", "100"}
	payloads := writeFile(t, "p.txt", "x\n")
	tests := []struct {
		name string
		args []string
		want string // part of the message
	}{
		{"no topic", []string{"--num-records", "1", "--record-size", "1"}, "--topic is required"},
		{"no num-records", []string{"--topic", "t", "--record-size", "1"}, "--num-records is required"},
		{"zero records", []string{"--topic", "t", "--num-records", "0", "--record-size", "1"}, "greater than zero"},
		{"no payload", []string{"--topic", "t", "--num-records", "1"}, "either --record-size or --payload-file"},
		{"both payloads", append(base, "--payload-file", payloads), "not both"},
		{"warm-up too long", append(base, "--warmup-records", "1000"), "must be fewer than --num-records"},
		{"throughput zero", append(base, "--throughput", "0"), "--throughput"},
		{"stray argument", append(base, "acks=all"), "unexpected argument"},
		{"not NAME=VALUE", append(base, "--producer-props", "acks"), "not NAME=VALUE"},
		{"unknown client", append(base, "--client", "rdkafka"), "--client must be"},
		{"bad payload kind", append(base, "--payload", "zeros"), "--payload must be"},
		{"missing config file", append(base, "--producer.config", "/nonexistent/p.properties"), "--producer.config"},
		{"franz-go cannot honour", append(base, "--client", "franz-go", "--producer-props", "send.buffer.bytes=1000"), "not supported by client franz-go"},
		{"bad duration", append(base, "--transaction-duration-ms", "0"), "--transaction-duration-ms"},
		{"unknown flag", append(base, "--nope"), "unknown flag"},
		// bootstrap lists are checked before anything starts, under the
		// name they were given as, never read as "no list"
		{"bootstrap without port", append(base, "--bootstrap-server", "foo"), `--bootstrap-server: address "foo" has no port: write HOST:PORT, e.g. foo:9092`},
		{"bootstrap IP without port", append(base, "--bootstrap-server", "127.0.0.1"), "e.g. 127.0.0.1:9092"},
		{"bootstrap port out of range", append(base, "--bootstrap-server", "127.0.0.1:99999"), "1..65535"},
		{"bootstrap only a comma", append(base, "--bootstrap-server", ","), "--bootstrap-server: address 1"},
		{"bootstrap given empty", append(base, "--bootstrap-server", ""), "--bootstrap-server: no address given"},
		{"bootstrap.servers property", append(base, "--producer-props", "bootstrap.servers=,"), "bootstrap.servers: address 1"},
		// producer properties are checked as prodlab run checks them
		{"acks=2", append(base, "--producer-props", "acks=2"), `--producer-props acks=2: acks must be one of 0, 1, -1, all, got "2"`},
		{"property typo", append(base, "--producer-props", "lingr.ms=5"), `did you mean "linger.ms"?`},
		{"integer property not a number", append(base, "--producer-props", "batch.size=big"), "batch.size must be an integer"},
		{"boolean property", append(base, "--producer-props", "enable.idempotence=yes"), "enable.idempotence must be true or false"},
		{"bad property in config file", append(base, "--producer.config", writeFile(t, "bad.properties", "acks=7\n")), "bad.properties: acks=7: acks must be one of"},
		// a record that cannot fit in a request, or in the embedded broker
		{"record larger than max.request.size", []string{"--topic", "t", "--num-records", "1", "--record-size", "104857600"}, "raise it with --producer-props max.request.size=104857682"},
		{"franz-go record larger than batch.size", []string{"--topic", "t", "--num-records", "1", "--record-size", "2000000", "--client", "franz-go"}, "--producer-props batch.size=2000082"},
		{"record larger than the embedded broker", []string{"--topic", "t", "--num-records", "1", "--record-size", "2000000", "--producer-props", "max.request.size=4000000"}, "message.max.bytes 1048588"},
		{"payload larger than max.request.size", []string{"--topic", "t", "--num-records", "1", "--payload-file", writeFile(t, "big.txt", strings.Repeat("x", 1<<20))}, "--payload-file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"perf"}, tt.args...), &stdout, &stderr)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d; stderr: %s", code, ExitUsage, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q does not mention %q", stderr.String(), tt.want)
			}
		})
	}
}

// TestPerfSecretsNeverPrinted: secrets from --producer.config must not
// appear in any output, whether prodlab prints the properties, an error
// names them, or a client's message quotes them.
func TestPerfSecretsNeverPrinted(t *testing.T) {
	const jaasPW, trustPW = "s3cr3t-jaas-pw", "trust-store-pw"
	config := writeFile(t, "client.properties", strings.Join([]string{
		"security.protocol=SASL_SSL",
		"sasl.mechanism=PLAIN",
		`sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="` + jaasPW + `";`,
		"ssl.truststore.password=" + trustPW,
	}, "\n"))
	args := []string{"--topic", "t", "--num-records", "10", "--record-size", "10", "--producer.config", config}
	leaks := func(t *testing.T, what, s string) {
		t.Helper()
		for _, secret := range []string{jaasPW, trustPW} {
			if strings.Contains(s, secret) {
				t.Errorf("%s contains a secret: %s", what, s)
			}
		}
	}

	// franz-go takes the SASL properties too; against a cluster that is
	// not there (nothing starts) it fails, and nothing it prints may leak.
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"perf", "--client", "franz-go", "--bootstrap-server", "127.0.0.1:1"}, args...), &stdout, &stderr); code == ExitOK {
		t.Errorf("exit 0 against no cluster (%s)", stderr.String())
	}
	leaks(t, "output", stdout.String()+stderr.String())

	// The Java client accepts them: the plan prints them masked, and any
	// message (say, the client quoting a value) is redacted.
	p, err := parsePerf(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	desc := app.DescribeProps(p.props)
	leaks(t, "property listing", desc)
	if !strings.Contains(desc, "sasl.jaas.config=[hidden]") || !strings.Contains(desc, "security.protocol=SASL_SSL") {
		t.Errorf("property listing %q", desc)
	}
	clientErr := errors.New(`Invalid value ` + p.props["sasl.jaas.config"] + ` for sasl.jaas.config; also saw ` + trustPW)
	leaks(t, "error", p.redact.err(clientErr).Error())
	var out bytes.Buffer
	_, _ = p.redact.writer(&out).Write([]byte("login with password " + jaasPW + "\n"))
	leaks(t, "written line", out.String())
	if out.String() != "login with password [hidden]\n" {
		t.Errorf("redacted line %q", out.String())
	}
}

func TestSplitPayloadFile(t *testing.T) {
	tests := []struct {
		name, content, delimiter string
		want                     string // the file written for package payload
		wantErr                  bool
	}{
		// perf-test's default delimiter, as typed on its command line
		{"default", "a\nbb\r\n\nccc\n", `\n`, "a\nbb\nccc\n", false},
		// a regular expression, as perf-test's Scanner takes it
		{"regexp", "x1;y22;;z", `;+`, "x1\ny22\nz\n", false},
		// payloads with line breaks cannot be replayed line by line
		{"line break in payload", "a\nb|c", `\|`, "", true},
		// nothing but delimiters
		{"empty payloads", ",,,", ",", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, sizes, err := splitPayloadFile(writeFile(t, "p", tt.content), tt.delimiter)
			if tt.wantErr {
				if err == nil {
					t.Errorf("no error, payloads %v", sizes)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(filepath.Dir(path))
			b, _ := os.ReadFile(path)
			if string(b) != tt.want {
				t.Errorf("wrote %q, want %q", b, tt.want)
			}
		})
	}
}
