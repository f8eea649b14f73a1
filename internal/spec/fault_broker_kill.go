package spec

// FaultBrokerKill names SIGKILL of a broker, restarted after delay.ms.
const FaultBrokerKill = "broker.kill"

var brokerKill = FaultType{
	Name:   FaultBrokerKill,
	Fields: brokerFaultFields,
	Doc:    "SIGKILL the broker (default: partition 0's leader) at at.ms, restart it after delay.ms",
}

// brokerFaultFields are the keys of the faults that take one broker down
// for a while.
var brokerFaultFields = []string{"broker", "at.ms", "delay.ms"}
