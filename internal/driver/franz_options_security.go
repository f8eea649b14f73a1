package driver

import (
	"strings"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// franzSecurityTexts are the texts of the security properties
// (franz_security.go): they make kgo options only together, so a text
// names its part in them.
var franzSecurityTexts = map[string]franzText{
	"security.protocol": func(_ kafkaconf.Value, c franzTextCtx) string {
		var opts []string
		switch c.protocol {
		case "", "PLAINTEXT":
			return "(default: plaintext)"
		case "SSL", "SASL_PLAINTEXT", "SASL_SSL":
		default:
			return ""
		}
		if c.tls() {
			opts = append(opts, franzTLSText)
		}
		if c.sasl() && c.mechanism == "" { // the driver's default mechanism
			opts = append(opts, saslTexts["PLAIN"])
		}
		if len(opts) == 0 {
			return "(no option of its own: SASL over plaintext, see sasl.mechanism)"
		}
		return strings.Join(opts, ", ")
	},
	"sasl.mechanism": func(_ kafkaconf.Value, c franzTextCtx) string {
		switch {
		case !c.sasl():
			return franzUnused
		case c.mechanism == "":
			return "(default: PLAIN, whose kgo.SASL stands beside security.protocol)"
		}
		return saslTexts[c.mechanism] // "" for a mechanism the driver refuses
	},
	"sasl.jaas.config": func(_ kafkaconf.Value, c franzTextCtx) string {
		if !c.sasl() {
			return franzUnused
		}
		return "(value hidden: its username and password are the user and pass of kgo.SASL)"
	},
	"ssl.truststore.certificates": func(_ kafkaconf.Value, c franzTextCtx) string {
		if !c.tls() {
			return franzUnused
		}
		return "(value hidden: the RootCAs of kgo.DialTLSConfig's tls.Config)"
	},
	"ssl.truststore.location": func(v kafkaconf.Value, c franzTextCtx) string {
		switch {
		case !c.tls():
			return franzUnused
		case c.trustType != "PEM":
			return "" // franz-go reads PEM truststores only
		}
		return "(the RootCAs of kgo.DialTLSConfig's tls.Config, read from PEM file " + v.Text() + ")"
	},
	"ssl.truststore.type": func(_ kafkaconf.Value, c franzTextCtx) string {
		if c.trustType == "PEM" {
			return "(no kgo option: franz-go reads ssl.truststore.location as PEM)"
		}
		return "(no kgo option: franz-go reads PEM truststores only)"
	},
	"ssl.endpoint.identification.algorithm": func(v kafkaconf.Value, c franzTextCtx) string {
		switch {
		case !c.tls():
			return franzUnused
		case v.Text() == "":
			return "(the tls.Config of kgo.DialTLSConfig checks the server's chain, not its host name: " +
				"InsecureSkipVerify with a VerifyPeerCertificate of the chain)"
		}
		return "(default: the tls.Config of kgo.DialTLSConfig checks the server's host name)"
	},
}
