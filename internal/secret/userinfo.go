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
