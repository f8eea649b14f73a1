package results

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestEnvironmentRoundTrip(t *testing.T) {
	dir := t.TempDir()
	// A run from before environment.json: not there, and not an error.
	if _, ok, err := ReadEnvironment(dir); ok || err != nil {
		t.Fatalf("ReadEnvironment(empty dir) = ok %v, err %v; want false, nil", ok, err)
	}
	want := Environment{CPU: "AMD EPYC", Cores: 2, MemoryBytes: 8 << 30, OS: "linux/amd64", Java: `openjdk version "21"`,
		Go: "go1.26.8", Kafka: []string{"4.3.0"}, Clients: []string{"kafka-clients 4.3.0"}, Prodlab: "v0.3.0",
		Commit: "abc123", StartedAt: "2025-01-02T03:04:05Z"}
	if err := WriteEnvironment(dir, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := ReadEnvironment(dir)
	if err != nil || !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("ReadEnvironment = %+v, %v, %v; want %+v", got, ok, err, want)
	}
	// Written whole: no temporary file is left beside it.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != EnvironmentFile {
		t.Errorf("run dir holds %v, want only %s", entries, EnvironmentFile)
	}
	// A corrupt file is an error naming it, not an empty environment.
	if err := os.WriteFile(filepath.Join(dir, EnvironmentFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadEnvironment(dir); err == nil || !strings.Contains(err.Error(), EnvironmentFile) {
		t.Errorf("corrupt environment.json: err = %v", err)
	}
}

func TestGatherEnvironment(t *testing.T) {
	e := GatherEnvironment(context.Background(), "v1.2.3")
	// What every machine can say; Java and the CPU model may be unknown.
	if e.Cores != runtime.NumCPU() || e.Go != runtime.Version() || e.Prodlab != "v1.2.3" ||
		!strings.HasPrefix(e.OS, runtime.GOOS+"/") || e.StartedAt == "" {
		t.Errorf("GatherEnvironment = %+v", e)
	}
}

func TestPlanRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := ReadPlan(dir); ok || err != nil {
		t.Fatalf("ReadPlan(empty dir) = ok %v, err %v; want false, nil", ok, err)
	}
	want := Plan{Level: 0.95, Margin: 0.05, Precision: 0.02, Comparisons: []PlannedComparison{
		{Question: "Does idempotence cost throughput?", Baseline: "enable.idempotence=true", Candidate: "enable.idempotence=false",
			Published: "Confluent: idempotence costs about 3 %"},
	}}
	if err := WritePlan(dir, want); err != nil {
		t.Fatal(err)
	}
	got, ok, err := ReadPlan(dir)
	if err != nil || !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("ReadPlan = %+v, %v, %v; want %+v", got, ok, err, want)
	}
	// Writing again replaces the file whole.
	want.Comparisons = nil
	if err := WritePlan(dir, want); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := ReadPlan(dir); len(got.Comparisons) != 0 {
		t.Errorf("plan not replaced: %+v", got)
	}
}
