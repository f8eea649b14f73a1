package lab

import (
	"fmt"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
)

// A cluster with storage: memory keeps its brokers' logs on a tmpfs
// (cluster.MemoryRoot), where a full file system takes the writing broker's
// log directory offline and the broker with it. So each trial first checks
// that the tmpfs has room for what a trial on that cluster has stored so
// far, with half again to spare; a trial that would not fit fails with the
// reason and the run goes on.

// memoryHeadroom is the margin over the most a trial has stored.
const memoryHeadroom = 1.5

// memoryRoom fails when free bytes cannot hold the next trial: the most a
// trial has stored so far with memoryHeadroom to spare, and at least
// cluster.MinMemoryFree before any has.
func memoryRoom(free, stored int64) error {
	need := max(int64(cluster.MinMemoryFree), int64(float64(stored)*memoryHeadroom))
	if free >= need {
		return nil
	}
	return fmt.Errorf("storage: memory: %s has %d MiB free; a trial on this cluster has stored up to %d MiB, so the next may need %d MiB (free memory there, or use cluster.storage: disk)",
		cluster.MemoryRoot, free>>20, stored>>20, need>>20)
}

// roomInMemory applies memoryRoom to t's tmpfs; nil unless t is an
// embedded cluster with storage: memory.
func (t *Target) roomInMemory() error {
	if t.cfg.Storage != expfile.StorageMemory || !t.Embedded() {
		return nil
	}
	free, err := cluster.FreeBytes(cluster.MemoryRoot)
	if err != nil {
		return fmt.Errorf("storage: memory: %w", err)
	}
	return memoryRoom(free, t.stored)
}

// noteStored records that a trial's topic took size bytes per replica on
// rf replicas. rf < 1 leaves it to the broker's default.replication.factor,
// which the lab does not read: one replica per broker is counted, an upper
// bound.
func (t *Target) noteStored(size int64, rf int) {
	if rf < 1 && t.c != nil {
		rf = len(t.c.BrokerIDs())
	}
	t.stored = max(t.stored, size*int64(max(rf, 1)))
}
