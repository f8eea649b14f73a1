package lab

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/testtier"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestTopicFiles: a topic's partition directories, live or renamed for
// deletion, are found by name, and no other topic's are.
func TestTopicFiles(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"t-1-0", "t-1-1.abc123-delete", "t-12-0", "other-0", "__cluster_metadata-0"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := topicFiles([]string{dir, filepath.Join(dir, "missing")}, "t-1")
	if len(got) != 2 || filepath.Base(got[0]) != "t-1-0" || filepath.Base(got[1]) != "t-1-1.abc123-delete" {
		t.Errorf("topicFiles = %v, want t-1-0 and t-1-1.abc123-delete", got)
	}
}

// TestAwaitTopicGone: on a real broker, a topic written and deleted leaves
// its log directory within topicGoneWait, and the wait sees it go; the
// wait is not met trivially (the files were there first).
func TestAwaitTopicGone(t *testing.T) {
	testtier.Shared(t)
	c := needCluster(t)
	adm, err := cluster.NewAdmin(c.Bootstrap())
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	topic := "prodlab-topicgone-" + time.Now().Format("150405.000000")
	if err := adm.CreateTopic(ctx, topic, 2, 1, nil); err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Bootstrap()...), kgo.DefaultProduceTopic(topic))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		cl.Produce(ctx, &kgo.Record{Value: make([]byte, 1000), Partition: int32(i % 2)}, nil)
	}
	if err := cl.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	cl.Close()
	if left := topicFiles(c.LogDirs(), topic); len(left) != 2 {
		t.Fatalf("before the delete: %v, want 2 partition directories", left)
	}
	if err := adm.DeleteTopic(ctx, topic); err != nil {
		t.Fatal(err)
	}
	tgt := &Target{c: c}
	if err := tgt.awaitTopicGone(ctx, topic); err != nil {
		t.Fatal(err)
	}
	if left := topicFiles(c.LogDirs(), topic); len(left) != 0 {
		t.Errorf("after the wait: %v", left)
	}
}
