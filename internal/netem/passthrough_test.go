package netem

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testtier"
)

// selfSigned returns a server certificate for 127.0.0.1 and a pool trusting it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "echo"},
		NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// TestPassthroughTLS: a TLS session crosses an opaque proxy intact and
// delayed, without a framing error.
func TestPassthroughTLS(t *testing.T) {
	testtier.Quiet(t) // counts the proxy's connections: beside other packages, a client retrying a stopped broker's port can land on it
	cert, pool := selfSigned(t)
	echo := listenLoopback(t, func(c net.Conn) {
		s := tls.Server(c, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		_, _ = io.Copy(s, s)
	})
	const rtt = 20 * time.Millisecond
	p := startProxy(t, echo, Config{RTT: rtt, Opaque: true})
	c := tls.Client(dial(t, p.Addr()), &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12})
	if err := c.Handshake(); err != nil {
		t.Fatalf("handshake through the proxy: %v", err)
	}
	msg := make([]byte, 100_000)
	for i := range msg {
		msg[i] = byte(i)
	}
	start := time.Now()
	go func() { _, _ = c.Write(msg) }()
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatalf("echo: %v", err)
	}
	if took := time.Since(start); took < rtt {
		t.Errorf("round trip %v, want at least the emulated %v", took, rtt)
	}
	if !bytes.Equal(got, msg) {
		t.Fatal("bytes changed on the way")
	}
	if evs := p.Events(); len(evs) > 0 {
		t.Errorf("events %v, want none", evs)
	}
	if st := p.Stats(); st.BytesUp < int64(len(msg)) || st.Connections != 1 {
		t.Errorf("stats %+v: want the bytes and one connection", st)
	}
}

// TestPassthroughReadsNothing: in the opaque mode the proxy does not read
// Kafka framing, so plaintext produce requests are neither counted nor
// timed nor cut; the framing mode counts the same requests and cuts, which
// shows the check can fail.
func TestPassthroughReadsNothing(t *testing.T) {
	tests := []struct {
		name        string
		opaque      bool
		wantCounted int64
		wantCut     bool
	}{
		{"framing", false, 3, true},
		{"opaque", true, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fb := &fakeBroker{respond: ackResponse}
			p := startProxy(t, fb.start(t), Config{Opaque: tt.opaque, Fault: &Fault{EveryProduce: 3}})
			c := dial(t, p.Addr())
			cut := false
			for i := range 3 {
				if _, err := c.Write(produceFrame(9, int32(i), -1, 100, nil)); err != nil {
					t.Fatal(err)
				}
				if _, err := readFrame(c); err != nil {
					cut = true
					break
				}
			}
			if got := p.Stats().ProduceRequests; got != tt.wantCounted || cut != tt.wantCut {
				t.Errorf("produce requests counted %d, cut %v; want %d, %v", got, cut, tt.wantCounted, tt.wantCut)
			}
		})
	}
}
