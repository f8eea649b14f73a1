package netem

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Stats are the figures one proxy (or a Set, aggregated) observed since the
// last ResetStats.
type Stats struct {
	// ProduceRequests counts produce requests (api key 0) clients sent,
	// including acks=0 ones.
	ProduceRequests int64
	// MaxInFlight is the largest number of produce requests outstanding on
	// one connection: received from the client and not yet answered (the
	// response's first byte delivered back to the client). acks=0 requests
	// are never outstanding.
	MaxInFlight int
	// MeanInFlight is the per-send mean: each produce request that expects a
	// response samples the number outstanding on its connection, itself
	// included, when its last byte reaches the proxy.
	MeanInFlight float64
	// MeanRequestBytes is the mean produce frame size, 4-byte size prefix
	// included.
	MeanRequestBytes float64
	// RTTp50Ms and RTTp99Ms are quantiles of the produce round trip as the
	// client sees it, emulated delay included: from the request's last byte
	// entering the proxy to the response's first byte being delivered to the
	// client.
	RTTp50Ms, RTTp99Ms float64
	// Fetches counts fetch requests answered (a follower's replication, or
	// a consumer's); FetchRTTMinMs and FetchRTTp50Ms are the least and
	// median of their round trips, timed as produce round trips are. A
	// fetch waits at the broker until data arrives (up to its max wait),
	// so the median includes that wait and the least is the link's round
	// trip plus the broker's quickest answer.
	Fetches                      int64
	FetchRTTMinMs, FetchRTTp50Ms float64
	// UpDelayP50Ms and DownDelayP50Ms are the median delay the proxy
	// applied to the bytes it carried towards the broker and back, timed
	// per chunk on the delay line from its arrival to its delivery: the
	// emulated delay as it happened (scheduling lateness, bandwidth pacing
	// and isolation included). Their sum is the round trip the proxy
	// added. The direct path (no impairment) adds none and is not timed:
	// 0 then.
	UpDelayP50Ms, DownDelayP50Ms float64
	// Connections counts client connections accepted.
	Connections int
	// BytesUp and BytesDown count bytes delivered to brokers and to clients.
	BytesUp, BytesDown int64
}

// Round trips are recorded in microseconds, 1 µs to 1 h, 3 significant digits.
const (
	histMinUs = 1
	histMaxUs = int64(time.Hour / time.Microsecond)
	histSig   = 3
)

func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(histMinUs, histMaxUs, histSig) }

// collector accumulates one proxy's figures; sums are kept raw so that a Set
// can aggregate exactly.
type collector struct {
	mu          sync.Mutex
	produce     int64
	reqBytes    int64
	tracked     int64 // produce requests expecting a response
	inflightSum int64
	maxInflight int
	conns       int
	hist        *hdrhistogram.Histogram
	fetchHist   *hdrhistogram.Histogram
	delayHist   [2]*hdrhistogram.Histogram // up, down

	bytesUp, bytesDown atomic.Int64
}

func newCollector() *collector {
	return &collector{hist: newHist(), fetchHist: newHist(), delayHist: [2]*hdrhistogram.Histogram{newHist(), newHist()}}
}

// onDelay records the delay applied to a chunk that arrived at arrived,
// delivered now towards the broker (up) or the client.
func (c *collector) onDelay(up bool, arrived time.Time) {
	if arrived.IsZero() {
		return
	}
	us := min(max(int64(time.Since(arrived)/time.Microsecond), histMinUs), histMaxUs)
	i := 1
	if up {
		i = 0
	}
	c.mu.Lock()
	_ = c.delayHist[i].RecordValue(us)
	c.mu.Unlock()
}

func (c *collector) onConn() {
	c.mu.Lock()
	c.conns++
	c.mu.Unlock()
}

// onProduce records a produce request; inflight is the count outstanding on
// its connection including itself, or 0 for an untracked (acks=0) request.
func (c *collector) onProduce(bytes int, inflight int) {
	c.mu.Lock()
	c.produce++
	c.reqBytes += int64(bytes)
	if inflight > 0 {
		c.tracked++
		c.inflightSum += int64(inflight)
		c.maxInflight = max(c.maxInflight, inflight)
	}
	c.mu.Unlock()
}

func (c *collector) onRTT(d time.Duration) {
	us := max(int64(d/time.Microsecond), histMinUs)
	c.mu.Lock()
	_ = c.hist.RecordValue(min(us, histMaxUs))
	c.mu.Unlock()
}

