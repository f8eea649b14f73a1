package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/prodlab/prodlab/internal/cluster"
)

// Cluster is the embedded Kafka cluster kept up by `prodlab cluster up`.
var Cluster = Detached{
	Noun: "cluster", Command: "cluster", NodeNoun: "broker",
	CountName: "--brokers", ReleaseName: "--kafka",
	MaxCount: cluster.MaxBrokers, DefaultRelease: cluster.DefaultKafka,
	svc: clusterService{},
}

// clusterService is the service behind Cluster.
type clusterService struct{}

func (clusterService) statePath() string { return cluster.DefaultStatePath() }

func (clusterService) lock(path string) (func(), error) { return cluster.LockState(path) }

func (clusterService) load(path string) (recorded, error) { return cluster.LoadState(path) }

func (clusterService) check(ctx context.Context, req UpRequest) error {
	if err := cluster.CheckMemory(req.Count, 0); err != nil {
		return fmt.Errorf("%s: %w", Cluster.CountName, err)
	}
	if err := cluster.CheckKafka(ctx, req.Release); err != nil {
		return fmt.Errorf("%s: %w", Cluster.ReleaseName, err)
	}
	return nil
}

func (clusterService) start(ctx context.Context, path string, req UpRequest) (Up, error) {
	cl, err := cluster.Start(ctx, cluster.Config{Brokers: req.Count, Kafka: req.Release, Dir: req.Dir, Detached: true})
	if err != nil {
		return Up{}, err
	}
	if err := cluster.SaveState(path, cl); err != nil {
		_ = cl.Stop()
		return Up{}, err
	}
	return Up{
		Address: strings.Join(cl.Bootstrap(), ","),
		Note:    fmt.Sprintf("Kafka %s with %d broker(s) is up; logs in %s", cl.Version(), req.Count, req.Dir),
	}, nil
}

// plan names the release, the brokers, their ports, heap and security,
// and where the logs and the state would go.
func (clusterService) plan(ctx context.Context, path string, req UpRequest) ([]string, error) {
	p, err := cluster.Plan(ctx, cluster.Config{Brokers: req.Count, Kafka: req.Release, Dir: req.Dir, Detached: true})
	if err != nil {
		return nil, err
	}
	kafka := "Kafka " + p.Version
	switch {
	case p.Version == "":
		kafka = "the Kafka distribution " + p.Kafka + " (version unknown)"
	case p.Kafka != p.Version:
		kafka += " from " + p.Kafka
	}
	return []string{
		fmt.Sprintf("would start %s: %d broker(s), each also a KRaft controller (combined mode), on 127.0.0.1", kafka, p.Brokers),
		fmt.Sprintf("ports: %d per broker (client, controller, inter-broker), picked free as it starts; client listener %s", p.PortsPerNode, cluster.SecurityPlaintext),
		fmt.Sprintf("heap: %d MiB per broker, sized from the memory available now", p.Heap>>20),
		"data and logs: " + p.Dir,
		"state: " + path + " (not written by a dry run)",
	}, nil
}

func (clusterService) status(_ context.Context, path string) (*Status, error) {
	s, err := cluster.LoadState(path)
	if err != nil {
		return nil, err
	}
	live := map[int]bool{}
	for _, b := range s.LiveBrokers() {
		live[b.ID] = true
	}
	st := &Status{Title: "Kafka " + s.Version, AddressName: "bootstrap", Address: strings.Join(s.Bootstrap, ","), Dir: s.Dir}
	for _, b := range s.Brokers {
		st.Nodes = append(st.Nodes, NodeStatus{Name: fmt.Sprintf("broker %d", b.ID), Addr: b.Addr, PID: b.PID, Running: live[b.ID]})
	}
	return st, nil
}
