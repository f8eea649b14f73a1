package expfile

// FaultLeaderShutdown names the clean shutdown of a broker, by default
// partition 0's leader, restarted after delay.ms.
const FaultLeaderShutdown = "leader.shutdown"

var leaderShutdown = FaultType{
	Name:     FaultLeaderShutdown,
	Fields:   brokerFaultFields,
	Validate: checkFaultDelay,
	Doc:      "shut partition 0's leader (or the broker given) down cleanly at at.ms, restart it after delay.ms",
	Restarts: true,
}
