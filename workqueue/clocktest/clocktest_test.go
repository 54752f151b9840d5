package clocktest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubeloop/workqueue/clocktest"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func fired(ch <-chan time.Time) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestStepFiresDueTimersOnly(t *testing.T) {
	c := clocktest.NewFakeClock(epoch)
	early, late := c.NewTimer(time.Second), c.NewTimer(time.Minute)
	assert.Equal(t, 2, c.Waiters())

	c.Step(999 * time.Millisecond)
	assert.False(t, fired(early.C()))
	c.Step(time.Millisecond)
	assert.True(t, fired(early.C()))
	assert.False(t, fired(late.C()))
	assert.Equal(t, 1, c.Waiters())
	assert.Equal(t, time.Second, c.Since(epoch))
}

func TestStopAndResetTimer(t *testing.T) {
	c := clocktest.NewFakeClock(epoch)
	tm := c.NewTimer(time.Second)
	assert.True(t, tm.Stop())
	assert.False(t, tm.Stop(), "already stopped")
	c.Step(time.Hour)
	assert.False(t, fired(tm.C()), "a stopped timer never fires")

	tm.Reset(time.Second)
	assert.True(t, c.HasTimerAt(epoch.Add(time.Hour+time.Second)))
	c.Step(time.Second)
	assert.True(t, fired(tm.C()))

	zero := c.NewTimer(0)
	assert.True(t, fired(zero.C()), "a non-positive timer fires at once")
	assert.False(t, c.HasWaiters())
}
