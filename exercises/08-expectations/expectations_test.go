//go:build exercise || solution

package expectations

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/workqueue/clocktest"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newExpectations() (*ControllerExpectations, *clocktest.FakeClock) {
	clk := clocktest.NewFakeClock(epoch)
	return NewControllerExpectations(clk), clk
}

func TestCreationsHoldTheReplicaSetBackUntilAllAreObserved(t *testing.T) {
	e, _ := newExpectations()
	assert.True(t, e.SatisfiedExpectations("ns/web"), "nothing expected yet: the controller may act")
	e.ExpectCreations("ns/web", 3)
	assert.False(t, e.SatisfiedExpectations("ns/web"), "three creations on their way: the cache is behind")
	e.CreationObserved("ns/web")
	e.CreationObserved("ns/web")
	assert.False(t, e.SatisfiedExpectations("ns/web"), "one still missing")
	e.CreationObserved("ns/web")
	assert.True(t, e.SatisfiedExpectations("ns/web"), "all three observed")
	add, _, exists := e.GetExpectations("ns/web")
	assert.True(t, exists)
	assert.Zero(t, add)
}

func TestEachReplicaSetHasItsOwnExpectations(t *testing.T) {
	e, _ := newExpectations()
	e.ExpectCreations("ns/web", 1)
	e.CreationObserved("ns/api") // another ReplicaSet's pod
	e.DeletionObserved("ns/api", "ns/api-1")
	assert.False(t, e.SatisfiedExpectations("ns/web"), "ns/api's pods say nothing about ns/web")
	assert.True(t, e.SatisfiedExpectations("ns/api"))
	_, _, exists := e.GetExpectations("ns/api")
	assert.False(t, exists, "observing for a key with no expectations creates none")
}

// A new round replaces the last one. An extra observation left over (a
// pod adopted, a create that was observed after being given up on) must
// not count towards the next round.
func TestANewRoundReplacesWhatWasLeft(t *testing.T) {
	e, _ := newExpectations()
	e.ExpectCreations("ns/web", 1)
	e.CreationObserved("ns/web")
	e.CreationObserved("ns/web") // one more than expected
	require.True(t, e.SatisfiedExpectations("ns/web"))

	e.ExpectCreations("ns/web", 2)
	assert.False(t, e.SatisfiedExpectations("ns/web"), "two new creations expected")
	add, _, _ := e.GetExpectations("ns/web")
	assert.EqualValues(t, 2, add, "the new round expects 2, whatever the old one left")
	e.CreationObserved("ns/web")
	assert.False(t, e.SatisfiedExpectations("ns/web"), "one of two observed")

	e.ExpectDeletions("ns/web", []string{"ns/web-1"})
	add, del, _ := e.GetExpectations("ns/web")
	assert.Zero(t, add, "a deletion round replaces the creations left")
	assert.EqualValues(t, 1, del)
}

// Deletions are tracked by pod: the same pod can be observed going away
// twice (the update that sets its deletionTimestamp, then the delete), and
// must count once.
func TestDeletionsCountEachAwaitedPodOnce(t *testing.T) {
	e, _ := newExpectations()
	e.ExpectDeletions("ns/web", []string{"ns/web-1", "ns/web-2"})
	assert.False(t, e.SatisfiedExpectations("ns/web"))
	e.DeletionObserved("ns/web", "ns/web-1")
	e.DeletionObserved("ns/web", "ns/web-1")
	assert.False(t, e.SatisfiedExpectations("ns/web"), "web-1 twice is still one deletion of two")
	e.DeletionObserved("ns/web", "ns/web-9")
	assert.False(t, e.SatisfiedExpectations("ns/web"), "web-9 was not one of the pods being deleted")
	_, del, _ := e.GetExpectations("ns/web")
	assert.EqualValues(t, 1, del)
	e.DeletionObserved("ns/web", "ns/web-2")
	assert.True(t, e.SatisfiedExpectations("ns/web"))
}

// A lost event must not stop a ReplicaSet forever.
func TestExpectationsExpireAfterFiveMinutes(t *testing.T) {
	e, clk := newExpectations()
	e.ExpectCreations("ns/web", 1)
	clk.Step(ExpectationsTimeout)
	assert.False(t, e.SatisfiedExpectations("ns/web"), "exactly 5 minutes is not yet expired")
	clk.Step(time.Second)
	assert.True(t, e.SatisfiedExpectations("ns/web"), "past 5 minutes the controller syncs anyway")

	e.ExpectDeletions("ns/web", []string{"ns/web-1"})
	assert.False(t, e.SatisfiedExpectations("ns/web"), "new expectations get a new timestamp")
}

// Pod events arrive on the informer's goroutine while workers read and set
// expectations.
func TestConcurrentObservationsLoseNone(t *testing.T) {
	const n = 400
	e, _ := newExpectations()
	e.ExpectCreations("ns/web", n)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("ns/old-%d", i)
	}
	e.ExpectDeletions("ns/old", keys)
	var wg sync.WaitGroup
	for i := range n - 1 {
		wg.Go(func() {
			e.CreationObserved("ns/web")
			e.DeletionObserved("ns/old", keys[i])
			e.SatisfiedExpectations("ns/web")
		})
	}
	wg.Wait()
	add, del, _ := e.GetExpectations("ns/web")
	assert.EqualValues(t, 1, add, "%d of %d creations observed", n-1, n)
	assert.Zero(t, del)
	_, del, _ = e.GetExpectations("ns/old")
	assert.EqualValues(t, 1, del, "%d of %d deletions observed", n-1, n)
	assert.False(t, e.SatisfiedExpectations("ns/web"))
	assert.False(t, e.SatisfiedExpectations("ns/old"))
	e.CreationObserved("ns/web")
	e.DeletionObserved("ns/old", keys[n-1])
	assert.True(t, e.SatisfiedExpectations("ns/web"))
	assert.True(t, e.SatisfiedExpectations("ns/old"))
}
