package expfile

import "fmt"

// FaultProducerFence names fencing: at at.ms a second producer registers
// each of the trial's transactional ids (InitProducerId), which bumps the
// id's epoch, aborts the transaction the trial's producer has open and
// fences that producer: its next request is refused.
const FaultProducerFence = "producer.fence"

var producerFence = FaultType{
	Name:   FaultProducerFence,
	Fields: []string{"at.ms"},
	Doc:    "start a second producer with the trial's transactional.id at at.ms: it fences the trial's producer and aborts its open transaction",
	Validate: func(f Fault) error {
		if f.AtMs < 1 { // 1e-300 is not a moment after the start either
			return fmt.Errorf("fault %s needs at.ms of 1 or more: when the second producer fences the first", FaultProducerFence)
		}
		return nil
	},
}

// fenceFaultError is why fault f cannot run in e's trials ("" when it
// can): fencing needs a transactional producer, and runs on an embedded
// or existing cluster, not yet from a Trogdor fleet.
func fenceFaultError(e *Experiment, f Fault) string {
	if f.Type != FaultProducerFence {
		return ""
	}
	switch {
	case e.Settings().TransactionalID == "":
		return fmt.Sprintf("fault %s fences a transactional producer: set producer.transactional.id", FaultProducerFence)
	case e.Trogdor.Coordinator != "":
		return fmt.Sprintf("fault %s does not run on a Trogdor fleet yet (each agent's producer has its own transactional.id)", FaultProducerFence)
	}
	return ""
}

// FencesProducer reports whether e fences its own producer (a
// producer.fence fault): a trial that ends fenced then ended as asked.
func (e *Experiment) FencesProducer() bool {
	for _, f := range e.Faults {
		if f.Type == FaultProducerFence {
			return true
		}
	}
	return false
}

// afterFenceError is why fault i of e never fires ("" when it may): the
// earliest producer.fence ends the trial's producer, so a fault due at or
// after it (a second fence among them) would come when nothing produces.
func afterFenceError(e *Experiment, i int) string {
	first := -1
	for j, g := range e.Faults {
		if g.Type == FaultProducerFence && (first < 0 || g.AtMs < e.Faults[first].AtMs) {
			first = j
		}
	}
	f := e.Faults[i]
	if first < 0 || i == first || f.Every > 0 || f.AtMs < e.Faults[first].AtMs {
		return ""
	}
	return fmt.Sprintf("fault %s at at.ms %g comes at or after the %s at at.ms %g, which ends the trial's producer: it would never fire", f.Type, f.AtMs, FaultProducerFence, e.Faults[first].AtMs)
}
