// Package secret knows which client properties hold secrets, so that they
// never reach results, logs or reports (DESIGN.md: "Processes and safety").
package secret

import "strings"

// Hidden replaces a secret value wherever prodlab writes properties.
const Hidden = "[hidden]"

// IsKey reports whether a property's value is a secret: sasl.jaas.config,
// PEM private keys (ssl.keystore.key), and anything with "password" or
// "secret" in its name.
func IsKey(key string) bool {
	k := strings.ToLower(key)
	return k == "sasl.jaas.config" || k == "ssl.keystore.key" ||
		strings.Contains(k, "password") || strings.Contains(k, "secret")
}

// Mask returns a copy of props with every secret value replaced by Hidden.
func Mask(props map[string]string) map[string]string {
	if props == nil {
		return nil
	}
	out := make(map[string]string, len(props))
	for k, v := range props {
		if IsKey(k) {
			v = Hidden
		}
		out[k] = v
	}
	return out
}
