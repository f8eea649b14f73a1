package expfile

import "fmt"

// FaultBrokerKill names SIGKILL of a broker, restarted after delay.ms.
const FaultBrokerKill = "broker.kill"

var brokerKill = FaultType{
	Name:     FaultBrokerKill,
	Fields:   brokerFaultFields,
	Doc:      "SIGKILL the broker (default: partition 0's leader) at at.ms, restart it after delay.ms",
	Validate: checkFaultDelay,
	Restarts: true,
}

// brokerFaultFields are the keys of the faults that take one broker down
// for a while.
var brokerFaultFields = []string{"broker", "at.ms", "delay.ms"}

// DefaultFaultDelayMs is how long a killed, paused or shut-down broker
// stays down when its fault gives no delay.ms.
const DefaultFaultDelayMs = 5000

// checkFaultDelay refuses a broker fault that brings its broker back at
// once: delay.ms 0 used to mean the default, silently.
func checkFaultDelay(f Fault) error {
	if f.DelayMs <= 0 {
		return fmt.Errorf("fault %s delay.ms must be above 0 (how long the broker stays down), got 0; leave it out for the default %d ms", f.Type, DefaultFaultDelayMs)
	}
	return nil
}
