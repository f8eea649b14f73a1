package lab

import (
	"context"
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/testjar"
	"github.com/prodlab/prodlab/internal/testtier"
)

// checkCleanRecords fails the test unless every measured record is ok,
// acknowledged all want records and was audited clean; it returns the
// measured records by scenario id.
func checkCleanRecords(t *testing.T, recs []results.Record, want int64) map[string]results.Record {
	t.Helper()
	by := map[string]results.Record{}
	for _, r := range recs {
		if r.Warmup {
			continue
		}
		by[r.ScenarioID] = r
		if r.Status != results.StatusOK || r.Records.Acked != want {
			t.Errorf("%s: status %s (%s), %+v", r.ScenarioID, r.Status, r.Error, r.Records)
			continue
		}
		checkAudit(t, r, want)
		t.Logf("%s: %.0f records/s, p99 %.2f ms", r.ScenarioID, r.Throughput.RecordsPerS, r.LatencyMs.P99)
	}
	return by
}

// TestSecurityEveryClient runs every client kind against embedded TLS and
// SCRAM-over-TLS clusters, directly and through the (passthrough) proxies:
// every record delivered and audited clean, the client's security
// settings recorded but not its secrets.
func TestSecurityEveryClient(t *testing.T) {
	testtier.Shared(t)
	needCluster(t)
	testjar.LibrdkafkaWorker(t)
	recs, err := runYAML(t, `
name: security
workload: {records: 3000, record.size: 256, payload: random}
audit: true
matrix:
  security: [ssl, sasl_ssl]
  client: [java, franz-go, librdkafka]
  network.proxy: [false, true]
`, false)
	if err != nil {
		t.Fatal(err)
	}
	by := checkCleanRecords(t, recs, 3000)
	if len(by) != 12 {
		t.Errorf("%d scenarios measured, want 12", len(by))
	}
	for id, r := range by {
		if r.EffectiveConfig["security.protocol"] == "" {
			t.Errorf("%s: security.protocol not in the effective config", id)
		}
		if strings.Contains(id, "librdkafka") && strings.Contains(id, "sasl_ssl") && r.EffectiveConfig["sasl.password"] != secret.Hidden {
			t.Errorf("%s: librdkafka's sasl.password recorded as %q, want hidden", id, r.EffectiveConfig["sasl.password"])
		}
		if false {
			t.Errorf("%s: security.protocol not in the effective config", id)
		}
		for k, v := range r.EffectiveConfig {
			if secret.IsKey(k) && v != secret.Hidden {
				t.Errorf("%s: secret %s recorded in clear", id, k)
			}
		}
		if strings.Contains(id, "network.proxy=true") && !math.IsNaN(results.NetworkFigures(r.Network).ProduceRequests) {
			t.Errorf("%s: produce requests counted through TLS: %v", id, r.Network)
		}
	}
}

