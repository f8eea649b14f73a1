package kafkaconf

import (
	"fmt"
	"strings"

	"github.com/prodlab/prodlab/internal/textfmt"
)

// MaxTopicNameLength is the longest topic name Kafka accepts (Topic.MAX_NAME_LENGTH).
const MaxTopicNameLength = 249

// CheckTopicName refuses a topic name Kafka's brokers would refuse
// (org.apache.kafka.common.internals.Topic.validate): empty, "." or "..",
// longer than MaxTopicNameLength, or holding a character other than
// ASCII letters, digits, '.', '_' and '-'. The message quotes at most a
// short excerpt of the name.
func CheckTopicName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("a topic name must not be empty")
	case name == "." || name == "..":
		return fmt.Errorf("topic name %q is not allowed", name)
	case len(name) > MaxTopicNameLength:
		return fmt.Errorf("topic name %s is %d characters long; Kafka allows at most %d", textfmt.Excerpt(name), len(name), MaxTopicNameLength)
	}
	if i := strings.IndexFunc(name, func(r rune) bool { return !isTopicRune(r) }); i >= 0 {
		return fmt.Errorf("topic name %s holds %q; Kafka allows ASCII letters, digits, '.', '_' and '-'", textfmt.Excerpt(name), []rune(name[i:])[0])
	}
	return nil
}

// isTopicRune reports whether r may appear in a topic name.
func isTopicRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
}
