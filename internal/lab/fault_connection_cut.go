package lab

import (
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/netem"
)

// A connection cut is the proxies' job: after every N-th produce request,
// or once at at.ms.
func init() {
	registerFault(expfile.FaultConnectionCut, faultAction{proxy: func(cut *netem.Fault, f expfile.Fault) {
		if f.Every > 0 {
			cut.EveryProduce = f.Every
		} else {
			cut.At = append(cut.At, time.Duration(f.AtMs*float64(time.Millisecond)))
		}
	}})
}
