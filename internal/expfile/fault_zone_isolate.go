package expfile

import "fmt"

// FaultZoneIsolate names the zone outage: every link that crosses the
// zone's border (broker↔broker and client↔broker) stops passing bytes at
// at.ms and heals after delay.ms.
const FaultZoneIsolate = "zone.isolate"

var zoneIsolate = FaultType{
	Name:   FaultZoneIsolate,
	Fields: []string{"zone", "at.ms", "delay.ms"},
	Doc:    "cut one zone off (every link crossing its border, client's and brokers') at at.ms, heal after delay.ms",
	Validate: func(f Fault) error {
		if f.Zone == "" {
			return fmt.Errorf("fault %s needs zone (a, b or c): the zone to cut off", FaultZoneIsolate)
		}
		if f.DelayMs <= 0 {
			return fmt.Errorf("fault %s delay.ms must be above 0 (how long the zone stays cut off), got 0", FaultZoneIsolate)
		}
		return nil
	},
}
