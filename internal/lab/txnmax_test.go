package lab

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
)

// TestCheckTransactionMax: a transaction.timeout.ms above the started
// brokers' transaction.max.timeout.ms (Kafka's default 15 min, or
// cluster.configs) is refused before anything starts; at or below it, or
// a producer without transactions, passes; a cluster.configs maximum below
// the client's default timeout is refused too.
func TestCheckTransactionMax(t *testing.T) {
	tests := []struct {
		name, producer, cluster, client string
		want                            string // "" = accepted
	}{
		{name: "within the default", producer: "{transactional.id: t, transaction.timeout.ms: 900000}", client: "java"},
		{name: "above the default", producer: "{transactional.id: t, transaction.timeout.ms: 900001}", client: "java",
			want: "transaction.timeout.ms 900001 is above the brokers' transaction.max.timeout.ms 900000 (Kafka's default)"},
		{name: "raised by cluster.configs", producer: "{transactional.id: t, transaction.timeout.ms: 1800000}", cluster: "{transaction.max.timeout.ms: 1800000}", client: "franz-go"},
		{name: "client default above a lowered max", producer: "{transactional.id: t}", cluster: "{transaction.max.timeout.ms: 30000}", client: "librdkafka",
			want: "transaction.timeout.ms 60000 is above the brokers' transaction.max.timeout.ms 30000 (cluster.configs)"},
		{name: "no transactions", producer: "{transaction.timeout.ms: 2000000}", client: "java"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "name: x\nclient: " + tt.client + "\nworkload: {records: 1000}\nproducer: " + tt.producer + "\n"
			if tt.cluster != "" {
				src += "cluster: {configs: " + tt.cluster + "}\n"
			}
			exp, err := expfile.Parse("x.yaml", []byte(src), nil)
			if err != nil {
				t.Fatal(err)
			}
			scs, err := exp.Scenarios()
			if err != nil {
				t.Fatal(err)
			}
			err = checkTransactionMax(scs)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
