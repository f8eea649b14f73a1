package stats

import (
	"errors"
	"fmt"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// EncodeHistogram returns h in HdrHistogram's standard V2 compressed
// encoding, base64 (the "HISTF..." strings), the form Java's HdrHistogram
// writes with encodeIntoCompressedByteBuffer. results.jsonl stores
// histograms this way so that trials can be merged exactly later, whichever
// client measured them.
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	if h == nil {
		return "", errors.New("encode histogram: nil histogram")
	}
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return string(b), nil
}

// DecodeHistogram parses the encoding EncodeHistogram (or Java's
// HdrHistogram) produced.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	if s == "" {
		return nil, errors.New("decode histogram: empty string")
	}
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}
