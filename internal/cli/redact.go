package cli

import (
	"io"
	"sort"
	"strings"

	"github.com/prodlab/prodlab/internal/secret"
)

// Secrets from client properties (a --producer.config with SASL or SSL
// settings) must never reach prodlab's output. Known secret keys are shown
// as [hidden] wherever prodlab prints properties, and everything prodlab
// writes during a perf run (lines, errors, the client's own messages) goes
// through a redactor that replaces the secret values themselves.

// isSecretKey reports whether a property's value is a secret.
func isSecretKey(key string) bool { return secret.IsKey(key) }

// minSecretLen is the shortest value the redactor replaces: shorter ones
// would match innocent text everywhere (and are not worth protecting).
const minSecretLen = 3

// redactor replaces secret values in text.
type redactor struct{ secrets []string }

// newRedactor collects the secret values of props (secret.Values): whole
// values of secret keys, the passwords inside a JAAS configuration and in
// URLs.
func newRedactor(props map[string]string) *redactor {
	seen := map[string]bool{}
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len(s) >= minSecretLen && !seen[s] {
			seen[s] = true
		}
	}
	for _, v := range secret.Values(props) {
		add(v)
	}
	r := &redactor{}
	for s := range seen {
		r.secrets = append(r.secrets, s)
	}
	// Longest first, so a password inside a JAAS value does not break the
	// replacement of the whole value.
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	return r
}

// String returns s with every secret replaced by [hidden].
func (r *redactor) String(s string) string {
	if r == nil {
		return s
	}
	for _, sec := range r.secrets {
		s = strings.ReplaceAll(s, sec, "[hidden]")
	}
	return s
}

// err returns err with its message redacted (nil stays nil). errors.Is and
// errors.As still see the original through Unwrap.
func (r *redactor) err(err error) error {
	if err == nil || r == nil || len(r.secrets) == 0 {
		return err
	}
	return redactedError{msg: r.String(err.Error()), err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }

// writer wraps w so that every Write is redacted. prodlab writes whole
// lines per call, so a secret is never split across writes.
func (r *redactor) writer(w io.Writer) io.Writer {
	if r == nil || len(r.secrets) == 0 {
		return w
	}
	return redactWriter{r: r, w: w}
}

type redactWriter struct {
	r *redactor
	w io.Writer
}

func (rw redactWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(rw.w, rw.r.String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
