package cluster

import (
	"context"
	"fmt"
	"slices"
)

// Placement is where a topic's partitions live, as the brokers' own
// metadata says: each partition's leader and replicas, and each broker's
// rack (its zone; "" when brokers have none).
type Placement struct {
	Partitions []PartitionPlacement
	Racks      map[int]string
}

// PartitionPlacement is one partition's leader and replicas.
type PartitionPlacement struct {
	Partition int32
	Leader    int // -1 while the partition has none
	Replicas  []int
}

// Placement reads the placement of topic from the brokers' metadata.
func (a *Admin) Placement(ctx context.Context, topic string) (Placement, error) {
	md, err := a.adm.Metadata(ctx, topic)
	if err != nil {
		return Placement{}, fmt.Errorf("metadata for %s: %w", topic, err)
	}
	td, ok := md.Topics[topic]
	if !ok {
		return Placement{}, fmt.Errorf("topic %s not in metadata", topic)
	}
	if td.Err != nil {
		return Placement{}, fmt.Errorf("metadata for %s: %w", topic, td.Err)
	}
	pl := Placement{Racks: map[int]string{}}
	for _, b := range md.Brokers {
		rack := ""
		if b.Rack != nil {
			rack = *b.Rack
		}
		pl.Racks[int(b.NodeID)] = rack
	}
	for _, p := range td.Partitions.Sorted() {
		pp := PartitionPlacement{Partition: p.Partition, Leader: int(p.Leader)}
		for _, r := range p.Replicas {
			pp.Replicas = append(pp.Replicas, int(r))
		}
		pl.Partitions = append(pl.Partitions, pp)
	}
	return pl, nil
}

// Leaders maps each partition to its leader (-1: none).
func (pl Placement) Leaders() map[int32]int {
	m := make(map[int32]int, len(pl.Partitions))
	for _, p := range pl.Partitions {
		m[p.Partition] = p.Leader
	}
	return m
}

// RackSpread is the fewest distinct racks any partition's replicas sit in
// (0 for a topic without partitions): with zones and replication factor up
// to the zones, Kafka's rack-aware placement makes it the replication
// factor.
func (pl Placement) RackSpread() int {
	fewest := 0
	for i, p := range pl.Partitions {
		var racks []string
		for _, r := range p.Replicas {
			if !slices.Contains(racks, pl.Racks[r]) {
				racks = append(racks, pl.Racks[r])
			}
		}
		if i == 0 || len(racks) < fewest {
			fewest = len(racks)
		}
	}
	return fewest
}
