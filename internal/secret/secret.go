// Package secret knows which client properties hold secrets, so that they
// never reach results, logs or reports (DESIGN.md: "Processes and safety").
package secret

import "strings"

// Hidden replaces a secret value wherever prodlab writes properties.
const Hidden = "[hidden]"

// IsKey reports whether a property's value is a secret: every property the
// Java client types as a password (JavaPasswords: sasl.jaas.config, PEM
// keys and certificates, passphrases, …) and, for properties of other
// clients or releases, anything with "password", "passphrase" or "secret"
// in its name. A prefixed name (producer.ssl.keystore.key, as a matrix
// axis writes it) is judged by its property name.
func IsKey(key string) bool {
	k := strings.ToLower(key)
	return isJavaPassword(k) || strings.Contains(k, "password") ||
		strings.Contains(k, "passphrase") || strings.Contains(k, "secret")
}

// isJavaPassword reports whether k (lower case), or the property name
// after any dotted prefix of it, is in JavaPasswords.
func isJavaPassword(k string) bool {
	for {
		if javaPasswords[k] {
			return true
		}
		_, rest, ok := strings.Cut(k, ".")
		if !ok {
			return false
		}
		k = rest
	}
}

// Mask returns a copy of props as prodlab writes them: every secret value
// replaced by Hidden, the credentials of addresses in the others hidden
// (Shown).
func Mask(props map[string]string) map[string]string {
	if props == nil {
		return nil
	}
	out := make(map[string]string, len(props))
	for k, v := range props {
		out[k] = Shown(k, v)
	}
	return out
}

// Shown is property key's value v as prodlab prints or writes it: Hidden
// for a secret key, else v with the credentials of any address in it
// hidden ("https://app:PASSWORD@idp/token" → "https://[hidden]@idp/token").
func Shown(key, v string) string {
	if IsKey(key) {
		return Hidden
	}
	return RedactUserinfo(v)
}

// JVMOpts returns JVM options as prodlab writes them: a system property
// whose name holds a secret's word (-Djavax.net.ssl.keyStorePassword=…)
// has its value hidden, and the credentials of addresses in the others.
func JVMOpts(opts []string) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		if name, v, ok := strings.Cut(strings.TrimPrefix(o, "-D"), "="); ok && strings.HasPrefix(o, "-D") {
			out[i] = "-D" + name + "=" + Shown(name, v)
			continue
		}
		out[i] = RedactUserinfo(o)
	}
	return out
}
