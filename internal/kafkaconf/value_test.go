package kafkaconf

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestReadValue: a value reads by its setting's type, once, and a value
// its type or Kafka's validators refuse is a *SettingError at its key.
func TestReadValue(t *testing.T) {
	for _, tc := range []struct {
		name, v string
		check   func(Value) bool
		wantErr string
	}{
		{name: "linger.ms", v: " 5 ", check: func(v Value) bool { return v.Duration() == 5*time.Millisecond && v.Int() == 5 && v.Text() == "5" }},
		{name: "batch.size", v: "65536", check: func(v Value) bool { return v.Int() == 65536 }},
		{name: "enable.idempotence", v: "TRUE", check: func(v Value) bool { return v.Bool() }},
		{name: "transaction.abort.ratio", v: "0.25", check: func(v Value) bool { return v.Float() == 0.25 }},
		{name: "compression.zstd.level", v: "-5", check: func(v Value) bool { return v.Int() == -5 }},
		{name: "client.id", v: "lab", check: func(v Value) bool { return v.Text() == "lab" }},
		// librdkafka's own names read as text: its client checks them.
		{name: "queue.buffering.max.kbytes", v: "4096", check: func(v Value) bool { return v.Text() == "4096" && v.Int() == 0 }},
		{name: "linger.ms", v: "soon", wantErr: `linger.ms must be an integer ≥ 0, got "soon"`},
		{name: "linger.ms", v: "-1", wantErr: `linger.ms must be an integer ≥ 0, got "-1"`},
		{name: "enable.idempotence", v: "1", wantErr: `enable.idempotence must be true or false, got "1"`},
		{name: "acks", v: "2", wantErr: `acks must be one of 0, 1, -1, all, got "2"`},
		{name: "max.in.flight.requests.per.connection", v: "0", wantErr: "must be an integer ≥ 1"},
	} {
		v, err := ReadValue(tc.name, tc.v)
		switch {
		case tc.wantErr != "":
			var se *SettingError
			if !errors.As(err, &se) || se.Key != tc.name || !strings.Contains(se.Msg, tc.wantErr) {
				t.Errorf("ReadValue(%s, %q) = %v, want a SettingError at %s: %q", tc.name, tc.v, err, tc.name, tc.wantErr)
			}
		case err != nil:
			t.Errorf("ReadValue(%s, %q): %v", tc.name, tc.v, err)
		case !tc.check(v):
			t.Errorf("ReadValue(%s, %q) = %+v", tc.name, tc.v, v)
		}
	}
}

// TestRead: every setting reads, the interpreted ones into Producer; a
// refused one is absent and named once, at the key as written (a
// librdkafka alias too), whichever check refused it.
func TestRead(t *testing.T) {
	s, err := Read(map[string]string{"acks": "all", "linger.ms": "5", "batch.size": "big", "max.in.flight": "many",
		TransactionDurationMs: "999999999999"})
	got := map[string]string{}
	for _, se := range SettingErrors(err) {
		if _, dup := got[se.Key]; dup {
			t.Errorf("%s refused twice: %v", se.Key, err)
		}
		got[se.Key] = se.Msg
	}
	for _, k := range []string{"batch.size", "max.in.flight", TransactionDurationMs} {
		if got[k] == "" {
			t.Errorf("%s not refused at its key: %v", k, err)
		}
		if _, ok := s.Value(k); ok {
			t.Errorf("%s refused but read", k)
		}
	}
	if len(got) != 3 {
		t.Errorf("refused %v, want batch.size, max.in.flight and %s", got, TransactionDurationMs)
	}
	if v, ok := s.Value("linger.ms"); !ok || v.Duration() != 5*time.Millisecond {
		t.Errorf("linger.ms = %+v, %v", v, ok)
	}
	if !s.AcksAll() || s.BatchSize.Set || strings.Join(s.Names(), ",") != "acks,linger.ms" {
		t.Errorf("settings %+v, names %v", s.Producer, s.Names())
	}
	if _, err := Read(map[string]string{"acks": "1"}); err != nil {
		t.Errorf("Read refused acks=1: %v", err)
	}
}

