package lab

import (
	"slices"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
	"github.com/prodlab/prodlab/internal/results"
)

// needsProxies reports whether any scenario of a group impairs the network
// or cuts connections: only then do clients go through netem proxies, so
// plain runs measure the direct path.
func needsProxies(scs []expfile.Scenario) bool {
	for _, sc := range scs {
		n := sc.Exp.Network
		if n.Proxy || n.RTTMs > 0 || n.JitterMs > 0 || n.BandwidthMbit > 0 || n.CutEvery > 0 {
			return true
		}
		if sc.Exp.Cluster.HasZones() && n.Zones != (expfile.ZoneLink{}) {
			return true // the client's path to other zones
		}
		if slices.ContainsFunc(sc.Exp.Faults, needsClientProxies) {
			return true
		}
	}
	return false
}

// proxiedScenarios lists (by ID) the scenarios whose clients go through
// their cluster's proxies: those that need them, and those a planned
// comparison pairs with one that does, so that a comparison's two arms
// are measured alike. The others bootstrap from the brokers themselves
// (Target.direct): a no-fault trial beside a connection-cut one then
// measures Kafka, not prodlab's proxy as well.
func proxiedScenarios(scs []expfile.Scenario, cmps []expfile.Comparison) map[string]bool {
	proxied := map[string]bool{}
	for _, sc := range scs {
		if needsProxies([]expfile.Scenario{sc}) {
			proxied[sc.ID] = true
		}
	}
	for _, c := range cmps {
		if proxied[c.Baseline] || proxied[c.Candidate] {
			proxied[c.Baseline], proxied[c.Candidate] = true, true
		}
	}
	return proxied
}

// netemConfig turns a scenario's network section and the faults the
// proxies carry out (connection cuts) into proxy settings.
func netemConfig(e expfile.Experiment, rewrite netem.RewriteFunc) netem.Config {
	cfg := netem.Config{
		RTT:       time.Duration(e.Network.RTTMs * float64(time.Millisecond)),
		Jitter:    time.Duration(e.Network.JitterMs * float64(time.Millisecond)),
		Bandwidth: e.Network.BandwidthMbit,
		Rewrite:   rewrite,
		// The proxies cannot read Kafka's framing inside TLS.
		Opaque: expfile.UsesTLS(e.Cluster.Security),
	}
	if e.Network.CutEvery > 0 {
		cfg.Fault = &netem.Fault{EveryProduce: e.Network.CutEvery}
	}
	for _, f := range e.Faults {
		if a := faultActions[f.Type]; a.proxy != nil {
			if cfg.Fault == nil {
				cfg.Fault = &netem.Fault{}
			}
			a.proxy(cfg.Fault, f)
		}
	}
	return cfg
}

// proxyFigures copies the client proxies' figures into a record's network
// figures.
func proxyFigures(n *results.Network, st netem.Stats) {
	n.ProduceRequests = float64(st.ProduceRequests)
	n.MaxInFlight = float64(st.MaxInFlight)
	n.MeanInFlight = st.MeanInFlight
	n.MeanRequestBytes = st.MeanRequestBytes
	n.RTTP50Ms, n.RTTP99Ms = st.RTTp50Ms, st.RTTp99Ms
	n.Connections = float64(st.Connections)
	n.BytesUp, n.BytesDown = float64(st.BytesUp), float64(st.BytesDown)
}

// zoneNames are the zones of a cluster shape; nil without zones.
func zoneNames(c expfile.Cluster) []string {
	if !c.HasZones() {
		return nil
	}
	return expfile.ZoneNames(c.Zones)
}
