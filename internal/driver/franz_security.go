package driver

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// franzSecurity collects the Java client's security properties, which only
// make kgo options together: security.protocol decides whether the
// truststore and the JAAS login are used at all.
type franzSecurity struct {
	protocol    string // security.protocol, upper case; "" is PLAINTEXT
	trustType   string // ssl.truststore.type
	trustPEM    string // ssl.truststore.certificates
	trustFile   string // ssl.truststore.location (PEM only)
	noHostCheck bool   // ssl.endpoint.identification.algorithm=""
	mechanism   string // sasl.mechanism
	jaas        string // sasl.jaas.config
}

// franzSecurityRows are the Java security properties franz-go honours:
// each is stored for franzSecurity.opts, and its text (franzSecurityTexts)
// names its part in the options they make together. A keystore (client
// certificates) is not among them: prodlab's clusters do not ask for
// client authentication.
var franzSecurityRows = func() map[string]franzRow {
	rows := map[string]franzRow{}
	for k, set := range securitySetters {
		rows[k] = franzRow{
			apply: func(v kafkaconf.Value, s *franzSettings) error {
				set(v.Text(), &s.sec)
				return nil
			},
			text: franzSecurityTexts[k],
		}
	}
	protocol := rows["security.protocol"]
	protocol.read = func(_ *kgo.Client, s *franzSettings) (string, bool) { return s.sec.protocol, s.sec.protocol != "" }
	rows["security.protocol"] = protocol
	return rows
}()

// securitySetters store each security property in a franzSecurity.
var securitySetters = map[string]func(v string, s *franzSecurity){
	"security.protocol":                     func(v string, s *franzSecurity) { s.protocol = strings.ToUpper(v) },
	"ssl.truststore.type":                   func(v string, s *franzSecurity) { s.trustType = strings.ToUpper(v) },
	"ssl.truststore.certificates":           func(v string, s *franzSecurity) { s.trustPEM = v },
	"ssl.truststore.location":               func(v string, s *franzSecurity) { s.trustFile = v },
	"ssl.endpoint.identification.algorithm": func(v string, s *franzSecurity) { s.noHostCheck = v == "" },
	"sasl.mechanism":                        func(v string, s *franzSecurity) { s.mechanism = strings.ToUpper(v) },
	"sasl.jaas.config":                      func(v string, s *franzSecurity) { s.jaas = v },
}

// opts turns the collected properties into kgo's dialer and SASL options,
// refusing what franz-go cannot do as the Java client would.
func (s *franzSecurity) opts() ([]kgo.Opt, error) {
	var opts []kgo.Opt
	switch s.protocol {
	case "", "PLAINTEXT":
		return nil, nil
	case "SSL", "SASL_PLAINTEXT", "SASL_SSL":
	default:
		return nil, fmt.Errorf("security.protocol must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, got %q", s.protocol)
	}
	if strings.HasSuffix(s.protocol, "SSL") {
		cfg, err := s.tlsConfig()
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	if strings.HasPrefix(s.protocol, "SASL") {
		o, err := s.saslOpt()
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	}
	return opts, nil
}

// tlsConfig trusts the PEM truststore if one is given (inline or as a
// file), else the system's roots, as the Java client trusts its JDK's.
func (s *franzSecurity) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: s.noHostCheck} //nolint:gosec // only when the user turns host name checks off, as in Java
	pemText := s.trustPEM
	if s.trustFile != "" {
		if s.trustType != "PEM" {
			return nil, fmt.Errorf("ssl.truststore.location: franz-go reads PEM truststores only (ssl.truststore.type=PEM), got type %q", s.trustType)
		}
		b, err := os.ReadFile(s.trustFile)
		if err != nil {
			return nil, fmt.Errorf("ssl.truststore.location: %w", err)
		}
		pemText = string(b)
	}
	if pemText == "" {
		return cfg, nil
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(pemText)) {
		return nil, errors.New("ssl.truststore.certificates: no PEM certificate found")
	}
	cfg.RootCAs = pool
	if s.noHostCheck {
		// Java then still checks the chain, only not the host name.
		cfg.VerifyPeerCertificate = verifyChainOnly(pool)
	}
	return cfg, nil
}

// verifyChainOnly checks a server's chain against pool without the host
// name (ssl.endpoint.identification.algorithm="").
func verifyChainOnly(pool *x509.CertPool) func([][]byte, [][]*x509.Certificate) error {
	return func(raw [][]byte, _ [][]*x509.Certificate) error {
		if len(raw) == 0 {
			return errors.New("tls: server sent no certificate")
		}
		leaf, err := x509.ParseCertificate(raw[0])
		if err != nil {
			return fmt.Errorf("tls: server certificate: %w", err)
		}
		inter := x509.NewCertPool()
		for _, r := range raw[1:] {
			if c, err := x509.ParseCertificate(r); err == nil {
				inter.AddCert(c)
			}
		}
		_, err = leaf.Verify(x509.VerifyOptions{Roots: pool, Intermediates: inter})
		return err
	}
}

// jaasOption matches one option of a JAAS login module line:
// name="value" (quotes optional).
var jaasOption = regexp.MustCompile(`(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"`)

// saslOpt makes the SASL mechanism of sasl.mechanism with the username and
// password of sasl.jaas.config's login module.
func (s *franzSecurity) saslOpt() (kgo.Opt, error) {
	user, pass := "", ""
	for _, m := range jaasOption.FindAllStringSubmatch(s.jaas, -1) {
		switch m[1] {
		case "username":
			user = m[2]
		case "password":
			pass = m[2]
		}
	}
	if user == "" {
		return nil, errors.New("sasl.jaas.config: no username=\"…\" found (franz-go needs a login module line with username and password)")
	}
	switch s.mechanism {
	case "SCRAM-SHA-512":
		return kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha512Mechanism()), nil
	case "SCRAM-SHA-256":
		return kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha256Mechanism()), nil
	case "", "PLAIN":
		return kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism()), nil
	default:
		return nil, fmt.Errorf("sasl.mechanism %q is not supported by prodlab's franz-go driver (supported: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)", s.mechanism)
	}
}

// SecurityOpts maps the security properties among Java client properties
// (security.protocol, ssl.truststore.*, sasl.*) to franz-go options, for
// prodlab's own clients of a cluster (admin, audit) that users reach with
// producer properties (--bootstrap). Other properties are ignored.
func SecurityOpts(props map[string]string) ([]kgo.Opt, error) {
	var s franzSecurity
	for k, v := range props {
		if set, ok := securitySetters[k]; ok {
			set(strings.TrimSpace(v), &s)
		}
	}
	return s.opts()
}
