package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"golang.org/x/time/rate"

	"kubeloop/api"
)

// Client is a connection to one apiserver. It is safe for concurrent use and
// meant to be shared by every goroutine of a component, as client-go's
// RESTClient is.
type Client struct {
	base      *url.URL
	http      *http.Client
	token     string
	as        ImpersonationConfig
	userAgent string
	timeout   time.Duration
	// limiter is nil when throttling is off.
	limiter  *rate.Limiter
	warnings WarningHandler
	registry *api.Registry
	log      *slog.Logger
	// forceJSON is Config.ContentType set to JSON: no request prefers
	// protobuf (content.go).
	forceJSON bool
}

// NewForConfig builds a Client from cfg. cfg is not kept; later changes to it
// have no effect.
func NewForConfig(cfg *Config) (*Client, error) {
	base, err := cfg.baseURL()
	if err != nil {
		return nil, err
	}
	if cfg.ContentType != "" && cfg.ContentType != ContentTypeJSON {
		return nil, fmt.Errorf("client: content type %q is not supported: leave it empty (protobuf for built-in kinds, as client-go) or set %s", cfg.ContentType, ContentTypeJSON)
	}
	rt, err := cfg.transport()
	if err != nil {
		return nil, err
	}
	ua := cfg.UserAgent
	if ua == "" {
		ua = DefaultUserAgent()
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	wh := cfg.WarningHandler
	if wh == nil {
		wh = NewLogOnceWarningHandler(logger)
	}
	return &Client{
		base:      base,
		http:      &http.Client{Transport: rt},
		token:     cfg.BearerToken,
		as:        cfg.Impersonate,
		userAgent: ua,
		timeout:   cfg.Timeout,
		limiter:   cfg.rateLimiter(),
		warnings:  wh,
		registry:  api.Builtin(),
		log:       logger.With("component", "client", "userAgent", ua),
		forceJSON: cfg.ContentType == ContentTypeJSON,
	}, nil
}

// RateLimiter returns the client's token bucket, or nil when throttling is off.
func (c *Client) RateLimiter() *rate.Limiter { return c.limiter }

// Host returns the base URL requests go to.
func (c *Client) Host() string { return c.base.String() }

// request is one HTTP call, built by the resource clients.
type request struct {
	verb        string
	path        string
	query       url.Values
	body        []byte
	contentType string
	accept      string // "" is ContentTypeJSON; acceptProtobuf prefers protobuf
}

// url joins the base URL, the path and the query. The path is already
// escaped (names go through url.PathEscape), so it is appended as text
// rather than through url.URL.Path, which would escape it a second time.
func (c *Client) url(r *request) string {
	s := c.base.String() + r.path
	if q := r.query.Encode(); q != "" {
		s += "?" + q
	}
	return s
}

// send throttles, then issues r. The caller owns the response body. ctx
// bounds the whole exchange, body included.
func (c *Client) send(ctx context.Context, r *request) (*http.Response, error) {
	if c.limiter != nil {
		if err := c.limiter.Wait(ctx); err != nil {
			return nil, fmt.Errorf("client: rate limiter: %w", err)
		}
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.verb, c.url(r), body)
	if err != nil {
		return nil, fmt.Errorf("client: build request: %w", err)
	}
	accept := r.accept
	if accept == "" {
		accept = ContentTypeJSON
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.userAgent)
	if r.body != nil {
		ct := r.contentType
		if ct == "" {
			ct = ContentTypeJSON
		}
		req.Header.Set("Content-Type", ct)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	c.as.headers(req.Header)
	start := time.Now()
	resp, err := c.http.Do(req)
	// The arguments of a disabled log call are still built: ask first.
	debug := c.log.Enabled(ctx, slog.LevelDebug)
	if err != nil {
		if debug {
			c.log.Debug("request", "verb", r.verb, "url", req.URL.String(), "err", err, "latency", time.Since(start))
		}
		return nil, fmt.Errorf("client: %s %s: %w", r.verb, req.URL.Path, err)
	}
	if debug {
		c.log.Debug("request", "verb", r.verb, "url", req.URL.String(), "code", resp.StatusCode, "latency", time.Since(start))
	}
	c.handleWarnings(resp.Header)
	return resp, nil
}

// result is a 2xx reply: its body and the media type the server wrote it
// in. client-go: rest.Result.
type result struct {
	body        []byte
	contentType string
}

// into decodes the body into obj by the reply's Content-Type.
// client-go: Result.Into.
func (res result) into(obj any) error { return decodeBody(res.contentType, res.body, obj) }

// do issues r and returns a 2xx reply; any other reply becomes an
// *api.StatusError.
func (c *Client) do(ctx context.Context, r *request) (result, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	for retries := 0; ; retries++ {
		resp, err := c.send(ctx, r)
		if err != nil {
			return result{}, err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return result{}, fmt.Errorf("client: %s %s: read body: %w", r.verb, r.path, err)
		}
		contentType := resp.Header.Get("Content-Type")
		if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
			return result{body: data, contentType: contentType}, nil
		}
		wait, ok := retryAfter(resp)
		if !ok || retries >= maxRetries {
			return result{}, errorFromResponse(r.verb, resp.StatusCode, contentType, data)
		}
		c.log.Debug("retrying", "verb", r.verb, "path", r.path, "code", resp.StatusCode, "retryAfter", wait)
		select {
		case <-ctx.Done():
			return result{}, errorFromResponse(r.verb, resp.StatusCode, contentType, data)
		case <-time.After(wait):
		}
	}
}

// maxRetries is how often a request the server asked to retry later is
// sent again, as client-go's default (rest.Request maxRetries 10).
const maxRetries = 10

// retryAfter reports whether the server asked to be tried again — a 429
// or a 5xx with "Retry-After: <seconds>" — and after how long. Only the
// header counts: a 429 without it is an answer, not a request to wait.
// client-go: rest/request.go (checkWait), which retries every verb then,
// since the server refused the request before doing anything.
func retryAfter(resp *http.Response) (time.Duration, bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
		return 0, false
	}
	secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	if err != nil || secs < 0 {
		return 0, false
	}
	return time.Duration(secs) * time.Second, true
}

// DoRaw sends a request with a JSON body (nil for none) to an absolute path
// such as "/version" and returns the 2xx body. Errors are *api.StatusError as
// for every other call.
func (c *Client) DoRaw(ctx context.Context, verb, path string, query url.Values, body []byte) ([]byte, error) {
	res, err := c.do(ctx, &request{verb: verb, path: path, query: query, body: body})
	return res.body, err
}

// DoRawContentType is DoRaw with a body of the given content type (YAML,
// protobuf, a patch type), for tests and tools that send bodies the typed
// clients never would.
func (c *Client) DoRawContentType(ctx context.Context, verb, path, contentType string, query url.Values, body []byte) ([]byte, error) {
	res, err := c.do(ctx, &request{verb: verb, path: path, query: query, body: body, contentType: contentType})
	return res.body, err
}

// Stream GETs an absolute path whose answer is a stream (the apiserver's
// /debug/trace) and returns its body, open until ctx ends or the server
// stops; a non-2xx reply is an *api.StatusError. The client's timeout does
// not apply: a stream has no expected length.
func (c *Client) Stream(ctx context.Context, path string, query url.Values) (io.ReadCloser, error) {
	r := &request{verb: http.MethodGet, path: path, query: query}
	resp, err := c.send(ctx, r)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return nil, errorFromResponse(r.verb, resp.StatusCode, resp.Header.Get("Content-Type"), data)
	}
	return resp.Body, nil
}
