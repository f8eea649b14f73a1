package results

import (
	"reflect"
	"testing"
)

// TestPartitionSpread checks the min, max and skew figures, partitions
// without records included.
func TestPartitionSpread(t *testing.T) {
	for _, tc := range []struct {
		name       string
		counts     map[int32]int64
		partitions int
		want       *Partitions
	}{
		{"even", map[int32]int64{0: 10, 1: 10, 2: 10}, 3, &Partitions{Count: 3, Min: 10, Max: 10, Skew: 1}},
		{"skewed", map[int32]int64{0: 60, 1: 30, 2: 10}, 3, &Partitions{Count: 3, Min: 10, Max: 60, Skew: 1.8}},
		{"empty partitions count", map[int32]int64{1: 12}, 4, &Partitions{Count: 4, Min: 0, Max: 12, Skew: 4}},
		{"more partitions than said", map[int32]int64{0: 5, 3: 5}, 2, &Partitions{Count: 4, Min: 0, Max: 5, Skew: 2}},
		{"nothing counted", map[int32]int64{}, 3, nil},
		{"no counts", nil, 3, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PartitionSpread(tc.counts, tc.partitions); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("PartitionSpread = %+v, want %+v", got, tc.want)
			}
		})
	}
}
