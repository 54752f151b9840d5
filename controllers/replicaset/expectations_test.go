package replicaset

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/workqueue/clocktest"
)

func newTestExpectations() (*ControllerExpectations, *clocktest.FakeClock) {
	clock := clocktest.NewFakeClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	return NewControllerExpectations(clock, nil), clock
}

func TestExpectationsSatisfiedWhenNothingWasExpected(t *testing.T) {
	e, _ := newTestExpectations()
	assert.True(t, e.SatisfiedExpectations("ns/rs"))
	_, _, exists := e.GetExpectations("ns/rs")
	assert.False(t, exists)
}

func TestExpectationsWaitForEveryCreationObserved(t *testing.T) {
	e, _ := newTestExpectations()
	e.ExpectCreations("ns/rs", 3)
	for i := 0; i < 2; i++ {
		e.CreationObserved("ns/rs")
		assert.False(t, e.SatisfiedExpectations("ns/rs"), "after %d of 3 observations", i+1)
	}
	e.CreationObserved("ns/rs")
	assert.True(t, e.SatisfiedExpectations("ns/rs"))
	add, del, exists := e.GetExpectations("ns/rs")
	require.True(t, exists)
	assert.Equal(t, int64(0), add)
	assert.Equal(t, int64(0), del)
	assert.True(t, e.SatisfiedExpectations("ns/other"), "expectations are per key")
}

func TestExpectationsCountEachDeletedPodOnce(t *testing.T) {
	e, _ := newTestExpectations()
	e.ExpectDeletions("ns/rs", []string{"ns/a", "ns/b"})
	e.DeletionObserved("ns/rs", "ns/a")
	e.DeletionObserved("ns/rs", "ns/a") // deletionTimestamp update, then the delete
	e.DeletionObserved("ns/rs", "ns/unrelated")
	assert.False(t, e.SatisfiedExpectations("ns/rs"))
	_, del, _ := e.GetExpectations("ns/rs")
	assert.Equal(t, int64(1), del)
	e.DeletionObserved("ns/rs", "ns/b")
	assert.True(t, e.SatisfiedExpectations("ns/rs"))
}

func TestExpectationsExpireAfterTimeout(t *testing.T) {
	e, clock := newTestExpectations()
	e.ExpectCreations("ns/rs", 5)
	clock.Step(ExpectationsTimeout)
	assert.False(t, e.SatisfiedExpectations("ns/rs"), "exactly the timeout is not yet expired")
	clock.Step(time.Second)
	assert.True(t, e.SatisfiedExpectations("ns/rs"))
}

func TestNewExpectationsReplaceOldOnes(t *testing.T) {
	e, clock := newTestExpectations()
	e.ExpectDeletions("ns/rs", []string{"ns/a"})
	clock.Step(ExpectationsTimeout + time.Second)
	e.ExpectCreations("ns/rs", 1)
	assert.False(t, e.SatisfiedExpectations("ns/rs"), "the new expectations start a new timeout")
	e.DeletionObserved("ns/rs", "ns/a")
	assert.False(t, e.SatisfiedExpectations("ns/rs"), "a deletion from the old round lowers nothing")
	e.CreationObserved("ns/rs")
	assert.True(t, e.SatisfiedExpectations("ns/rs"))
}

func TestDeleteExpectationsForgetsTheKey(t *testing.T) {
	e, _ := newTestExpectations()
	e.ExpectCreations("ns/rs", 2)
	e.DeleteExpectations("ns/rs")
	_, _, exists := e.GetExpectations("ns/rs")
	assert.False(t, exists)
	assert.True(t, e.SatisfiedExpectations("ns/rs"))
}

func TestSlowStartBatchStopsAfterTheFirstFailingBatch(t *testing.T) {
	var calls atomic.Int32
	ok, err := slowStartBatch(10, 1, func() error {
		if calls.Add(1) == 4 { // a call of the third batch (calls 4..7)
			return assert.AnError
		}
		return nil
	})
	require.ErrorIs(t, err, assert.AnError)
	assert.Equal(t, int32(7), calls.Load(), "batches of 1, 2 and 4 run; the last 3 are skipped")
	assert.Equal(t, 6, ok)

	calls.Store(0)
	ok, err = slowStartBatch(10, 1, func() error { calls.Add(1); return nil })
	require.NoError(t, err)
	assert.Equal(t, 10, ok)
	assert.Equal(t, int32(10), calls.Load())
}
