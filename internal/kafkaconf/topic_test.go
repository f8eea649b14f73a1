package kafkaconf

import (
	"strings"
	"testing"
)

// TestCheckTopicName checks Kafka's topic name rules, and that a long
// name is quoted only in part.
func TestCheckTopicName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"orders", ""},
		{"a.b_c-9", ""},
		{strings.Repeat("t", 249), ""},
		{strings.Repeat("t", 250), "is 250 characters long"},
		{"", "must not be empty"},
		{".", "not allowed"},
		{"a b", `holds ' '`},
		{"a\x1b[31m", `"a\x1b[31m" holds '\x1b'`},
	}
	for _, tt := range tests {
		err := CheckTopicName(tt.name)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckTopicName(%.20q) = %v, want nil", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckTopicName(%.20q) = %v, want %q", tt.name, err, tt.want)
		}
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("message of %d bytes quotes too much", len(err.Error()))
		}
	}
}
