package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// ContentTypeJSON, set as Config.ContentType, makes every request speak
// JSON, even for the built-in kinds that otherwise prefer protobuf.
const ContentTypeJSON = "application/json"

// TLSConfig says how to trust the server and how to prove who we are.
// The *Data fields hold PEM bytes and win over the matching *File fields.
type TLSConfig struct {
	// Insecure skips verification of the server's certificate.
	Insecure bool
	// ServerName overrides the name checked against the server certificate.
	ServerName string

	CAFile   string
	CAData   []byte
	CertFile string
	CertData []byte
	KeyFile  string
	KeyData  []byte
}

// Config is everything needed to talk to one apiserver. It mirrors the
// fields of client-go's rest.Config that kubeloop uses.
type Config struct {
	// Host is the apiserver's base URL: "https://127.0.0.1:6443". A bare
	// host:port is taken as https, as client-go does.
	Host        string
	BearerToken string
	TLS         TLSConfig

	// QPS and Burst throttle requests on the client side with a token bucket
	// (QPS tokens per second, at most Burst saved up). QPS 0 means no
	// throttling at all. client-go instead defaults to QPS 5 / Burst 10 when
	// both are unset; kubeloop's tests would crawl at that rate, so our
	// default is off and components that want a limit set one.
	QPS   float32
	Burst int

	// Timeout bounds every request except watches, which are long-lived by
	// design and end through their timeoutSeconds or their context.
	Timeout time.Duration

	// UserAgent names the component in the apiserver's logs. Empty means
	// "kubeloop/<program name>"; components set "kubeloop/scheduler" etc.
	UserAgent string

	// ContentType is the encoding of requests and the answers asked for.
	// "" is client-go's default: requests about built-in kinds prefer
	// protobuf, custom resources and everything else speak JSON
	// (content.go). ContentTypeJSON makes every request JSON: slower,
	// but a wire you can read.
	ContentType string

	// WarningHandler receives the server's Warning headers. Nil means log
	// each distinct message once.
	WarningHandler WarningHandler

	// Logger receives the request log (at Debug: verb, URL, code, latency)
	// and, by default, warnings. Nil means slog.Default().
	Logger *slog.Logger

	// Transport replaces the HTTP transport built from TLS (tests, proxies).
	Transport http.RoundTripper
	// Impersonate, if UserName is set, makes every request act as that
	// user (Impersonate-* headers; the caller needs the impersonate verb).
	// client-go: rest.Config.Impersonate.
	Impersonate ImpersonationConfig

	// WrapTransport, if set, wraps the transport built from TLS (or
	// Transport): a test counts requests this way and keeps the cluster's
	// TLS settings. client-go: rest.Config.WrapTransport.
	WrapTransport func(http.RoundTripper) http.RoundTripper
}

// ImpersonationConfig is who to act as. client-go: rest.ImpersonationConfig.
type ImpersonationConfig struct {
	UserName string
	UID      string
	Groups   []string
	Extra    map[string][]string
}

// headers sets the Impersonate-* headers of h.
func (ic ImpersonationConfig) headers(h http.Header) {
	if ic.UserName == "" {
		return
	}
	h.Set("Impersonate-User", ic.UserName)
	if ic.UID != "" {
		h.Set("Impersonate-Uid", ic.UID)
	}
	for _, g := range ic.Groups {
		h.Add("Impersonate-Group", g)
	}
	for k, vs := range ic.Extra {
		for _, v := range vs {
			h.Add("Impersonate-Extra-"+url.PathEscape(k), v)
		}
	}
}

// ForComponent returns a copy of c whose User-Agent names the component.
func (c *Config) ForComponent(component string) *Config {
	cp := *c
	cp.UserAgent = "kubeloop/" + component
	return &cp
}

// DefaultUserAgent is "kubeloop/<program name>".
func DefaultUserAgent() string {
	return "kubeloop/" + filepath.Base(os.Args[0])
}

// baseURL parses Host, accepting a bare host:port.
func (c *Config) baseURL() (*url.URL, error) {
	if c.Host == "" {
		return nil, errors.New("client: Config.Host is empty")
	}
	host := c.Host
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("client: parse host %q: %w", c.Host, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("client: host %q: scheme must be http or https", c.Host)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u, nil
}

// tlsClientConfig builds the crypto/tls configuration.
func (t *TLSConfig) tlsClientConfig() (*tls.Config, error) {
	cfg := &tls.Config{InsecureSkipVerify: t.Insecure, ServerName: t.ServerName, MinVersion: tls.VersionTLS12}
	ca, err := dataOrFile(t.CAData, t.CAFile)
	if err != nil {
		return nil, fmt.Errorf("client: certificate authority: %w", err)
	}
	if len(ca) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca) {
			return nil, errors.New("client: certificate authority: no PEM certificates found")
		}
		cfg.RootCAs = pool
	}
	cert, err := dataOrFile(t.CertData, t.CertFile)
	if err != nil {
		return nil, fmt.Errorf("client: client certificate: %w", err)
	}
	key, err := dataOrFile(t.KeyData, t.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("client: client key: %w", err)
	}
	if len(cert) > 0 || len(key) > 0 {
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("client: client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

func dataOrFile(data []byte, file string) ([]byte, error) {
	if len(data) > 0 || file == "" {
		return data, nil
	}
	return os.ReadFile(file)
}

// transport is the HTTP transport for c: Go's default one with our TLS
// settings and a larger idle pool, because controllers issue many concurrent
// requests to a single host and the default of 2 idle connections per host
// would make most of them dial anew.
func (c *Config) transport() (http.RoundTripper, error) {
	rt := c.Transport
	if rt == nil {
		tlsCfg, err := c.TLS.tlsClientConfig()
		if err != nil {
			return nil, err
		}
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.TLSClientConfig = tlsCfg
		t.MaxIdleConns = 256
		t.MaxIdleConnsPerHost = 128
		rt = t
	}
	if c.WrapTransport != nil {
		rt = c.WrapTransport(rt)
	}
	return rt, nil
}

// rateLimiter is the token bucket of c, or nil when QPS is 0.
func (c *Config) rateLimiter() *rate.Limiter {
	if c.QPS <= 0 {
		return nil
	}
	burst := c.Burst
	if burst < 1 {
		burst = 1
	}
	return rate.NewLimiter(rate.Limit(c.QPS), burst)
}

// HTTPClientFor is a plain *http.Client that talks to cfg's apiserver as
// cfg's user: the TLS settings, and the bearer token on every request. It
// is for the odd request the typed clients do not make (a Table, a
// reverse proxy in a test). client-go: rest.HTTPClientFor.
func HTTPClientFor(cfg *Config) (*http.Client, error) {
	rt, err := cfg.transport()
	if err != nil {
		return nil, err
	}
	if cfg.BearerToken != "" {
		rt = &bearerRoundTripper{token: cfg.BearerToken, next: rt}
	}
	return &http.Client{Transport: rt}, nil
}

// bearerRoundTripper adds "Authorization: Bearer <token>" unless the
// request already has an Authorization header, as client-go's
// transport.NewBearerAuthRoundTripper.
type bearerRoundTripper struct {
	token string
	next  http.RoundTripper
}

func (b *bearerRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get("Authorization") != "" {
		return b.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
