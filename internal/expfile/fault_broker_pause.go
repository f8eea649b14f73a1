package expfile

// FaultBrokerPause names SIGSTOP of a broker, SIGCONT after delay.ms.
const FaultBrokerPause = "broker.pause"

var brokerPause = FaultType{
	Name:     FaultBrokerPause,
	Fields:   brokerFaultFields,
	Validate: checkFaultDelay,
	Doc:      "SIGSTOP the broker (default: partition 0's leader) at at.ms, SIGCONT after delay.ms",
}
