package tokenfile

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"kubeloop/apiserver/authentication/user"
)

// TokenAuthenticator knows a fixed set of tokens.
type TokenAuthenticator struct {
	tokens map[string]*user.Info
}

// New authenticates exactly the given tokens.
func New(tokens map[string]*user.Info) *TokenAuthenticator {
	return &TokenAuthenticator{tokens: tokens}
}

// NewCSV reads a token file. A line needs at least token, user name and
// uid; an empty token is skipped; a token listed twice keeps its last line,
// as in Kubernetes.
func NewCSV(path string) (*TokenAuthenticator, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.Comment = '#'
	tokens := map[string]*user.Info{}
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("token file '%s': %w", path, err)
		}
		if len(record) < 3 {
			return nil, fmt.Errorf("token file '%s' must have at least 3 columns (token, user name, user uid), found %d", path, len(record))
		}
		if record[0] == "" {
			continue
		}
		u := &user.Info{Name: record[1], UID: record[2]}
		if len(record) >= 4 && record[3] != "" {
			for _, g := range strings.Split(record[3], ",") {
				if g = strings.TrimSpace(g); g != "" {
					u.Groups = append(u.Groups, g)
				}
			}
		}
		tokens[record[0]] = u
	}
	return New(tokens), nil
}

// AuthenticateToken returns the user of a listed token; an unknown token
// is "not mine" (the bearer-token authenticator turns it into a 401 when
// nobody else knows it either).
func (a *TokenAuthenticator) AuthenticateToken(_ context.Context, token string) (*user.Info, bool, error) {
	u, ok := a.tokens[token]
	if !ok {
		return nil, false, nil
	}
	return u, true, nil
}
