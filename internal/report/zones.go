package report

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// Zones. A run on a cluster in zones shows, in the results table, the
// round trip the replication link applied and (acks=all) its share of the
// p50, from summary's registry; and a table of where each scenario's
// brokers, client and leaders were, with the fetch round trips of the
// links into each zone.

var (
	metricZoneRTT   = mustMetric("zones.replication")
	metricZoneShare = mustMetric("zones.share")
)

// zoneColumns are the registry entries of the zone figures.
var zoneColumns = []column{
	{head: "ZONE RTT ms", side: "zones", md: "zone RTT ms", csv: "zone_rtt_ms", unit: "ms", in: inAll,
		when: hasZones,
		text: figure(zoneSummary(metricZoneRTT.Trial), ms), sum: zoneSummary(metricZoneRTT.Trial)},
	{head: "ZONE SHARE", side: "zones", md: "zone share of p50", csv: "zone_share", unit: "ratio", in: inAll,
		when: hasZones,
		text: figure(zoneSummary(metricZoneShare.Trial), ratio), sum: zoneSummary(metricZoneShare.Trial)},
}

// zoneSummary summarises a per-trial zone figure over the counted trials
// that have it.
func zoneSummary(trial func(*results.Record) float64) func(*scenario) stats.Summary {
	return func(s *scenario) stats.Summary {
		return countedSummary(s, func(r *results.Record) (float64, bool) {
			v := trial(r)
			return v, v == v // not NaN
		})
	}
}

// hasZones reports whether some counted trial ran on a cluster in zones.
func hasZones(scs []scenario) bool {
	for i := range scs {
		for _, r := range scs[i].Counted {
			if r.Zones != nil {
				return true
			}
		}
	}
	return false
}

// zoneTableOf lays out, per scenario and zone, the brokers, the client,
// the mean number of the topic's partitions led from the zone per trial,
// and the least and median fetch round trip of the followers of other
// zones fetching from it; nil without zones.
func zoneTableOf(scs []scenario) *extraTable {
	if !hasZones(scs) {
		return nil
	}
	t := &extraTable{
		Title:   "Zones (where the brokers, the client and the leaders were; fetches from followers in other zones)",
		Head:    []string{"SCENARIO", "ZONE", "BROKERS", "CLIENT", "LEADERS/TRIAL", "LINK RTT ms", "FETCH MIN ms", "FETCH P50 ms"},
		MD:      []string{"scenario", "zone", "brokers", "client", "leaders/trial", "link RTT ms", "fetch min ms", "fetch p50 ms"},
		KeyCols: 4,
		Note: "LEADERS/TRIAL is the mean number of the topic's partitions led from the zone when each trial began. " +
			"LINK RTT is the round trip the proxies applied on the links from other zones into this one (mean over trials); " +
			"FETCH is the round trip they timed for those followers' fetches, which includes the leader's wait for data.",
	}
	for i := range scs {
		s := &scs[i]
		for _, row := range zoneRows(s.Counted) {
			t.Rows = append(t.Rows, extraRow{Cells: append([]string{s.Label}, row...)})
		}
	}
	return t
}

// zoneRows are one scenario's rows of the zone table, one per zone.
func zoneRows(recs []results.Record) [][]string {
	brokers := map[string][]int{}
	leaders := map[string]float64{}
	rtt, fetchMin, fetchP50 := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	client, trials := "", 0
	for _, r := range recs {
		z := r.Zones
		if z == nil {
			continue
		}
		trials++
		client = z.Client
		for id, zone := range z.Brokers {
			if !slices.Contains(brokers[zone], id) {
				brokers[zone] = append(brokers[zone], id)
			}
		}
		for _, p := range z.Partitions {
			leaders[z.Brokers[p.Leader]]++
		}
		for _, l := range z.Links {
			if l.From != l.To {
				rtt[l.To] = append(rtt[l.To], l.RTTMs)
				fetchMin[l.To] = append(fetchMin[l.To], l.FetchRTTMinMs)
				fetchP50[l.To] = append(fetchP50[l.To], l.FetchRTTp50Ms)
			}
		}
	}
	var rows [][]string
	for _, zone := range slices.Sorted(maps.Keys(brokers)) {
		ids := brokers[zone]
		slices.Sort(ids)
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = strconv.Itoa(id)
		}
		mark := ""
		if zone == client {
			mark = "client"
		}
		rows = append(rows, []string{zone, strings.Join(names, ", "), mark,
			f1(leaders[zone] / float64(max(trials, 1))), meanCell(rtt[zone]), leastCell(fetchMin[zone]), meanCell(fetchP50[zone])})
	}
	return rows
}

// leastCell is the least of xs, none when empty.
func leastCell(xs []float64) string {
	if len(xs) == 0 {
		return none
	}
	return ms(slices.Min(xs))
}

// meanCell is the mean of xs, none when empty.
func meanCell(xs []float64) string {
	if len(xs) == 0 {
		return none
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return ms(sum / float64(len(xs)))
}
