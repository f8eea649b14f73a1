package results

// Zones is where a trial ran in a cluster spread over availability zones
// (cluster.zones > 1): the layout the brokers' own metadata gave when the
// trial's topic was created, and what the links between zones carried.
type Zones struct {
	// Client is the client's zone; Brokers maps each broker id to its
	// zone (its broker.rack).
	Client  string         `json:"client"`
	Brokers map[int]string `json:"brokers"`
	// Partitions are the topic's leaders and replicas at the start.
	Partitions []ZonePartition `json:"partitions"`
	// RackSpread is the fewest distinct racks any partition's replicas
	// sit in: the replication factor when placement is rack-aware.
	RackSpread int `json:"rack_spread"`
	// Links are the inter-broker links that carried fetches, per zone
	// pair (from the follower's zone to the leader's).
	Links []ZoneLink `json:"links,omitempty"`
	// ReplicationMs is the largest round trip the proxies applied on a
	// link between different zones: what an acks=all write waits for at
	// least, one follower fetch across the slowest link.
	ReplicationMs float64 `json:"replication_ms,omitempty"`
}

// ZonePartition is one partition's leader and replicas.
type ZonePartition struct {
	Partition int32 `json:"partition"`
	Leader    int   `json:"leader"`
	Replicas  []int `json:"replicas"`
}

// ZoneLink is what the proxies on the inter-broker links from one zone to
// another saw: the round trip they applied (the median delay each way,
// timed per chunk from arrival to delivery, added up), fetches answered,
// their least and median round trips (a fetch waits at the leader until
// data arrives, so these include that wait), and bytes both ways.
type ZoneLink struct {
	From          string  `json:"from"`
	To            string  `json:"to"`
	RTTMs         float64 `json:"rtt_ms"`
	Fetches       int64   `json:"fetches"`
	FetchRTTMinMs float64 `json:"fetch_rtt_min_ms"`
	FetchRTTp50Ms float64 `json:"fetch_rtt_p50_ms"`
	Bytes         int64   `json:"bytes"`
}