// onFetchRTT records the round trip of one fetch request.
func (c *collector) onFetchRTT(d time.Duration) {
	us := max(int64(d/time.Microsecond), histMinUs)
	c.mu.Lock()
	_ = c.fetchHist.RecordValue(min(us, histMaxUs))
	c.mu.Unlock()
}

func (c *collector) reset() {
	c.mu.Lock()
	c.produce, c.reqBytes, c.tracked, c.inflightSum, c.maxInflight, c.conns = 0, 0, 0, 0, 0, 0
	c.hist.Reset()
	c.fetchHist.Reset()
	c.delayHist[0].Reset()
	c.delayHist[1].Reset()
	c.bytesUp.Store(0)
	c.bytesDown.Store(0)
	c.mu.Unlock()
}

// rawStats is a collector snapshot that can be merged.
type rawStats struct {
	produce, reqBytes, tracked, inflightSum int64
	maxInflight, conns                      int
	bytesUp, bytesDown                      int64
	hist, fetchHist                         *hdrhistogram.Histogram
	delayHist                               [2]*hdrhistogram.Histogram
}

func (c *collector) snapshot() rawStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return rawStats{
		produce: c.produce, reqBytes: c.reqBytes, tracked: c.tracked, inflightSum: c.inflightSum,
		maxInflight: c.maxInflight, conns: c.conns,
		bytesUp: c.bytesUp.Load(), bytesDown: c.bytesDown.Load(),
		hist:      hdrhistogram.Import(c.hist.Export()),
		fetchHist: hdrhistogram.Import(c.fetchHist.Export()),
		delayHist: [2]*hdrhistogram.Histogram{hdrhistogram.Import(c.delayHist[0].Export()), hdrhistogram.Import(c.delayHist[1].Export())},
	}
}

func (r *rawStats) merge(o rawStats) {
	r.produce += o.produce
	r.reqBytes += o.reqBytes
	r.tracked += o.tracked
	r.inflightSum += o.inflightSum
	r.maxInflight = max(r.maxInflight, o.maxInflight)
	r.conns += o.conns
	r.bytesUp += o.bytesUp
	r.bytesDown += o.bytesDown
	if r.hist == nil {
		r.hist = newHist()
	}
	if o.hist != nil {
		r.hist.Merge(o.hist)
	}
	if r.fetchHist == nil {
		r.fetchHist = newHist()
	}
	if o.fetchHist != nil {
		r.fetchHist.Merge(o.fetchHist)
	}
	for i := range r.delayHist {
		if r.delayHist[i] == nil {
			r.delayHist[i] = newHist()
		}
		if o.delayHist[i] != nil {
			r.delayHist[i].Merge(o.delayHist[i])
		}
	}
}

func (r rawStats) stats() Stats {
	s := Stats{
		ProduceRequests: r.produce,
		MaxInFlight:     r.maxInflight,
		Connections:     r.conns,
		BytesUp:         r.bytesUp,
		BytesDown:       r.bytesDown,
	}
	if r.produce > 0 {
		s.MeanRequestBytes = float64(r.reqBytes) / float64(r.produce)
	}
	if r.tracked > 0 {
		s.MeanInFlight = float64(r.inflightSum) / float64(r.tracked)
	}
	if r.hist != nil && r.hist.TotalCount() > 0 {
		s.RTTp50Ms = float64(r.hist.ValueAtQuantile(50)) / 1000
		s.RTTp99Ms = float64(r.hist.ValueAtQuantile(99)) / 1000
	}
	if r.fetchHist != nil && r.fetchHist.TotalCount() > 0 {
		s.Fetches = r.fetchHist.TotalCount()
		s.FetchRTTMinMs = float64(r.fetchHist.Min()) / 1000
		s.FetchRTTp50Ms = float64(r.fetchHist.ValueAtQuantile(50)) / 1000
	}
	if h := r.delayHist[0]; h != nil && h.TotalCount() > 0 {
		s.UpDelayP50Ms = float64(h.ValueAtQuantile(50)) / 1000
	}
	if h := r.delayHist[1]; h != nil && h.TotalCount() > 0 {
		s.DownDelayP50Ms = float64(h.ValueAtQuantile(50)) / 1000
	}
	return s
}
