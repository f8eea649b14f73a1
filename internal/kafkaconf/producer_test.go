package kafkaconf

import (
	"reflect"
	"strings"
	"testing"
)

// TestParse: valid values fill typed fields, unset settings stay unset,
// bad values are errors naming setting and value, and the settings that
// parsed are kept even then.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name    string
		props   map[string]string
		want    Producer
		wantErr string // substring; "" for no error
	}{
		{name: "empty", props: nil, want: Producer{}},
		{name: "typed", props: map[string]string{
			Acks: "-1", EnableIdempotence: "TRUE", MaxInFlight: " 5 ", BatchSize: "65536",
			LingerMs: "10", CompressionType: "zstd", BufferMemory: "33554432",
			MaxRequestSize: "1048576", TransactionalID: "tx-1", "client.id": "ignored",
		}, want: Producer{
			Acks: Opt[string]{"all", true}, EnableIdempotence: Opt[bool]{true, true},
			MaxInFlight: Opt[int]{5, true}, BatchSize: Opt[int]{65536, true},
			CompressionType: Opt[string]{"zstd", true}, MaxRequestSize: Opt[int]{1 << 20, true},
			TransactionalID: "tx-1",
		}},
		{name: "idempotence set false differs from unset", props: map[string]string{EnableIdempotence: "false"},
			want: Producer{EnableIdempotence: Opt[bool]{false, true}}},
		{name: "acks 1", props: map[string]string{Acks: "1"}, want: Producer{Acks: Opt[string]{"1", true}}},
		{name: "bad in-flight", props: map[string]string{MaxInFlight: "0", BatchSize: "5"},
			want:    Producer{BatchSize: Opt[int]{5, true}},
			wantErr: `max.in.flight.requests.per.connection must be a positive integer, got "0"`},
		{name: "bad acks", props: map[string]string{Acks: "2"},
			wantErr: `acks must be one of all, -1, 0, 1, got "2"`},
		{name: "bad idempotence", props: map[string]string{EnableIdempotence: "yes"},
			wantErr: `enable.idempotence must be true or false, got "yes"`},
		{name: "bad batch size", props: map[string]string{BatchSize: "-1"},
			wantErr: `batch.size must be a non-negative integer, got "-1"`},
		{name: "buffer.memory as franz-go reports it", props: map[string]string{BufferMemory: "unbounded", MaxInFlight: "1"},
			want:    Producer{MaxInFlight: Opt[int]{1, true}},
			wantErr: `buffer.memory must be a non-negative integer, got "unbounded"`},
		{name: "transaction schedule", props: map[string]string{TransactionalID: "t", TransactionDurationMs: "100", TransactionRecords: "50", TransactionAbortRatio: "0.2"},
			want: Producer{TransactionalID: "t", TransactionDurationMs: Opt[int64]{100, true}, TransactionRecords: Opt[int64]{50, true}, TransactionAbortRatio: Opt[float64]{0.2, true}}},
		{name: "abort ratio above 1", props: map[string]string{TransactionAbortRatio: "1.5"},
			wantErr: `transaction.abort.ratio must be a share of transactions between 0 and 1, got "1.5"`},
		{name: "abort ratio negative", props: map[string]string{TransactionAbortRatio: "-0.1"},
			wantErr: `transaction.abort.ratio must be a share`},
		{name: "abort ratio NaN", props: map[string]string{TransactionAbortRatio: "NaN"},
			wantErr: `transaction.abort.ratio must be a share`},
		{name: "zero records per transaction", props: map[string]string{TransactionRecords: "0"},
			wantErr: `transaction.records must be a positive integer of at most 1000000000, got "0"`},
		{name: "zero duration", props: map[string]string{TransactionDurationMs: "0"},
			wantErr: `transaction.duration.ms must be a positive integer of at most 604800000, got "0"`},
		{name: "empty transactional.id", props: map[string]string{TransactionalID: " "},
			wantErr: `transactional.id must be a name (leave it out for a producer without transactions), got ""`},
		{name: "transactional.id too long", props: map[string]string{TransactionalID: strings.Repeat("x", 40000)},
			wantErr: `transactional.id is 40000 bytes long, more than the 32000 Kafka's protocol leaves room for beside prodlab's suffixes`},
		// Go reads hex floats, infinities and underscores; only decimals pass.
		{name: "abort ratio as a hex float", props: map[string]string{TransactionalID: "t", TransactionAbortRatio: "0x1p-1"},
			want: Producer{TransactionalID: "t"}, wantErr: `transaction.abort.ratio must be a share`},
		{name: "abort ratio decimal", props: map[string]string{TransactionalID: "t", TransactionAbortRatio: ".5"},
			want: Producer{TransactionalID: "t", TransactionAbortRatio: Opt[float64]{0.5, true}}},
		// Near 2^64/10^6 ms a duration wrapped when it became nanoseconds.
		{name: "duration that would wrap", props: map[string]string{TransactionDurationMs: "18446744073709"},
			wantErr: `transaction.duration.ms must be a positive integer of at most 604800000, got "18446744073709"`},
		{name: "records above a trial's", props: map[string]string{TransactionRecords: "1000000001"},
			wantErr: `transaction.records must be a positive integer of at most 1000000000, got "1000000001"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.props)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestAcksAll: unset acks is all (the default since Kafka 3.0).
func TestAcksAll(t *testing.T) {
	for acks, want := range map[string]bool{"": true, "all": true, "-1": true, "1": false, "0": false} {
		props := map[string]string{}
		if acks != "" {
			props[Acks] = acks
		}
		p, err := Parse(props)
		if err != nil || p.AcksAll() != want {
			t.Errorf("acks %q: AcksAll %v (err %v), want %v", acks, p.AcksAll(), err, want)
		}
	}
}

// TestOr: a set value wins over the default, also when it is the zero value.
func TestOr(t *testing.T) {
	if got := (Opt[int64]{}).Or(5); got != 5 {
		t.Errorf("unset: %d, want 5", got)
	}
	if got := (Opt[int64]{V: 0, Set: true}).Or(5); got != 0 {
		t.Errorf("set to 0: %d, want 0", got)
	}
}

// TestJavaDefaults: linger.ms became 5 in kafka-clients 4.0.
func TestJavaDefaults(t *testing.T) {
	for release, linger := range map[string]int64{"": 5, "4.0.0": 5, "4.1": 5, "3.9.1": 0, "2.8.2": 0} {
		d := JavaDefaults(release)
		if d.LingerMs != linger || d.MaxInFlight != 5 || d.BatchSize != 16384 {
			t.Errorf("JavaDefaults(%q) = %+v, want linger.ms %d, in-flight 5, batch.size 16384", release, d, linger)
		}
	}
}

// TestCheckProducer: values are checked against Kafka's type and ranges.
func TestCheckProducer(t *testing.T) {
	for _, tc := range []struct {
		name, v, wantErr string
	}{
		{MaxInFlight, "5", ""},
		{MaxInFlight, "0", `max.in.flight.requests.per.connection must be an integer ≥ 1, got "0"`},
		{Acks, "2", `acks must be one of 0, 1, -1, all, got "2"`},
		{EnableIdempotence, "True", ""},
		{"compression.gzip.level", "-1", ""},
		{"compression.gzip.level", "10", `compression.gzip.level must be an integer in 1..9 or -1, got "10"`},
		{MaxBufferedRecords, "0", `max.buffered.records must be an integer ≥ 1, got "0"`},
		// security.protocol reads in any case, as the Java client's
		// CaseInsensitiveValidString does; compression.type does not.
		{SecurityProtocol, "sasl_ssl", ""},
		{SecurityProtocol, "tls", `security.protocol must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL (in any case), got "tls"`},
		{CompressionType, "ZSTD", `compression.type must be one of none, gzip, snappy, lz4, zstd, got "ZSTD"`},
	} {
		err := CheckProducer(tc.name, tc.v)
		if got := errText(err); got != tc.wantErr {
			t.Errorf("CheckProducer(%s, %q) = %q, want %q", tc.name, tc.v, got, tc.wantErr)
		}
	}
	if _, ok := ProducerType("no.such.setting"); ok {
		t.Error("unknown setting has a type")
	}
	for _, n := range []string{Acks, EnableIdempotence, MaxInFlight, BatchSize, LingerMs, CompressionType,
		BufferMemory, MaxRequestSize, TransactionalID, SecurityProtocol, MaxBufferedRecords, TransactionDurationMs} {
		if _, ok := ProducerType(n); !ok {
			t.Errorf("named setting %s is not in the table", n)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestTransactions: the schedule's defaults, and the transaction settings
// refused without a transactional.id.
func TestTransactions(t *testing.T) {
	for _, tc := range []struct {
		name     string
		props    map[string]string
		want     Transactions
		conflict string
	}{
		{"default", map[string]string{TransactionalID: "t"}, Transactions{Every: DefaultTransactionDurationMs}, ""},
		{"records only: no time bound", map[string]string{TransactionalID: "t", TransactionRecords: "10"}, Transactions{Records: 10}, ""},
		{"both", map[string]string{TransactionalID: "t", TransactionRecords: "10", TransactionDurationMs: "5", TransactionAbortRatio: "1"},
			Transactions{Every: 5, Records: 10, AbortRatio: 1}, ""},
		{"abort ratio without an id", map[string]string{TransactionAbortRatio: "0.2"}, Transactions{Every: DefaultTransactionDurationMs, AbortRatio: 0.2},
			"transaction.abort.ratio applies to a transactional producer: set transactional.id"},
		{"duration without an id", map[string]string{TransactionDurationMs: "100"}, Transactions{Every: 100},
			"transaction.duration.ms applies to a transactional producer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.props)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Transactions(); got != tc.want {
				t.Errorf("Transactions() = %+v, want %+v", got, tc.want)
			}
			err = p.TransactionConflict()
			if (err == nil) != (tc.conflict == "") || (err != nil && !strings.Contains(err.Error(), tc.conflict)) {
				t.Errorf("TransactionConflict() = %v, want %q", err, tc.conflict)
			}
		})
	}
}
