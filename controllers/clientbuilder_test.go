package controllers

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The token is reused until 80% of its life has passed, then fetched
// again; a failed refresh keeps the old token while it is valid, and is an
// error once it has expired.
func TestTokenSourceRenewsAfterEightyPercentAndKeepsTheOldOneOnFailure(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	fetches := 0
	var fail error
	src := &tokenSource{now: func() time.Time { return now }, fetch: func(context.Context) (string, time.Time, error) {
		if fail != nil {
			return "", time.Time{}, fail
		}
		fetches++
		return fmt.Sprintf("t%d", fetches), now.Add(time.Hour), nil
	}}
	ctx := context.Background()
	tok, err := src.Token(ctx)
	require.NoError(t, err)
	assert.Equal(t, "t1", tok)

	now = now.Add(47 * time.Minute)
	tok, _ = src.Token(ctx)
	assert.Equal(t, "t1", tok, "before 48 minutes the token is reused")

	now = now.Add(2 * time.Minute)
	tok, _ = src.Token(ctx)
	assert.Equal(t, "t2", tok, "after 48 minutes a fresh one is fetched")

	fail = errors.New("apiserver down")
	now = now.Add(50 * time.Minute)
	tok, err = src.Token(ctx)
	require.NoError(t, err)
	assert.Equal(t, "t2", tok, "a failed refresh keeps the token that is still valid")

	now = now.Add(11 * time.Minute)
	_, err = src.Token(ctx)
	assert.ErrorIs(t, err, fail, "an expired token is not handed out")
	assert.Equal(t, 2, fetches)
}

// A token the apiserver refused is dropped: the next Token fetches anew,
// however young the refused one was; a stale Invalidate (of a token
// already replaced) changes nothing.
func TestTokenSourceInvalidateFetchesAgain(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	fetches := 0
	src := &tokenSource{now: func() time.Time { return now }, fetch: func(context.Context) (string, time.Time, error) {
		fetches++
		return fmt.Sprintf("t%d", fetches), now.Add(time.Hour), nil
	}}
	ctx := context.Background()
	tok, _ := src.Token(ctx)
	src.Invalidate(tok)
	tok, err := src.Token(ctx)
	require.NoError(t, err)
	assert.Equal(t, "t2", tok)
	src.Invalidate("t1")
	tok, _ = src.Token(ctx)
	assert.Equal(t, "t2", tok)
	assert.Equal(t, 2, fetches)
}
