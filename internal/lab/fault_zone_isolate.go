package lab

import (
	"context"
	"errors"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
)

// A zone outage holds every proxy whose path crosses the zone's border —
// inter-broker, controller and the client's — and heals them after
// delay.ms (zones.go).
func init() {
	registerFault(expfile.FaultZoneIsolate, faultAction{links: func(t *Target, f expfile.Fault, on bool) error {
		if t.links == nil || t.c == nil {
			return errors.New("zone.isolate needs an embedded cluster in zones")
		}
		t.links.isolation(f.Zone, t.net, on)
		return nil
	}})
}

// leaderPoll is how often a link fault reads the topic's leaders, and
// leaderWatchAfter how long after healing it keeps reading them.
const (
	leaderPoll       = 250 * time.Millisecond
	leaderWatchAfter = 10 * time.Second
)

// injectLinkFault holds the fault's links at its time and heals them after
// its delay, noting on the trial's timeline the outage, the healing and
// every leader move of the topic meanwhile and shortly after.
func injectLinkFault(ctx context.Context, f *faultRun, tgt *Target, adm *cluster.Admin, topic string, ft expfile.Fault) {
	start := time.Now()
	// The leaders before the outage, read now so that the read does not
	// delay it.
	before := leadersOf(ctx, adm, topic)
	if !sleepCtx(ctx, ms(ft.AtMs)-time.Since(start)) {
		return
	}
	act := faultActions[ft.Type].links
	if err := act(tgt, ft, true); err != nil {
		f.event("error", "%s zone %s: %v", ft.Type, ft.Zone, err)
		return
	}
	f.event(ft.Type, "zone %s", ft.Zone)
	healAt := time.Now().Add(ms(ft.DelayMs))
	healed := false
	heal := func() {
		if err := act(tgt, ft, false); err != nil {
			f.event("error", "heal zone %s after %s: %v", ft.Zone, ft.Type, err)
			return
		}
		f.event("recovered", "zone %s after %s", ft.Zone, ft.Type)
	}
	// A trial that ends early still heals the zone.
	defer func() {
		if !healed {
			heal()
		}
	}()
	for time.Now().Before(healAt.Add(leaderWatchAfter)) {
		if !healed && !time.Now().Before(healAt) {
			heal()
			healed = true
		}
		wait := leaderPoll
		if !healed {
			wait = max(min(wait, time.Until(healAt)), time.Millisecond)
		}
		if !sleepCtx(ctx, wait) {
			return
		}
		now := leadersOf(ctx, adm, topic)
		for _, m := range leaderMoves(before, now) {
			f.event("leader", "%s", m)
		}
		if len(now) > 0 {
			before = now
		}
	}
}

// leadersOf reads the topic's leaders, nil when the metadata is not
// reachable within a poll.
func leadersOf(ctx context.Context, adm *cluster.Admin, topic string) map[int32]int {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	pl, err := adm.Placement(ctx, topic)
	if err != nil {
		return nil
	}
	return pl.Leaders()
}
