package store_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func TestCompactorKeepsOnlyTheLastRevisions(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	old := f.currentRV()
	for i := range 10 {
		f.create("b"+strconv.Itoa(i), nil)
	}
	recent := f.currentRV() - 2

	ctx, cancel := context.WithCancel(f.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		store.RunCompactor(ctx, f.client(), 20*time.Millisecond, 5)
	}()
	defer func() { cancel(); <-done }()

	exact := func(rev int64) error {
		_, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{
			ResourceVersion: strconv.FormatInt(rev, 10), ResourceVersionMatch: store.ResourceVersionMatchExact})
		return err
	}
	require.Eventually(t, func() bool { return api.IsExpired(exact(old)) }, 20*time.Second, 20*time.Millisecond)
	assert.NoError(t, exact(recent), "the last revisions stay readable")
}

func TestCompactToAlreadyCompactedRevisionIsNoError(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	rev := f.currentRV()
	require.NoError(t, store.Compact(f.ctx, f.client(), rev))
	require.NoError(t, store.Compact(f.ctx, f.client(), rev-1))
}

func TestWatchWithInitialEventsAtFutureRevisionIsTooLarge(t *testing.T) {
	f := newFixture(t)
	yes := true
	_, err := f.store.Watch(f.ctx, f.prefix(), store.ListOptions{
		ResourceVersion: strconv.FormatInt(f.currentRV()+100, 10), SendInitialEvents: &yes})
	require.True(t, api.IsTooLargeResourceVersion(err), "got %v", err)
}