// TestSecurityBootstrap reaches a SCRAM-over-TLS cluster as an existing
// one (--bootstrap), secured by producer properties alone: both clients
// produce and prodlab's admin client and audit log in with the same
// properties. A wrong password is refused before any trial, naming SASL.
func TestSecurityBootstrap(t *testing.T) {
	testtier.Shared(t)
	needCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := cluster.Start(ctx, cluster.Config{Brokers: 1, Dir: t.TempDir(), Security: cluster.SecuritySASLSSL})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Stop() }()
	tests := []struct {
		name    string
		pass    func(string) string
		wantErr string
	}{
		{"right password", func(p string) string { return p }, ""},
		{"wrong password", func(string) string { return "Xq7-not-it" }, "SASL authentication failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			props := maps.Clone(c.ClientProps())
			props["sasl.jaas.config"] = fmt.Sprintf(`org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";`,
				cluster.ScramUser, tt.pass(passwordOf(c.ClientProps()["sasl.jaas.config"])))
			src := "name: bootstrap-security\nworkload: {records: 2000, record.size: 256, payload: random}\naudit: true\nproducer:\n"
			for _, k := range []string{"security.protocol", "ssl.truststore.type", "ssl.truststore.certificates", "sasl.mechanism", "sasl.jaas.config"} {
				src += fmt.Sprintf("  %s: %q\n", k, props[k])
			}
			src += "matrix: {client: [java, franz-go]}\n"
			recs, log, err := runOn(t, src, c.Bootstrap())
			if tt.wantErr != "" {
				// The run fails, every trial is recorded as not run, and
				// the log says which step failed, without the password.
				if err == nil || !strings.Contains(log, tt.wantErr) {
					t.Fatalf("run error %v, log without %q", err, tt.wantErr)
				}
				if strings.Contains(log, "Xq7-not-it") {
					t.Errorf("the password is in the log")
				}
				for _, r := range recs {
					if r.Status != results.StatusFailed {
						t.Errorf("%s: status %s, want failed", r.ScenarioID, r.Status)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkCleanRecords(t, recs, 2000)
		})
	}
	t.Run("wrong password, each client directly", func(t *testing.T) { wrongPasswordEveryClient(t, c) })
}

// wrongPasswordEveryClient is the conformance suite's authentication
// failure (issue 45), on the SCRAM-over-TLS cluster c: each client kind,
// given a wrong password and run directly (no preflight to refuse it
// first), fails within a minute with an error or failed records that say
// authentication failed, and never shows the password.
func wrongPasswordEveryClient(t *testing.T, c *cluster.Cluster) {
	props := maps.Clone(c.ClientProps())
	props["acks"] = "all"
	props["sasl.jaas.config"] = fmt.Sprintf(`org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="Xq7-not-it";`, cluster.ScramUser)
	testjar.LibrdkafkaWorker(t)
	for _, k := range clients.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			d, err := driver.New(ctx, k.Name, c.Version(), workerJarForTest(t), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = d.Close() }()
			start := time.Now()
			res, err := d.Run(ctx, driver.Trial{Bootstrap: c.Bootstrap(), Topic: "wrong-password", Records: 10, RecordSize: 10,
				Payload: "random", Timeout: 20 * time.Second, Settings: kafkaconf.Decode(props)})
			took := time.Since(start)
			msg := ""
			if err != nil {
				msg = err.Error()
			} else if res != nil {
				msg = fmt.Sprint(res.Errors)
			}
			t.Logf("%s after %s: %q", k.Name, took.Round(time.Millisecond), msg)
			switch {
			case err == nil && (res == nil || res.Failed == 0):
				t.Errorf("wrong password: result %+v and no error, want an error or failed records", res)
			case !strings.Contains(strings.ToLower(msg), "authentication"):
				t.Errorf("wrong password: %q does not say authentication failed", msg)
			case strings.Contains(msg, "Xq7-not-it"):
				t.Errorf("the password is in the error")
			}
			if took > time.Minute {
				t.Errorf("a wrong password took %s to fail", took)
			}
		})
	}
}

// passwordOf reads password="…" out of a JAAS line.
func passwordOf(jaas string) string {
	_, rest, _ := strings.Cut(jaas, `password="`)
	pass, _, _ := strings.Cut(rest, `"`)
	return pass
}

// runOn plans and runs src against the cluster at bootstrap, and returns
// its records, its log and its error.
func runOn(t *testing.T, src string, bootstrap []string) ([]results.Record, string, error) {
	t.Helper()
	exp, scs := planYAML(t, t.Name()+".yaml", src)
	dir := t.TempDir()
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, runErr := Run(ctx, exp, scs, Options{Dir: dir, WorkerJar: workerJarForTest(t), Bootstrap: bootstrap, Log: &log})
	recs, err := results.Read(dir)
	if err != nil && runErr == nil {
		t.Fatal(err)
	}
	t.Logf("run log:\n%s", log.String())
	return recs, log.String(), runErr
}

// TestCheckExternalSecurity: what an existing cluster cannot do with
// security is refused before anything starts.
func TestCheckExternalSecurity(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"plaintext", "name: x\n", ""},
		{"tls props direct", "name: x\nproducer: {security.protocol: SSL}\n", ""},
		{"cluster.security", "name: x\ncluster: {security: ssl}\n", "cluster.security secures the listener of brokers prodlab starts"},
		{"tls props behind proxies", "name: x\nproducer: {security.protocol: SASL_SSL}\nnetwork: {rtt.ms: 10}\n", "the proxies cannot rewrite broker addresses inside TLS"},
		{"sasl_plaintext behind proxies", "name: x\nproducer: {security.protocol: SASL_PLAINTEXT}\nnetwork: {rtt.ms: 10}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, scs := planYAML(t, "x.yaml", tt.src)
			err := CheckExternal(scs)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("CheckExternal = %v, want %q", err, tt.want)
			}
		})
	}
}