// TestSettingErrors: the refused settings are found through joins and
// wrapping alike, and an error of another kind refuses none.
func TestSettingErrors(t *testing.T) {
	a, b := &SettingError{Key: "acks", Msg: "a"}, &SettingError{Key: "linger.ms", Msg: "b"}
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"one", a, 1},
		{"joined", errors.Join(a, b), 2},
		{"wrapped join", fmt.Errorf("producer: %w", errors.Join(a, b)), 2},
		{"another kind", errors.New("acks must be all"), 0},
	} {
		if got := SettingErrors(tc.err); len(got) != tc.want {
			t.Errorf("%s: %d settings, want %d", tc.name, len(got), tc.want)
		}
	}
	// A value its type refuses is not in the typed view either, though
	// Parse alone would take it.
	s, err := Read(map[string]string{EnableIdempotence: "1"})
	if len(SettingErrors(err)) != 1 || s.EnableIdempotence.Set {
		t.Errorf("enable.idempotence=1: %v, typed %+v", err, s.EnableIdempotence)
	}
}

// TestDecode: Decode keeps every key's text, a refused one's too (what
// travels to a client that judges its own values), apart from what reads;
// its derived Settings leave the source as it was.
func TestDecode(t *testing.T) {
	s := Decode(map[string]string{"acks": "all", "linger.ms": "soon"})
	if got := s.Keys(); !slices.Equal(got, []string{"acks", "linger.ms"}) {
		t.Errorf("Keys %v, want both, the refused one too", got)
	}
	if got := s.Names(); !slices.Equal(got, []string{"acks"}) {
		t.Errorf("Names %v, want the one that read", got)
	}
	if ses := SettingErrors(s.Err()); len(ses) != 1 || ses[0].Key != "linger.ms" {
		t.Errorf("Err %v, want one refusal of linger.ms", s.Err())
	}
	if raw := s.Raw(); raw["linger.ms"] != "soon" || raw["acks"] != "all" {
		t.Errorf("Raw %v, want the text as given", raw)
	}
	s.Raw()["acks"] = "0"
	if s.Raw()["acks"] != "all" {
		t.Error("changing Raw's map changed the Settings")
	}
	for _, empty := range []map[string]string{nil, {}} {
		if z := Decode(empty); !reflect.DeepEqual(z, Settings{}) || z.Raw() == nil || len(z.Raw()) != 0 || z.Err() != nil {
			t.Errorf("Decode(%v) = %+v, want the zero Settings with an empty, non-nil Raw", empty, z)
		}
	}

	w := s.With(map[string]string{"acks": "1", "security.protocol": "SSL"})
	if w.Acks.V != "1" || w.Raw()["security.protocol"] != "SSL" || s.Acks.V != "all" || s.Raw()["security.protocol"] != "" {
		t.Errorf("With: got acks %q (source %q), protocol %q (source %q); want the extra winning, the source unchanged",
			w.Acks.V, s.Acks.V, w.Raw()["security.protocol"], s.Raw()["security.protocol"])
	}
	if !reflect.DeepEqual(s.With(nil), s) {
		t.Error("With(nil) is not the Settings itself")
	}

	tx := Decode(map[string]string{TransactionalID: "tx", "acks": "all"})
	if got := tx.WithSuffixedTransactionalID("p0"); got.TransactionalID != "tx-p0" || got.Raw()[TransactionalID] != "tx-p0" || tx.TransactionalID != "tx" {
		t.Errorf("suffixed: %q (raw %q), source %q; want tx-p0 and the source unchanged", got.TransactionalID, got.Raw()[TransactionalID], tx.TransactionalID)
	}
	if !reflect.DeepEqual(s.WithSuffixedTransactionalID("p0"), s) {
		t.Error("a Settings without transactional.id changed when suffixed")
	}
}
