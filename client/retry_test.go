package client

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubeloop/api"
)

func conflict() error {
	return api.NewConflict(api.GroupResource{Resource: "pods"}, "p", api.ErrObjectModified)
}

func TestRetryOnConflictRetriesUntilSuccess(t *testing.T) {
	calls := 0
	err := RetryOnConflict(DefaultRetry, func() error {
		calls++
		if calls < 3 {
			return conflict()
		}
		return nil
	})
	assert.NoError(t, err)
	assert.Equal(t, 3, calls)
}

func TestRetryOnConflictGivesUpAfterStepsWithLastError(t *testing.T) {
	calls := 0
	err := RetryOnConflict(Backoff{Steps: 5, Duration: time.Microsecond, Factor: 1}, func() error {
		calls++
		return conflict()
	})
	assert.True(t, api.IsConflict(err))
	assert.Equal(t, 5, calls, "Steps is the number of tries")
}

func TestRetryOnConflictReturnsOtherErrorsAtOnce(t *testing.T) {
	calls := 0
	boom := errors.New("boom")
	err := RetryOnConflict(DefaultRetry, func() error {
		calls++
		return boom
	})
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, 1, calls)
}

func TestOnErrorUsesTheRetriablePredicate(t *testing.T) {
	calls := 0
	err := OnError(DefaultBackoff, api.IsNotFound, func() error {
		calls++
		return api.NewNotFound(api.GroupResource{Resource: "pods"}, "p")
	})
	assert.True(t, api.IsNotFound(err))
	assert.Equal(t, DefaultBackoff.Steps, calls)
}

func TestBackoffGrowsByFactorWithBoundedJitter(t *testing.T) {
	b := Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 5, Jitter: 0.1}
	for _, base := range []time.Duration{10 * time.Millisecond, 50 * time.Millisecond, 250 * time.Millisecond} {
		d := b.next()
		assert.GreaterOrEqual(t, d, base)
		assert.LessOrEqual(t, d, base+base/10)
	}
}

func TestDefaultsMatchClientGo(t *testing.T) {
	assert.Equal(t, Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1}, DefaultRetry)
	assert.Equal(t, Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 5.0, Jitter: 0.1}, DefaultBackoff)
}
