package textfmt

import (
	"math"
	"testing"
)

func TestGroup(t *testing.T) {
	tests := []struct {
		v    float64
		prec int
		want string
	}{
		{0, 0, "0"},                         // no separator below 1,000
		{999, 0, "999"},                     // still none
		{1000, 0, "1,000"},                  // first separator
		{52340.4, 0, "52,340"},              // rounded to prec
		{1234567, 0, "1,234,567"},           // two separators
		{-1234, 0, "-1,234"},                // sign kept in front
		{-999, 0, "-999"},                   // no separator after the sign
		{1234.5678, 2, "1,234.57"},          // decimals are not grouped
		{0.00012, 4, "0.0001"},              // small values keep their decimals
		{math.NaN(), 0, "NaN"},              // passed through
		{math.Inf(-1), 0, "-Inf"},           // passed through
		{123456789.125, 1, "123,456,789.1"}, // long integer part with decimals
	}
	for _, tt := range tests {
		if got := Group(tt.v, tt.prec); got != tt.want {
			t.Errorf("Group(%v, %d) = %q, want %q", tt.v, tt.prec, got, tt.want)
		}
	}
}
