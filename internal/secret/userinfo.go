package secret

import "regexp"

// userinfo matches the "user:password@" of an address or URL: the text
// before the last '@' of a word, after any "scheme://".
var userinfo = regexp.MustCompile(`((?:^|[\s,"'(=])(?:[A-Za-z][A-Za-z0-9+.-]*://)?)[^\s,"'()=]*@`)

// RedactUserinfo hides the credentials written into addresses in s
// ("user:pass@host:9092", "http://user:pass@host:8889"), so that a message
// quoting a mistyped address never prints a password.
func RedactUserinfo(s string) string {
	return userinfo.ReplaceAllString(s, "${1}"+Hidden+"@")
}

// userinfoPassword matches the password of "scheme://user:password@".
var userinfoPassword = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]*:([^\s/@]+)@`)

// UserinfoPasswords returns the passwords written into the URLs in s, so
// that a redactor can hide them wherever else they appear (a client's
// error quoting the URL it could not reach).
func UserinfoPasswords(s string) []string {
	var out []string
	for _, m := range userinfoPassword.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}
