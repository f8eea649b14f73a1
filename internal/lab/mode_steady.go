package lab

// Steady rounds: every cluster group's rounds in turn (runGroups), a
// round's trials one after another.
func init() {
	registerMode("steady", labMode{measured: (*runner).steadyRounds})
}
