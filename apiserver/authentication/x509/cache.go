package x509

// Skip on a first reading: a speed-up. Verifying a chain costs an ECDSA
// signature check per request — about a third of a small create's time
// at concurrency 64 (BenchmarkCreateConfigMapsAuth, https-certificate vs
// https-anonymous). A certificate that verified once verifies again until
// it expires, so the result is remembered per certificate (its DER bytes'
// hash) for at most verifiedTTL. Kubernetes verifies every time.

import (
	"crypto/sha256"
	"crypto/x509"
	"sync"
	"time"
)

// verifiedTTL bounds how long a success is trusted; a CA replaced by a
// restart makes a new Authenticator, hence a new cache, anyway.
const verifiedTTL = 5 * time.Minute

// maxVerified bounds the cache; past it the cache starts over.
const maxVerified = 4096

// Every request asks the cache, so it is read-locked, and the hash is taken
// before the lock: with a thousand kubelets' requests, hashing under one
// mutex made it the apiserver's most contended lock (the mutex profile of
// a 1000-node scale-up).
type verifiedCache struct {
	mu    sync.RWMutex
	until map[[sha256.Size]byte]time.Time
}

func (c *verifiedCache) ok(leaf *x509.Certificate, now time.Time) bool {
	key := sha256.Sum256(leaf.Raw)
	c.mu.RLock()
	defer c.mu.RUnlock()
	until, found := c.until[key]
	return found && now.Before(until)
}

func (c *verifiedCache) remember(leaf *x509.Certificate, now time.Time) {
	until := now.Add(verifiedTTL)
	if leaf.NotAfter.Before(until) {
		until = leaf.NotAfter
	}
	key := sha256.Sum256(leaf.Raw)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.until == nil || len(c.until) >= maxVerified {
		c.until = map[[sha256.Size]byte]time.Time{}
	}
	c.until[key] = until
}
