package cluster

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
)

// newClusterID returns a random KRaft cluster id: 16 random bytes in
// unpadded base64url, 22 characters, the form kafka-storage random-uuid
// prints.
func newClusterID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate cluster id: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}
