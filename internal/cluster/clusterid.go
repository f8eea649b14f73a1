package cluster

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
)

// newClusterID returns a random KRaft cluster id: 16 random bytes in
// unpadded base64url, 22 characters, the form kafka-storage random-uuid
// prints. Like Kafka's Uuid.randomUuid it never starts with '-': the
// storage tool would read such an id (1 in 64 draws) as an option and
// refuse to format ("argument --cluster-id/-t: expected one argument").
func newClusterID() (string, error) {
	for {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", fmt.Errorf("generate cluster id: %w", err)
		}
		if id := base64.RawURLEncoding.EncodeToString(b[:]); id[0] != '-' {
			return id, nil
		}
	}
}
