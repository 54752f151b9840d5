package store

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"kubeloop/api"
)

// continueToken is the state of a paged list, handed to the client as an
// opaque string. Its JSON field names and its base64 (URL alphabet, no
// padding) are Kubernetes', so a token means the same to both servers.
//
// StartKey is relative to the list's prefix: the last key returned plus
// "\x00", the smallest key after it. RV is the revision every page is read
// at, which is what makes the pages one consistent snapshot.
type continueToken struct {
	APIVersion string `json:"v"`
	RV         int64  `json:"rv"`
	StartKey   string `json:"start"`
}

const continueTokenVersion = "meta.k8s.io/v1"

// encodeContinue makes the token for the page after lastKey.
func encodeContinue(lastKey, prefix string, rev int64) (string, error) {
	rel, ok := strings.CutPrefix(lastKey, prefix)
	if !ok {
		return "", fmt.Errorf("key %q is not under the list prefix %q", lastKey, prefix)
	}
	out, err := json.Marshal(continueToken{APIVersion: continueTokenVersion, RV: rev, StartKey: rel + "\x00"})
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// decodeContinue returns the absolute key to start from and the revision to
// read at. A negative revision means "read at the latest" (Kubernetes hands
// such tokens out when a snapshot has been compacted; we accept them).
// Every malformed token is 400 BadRequest.
func decodeContinue(token, prefix string) (startKey string, rev int64, err error) {
	invalid := func(detail string) error {
		msg := "continue key is not valid"
		if detail != "" {
			msg += ": " + detail
		}
		return api.NewBadRequest(msg)
	}
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return "", 0, invalid(err.Error())
	}
	var c continueToken
	if err := json.Unmarshal(data, &c); err != nil {
		return "", 0, invalid(err.Error())
	}
	if c.APIVersion != continueTokenVersion {
		return "", 0, invalid("server does not recognize this encoded version " + c.APIVersion)
	}
	if c.RV == 0 {
		return "", 0, invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	}
	if c.StartKey == "" {
		return "", 0, invalid("encoded start key empty (version meta.k8s.io/v1)")
	}
	// A start key like "../../secrets/x" would escape the prefix: only keys
	// that path.Clean leaves alone are accepted.
	key := c.StartKey
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	if path.Clean(key) != key {
		return "", 0, invalid(c.StartKey)
	}
	return prefix + key[1:], c.RV, nil
}
