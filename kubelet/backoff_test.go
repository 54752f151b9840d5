package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The back-off is driven by the times it is given, so this test is its
// fake clock: a container that exits the moment it starts, restarted as
// soon as the back-off allows.
func TestBackOffDoublesFromBaseToMaxSinceTheLastExit(t *testing.T) {
	b := newBackOff(10*time.Second, 5*time.Minute)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	in, _, _ := b.inBackOffSince("uid/c", now, now)
	require.False(t, in, "the first restart is immediate")
	b.next("uid/c", now)

	var delays []time.Duration
	for range 8 {
		finished := now // it exits as soon as it starts
		in, wait, delay := b.inBackOffSince("uid/c", finished, now)
		require.True(t, in)
		require.Equal(t, delay, wait)
		in, _, _ = b.inBackOffSince("uid/c", finished, now.Add(delay-time.Millisecond))
		require.True(t, in, "still waiting just before the delay ends")
		now = now.Add(delay)
		in, _, _ = b.inBackOffSince("uid/c", finished, now)
		require.False(t, in, "free to restart when the delay has passed since the exit")
		b.next("uid/c", now)
		delays = append(delays, delay)
	}
	s := time.Second
	require.Equal(t, []time.Duration{10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s, 300 * s, 300 * s}, delays)

	// Quiet for more than twice the maximum: the back-off starts over.
	now = now.Add(10*time.Minute + time.Second)
	in, _, _ = b.inBackOffSince("uid/c", now, now)
	require.False(t, in)
	b.next("uid/c", now)
	_, _, delay := b.inBackOffSince("uid/c", now, now)
	require.Equal(t, 10*time.Second, delay)

	b.forgetPod("uid")
	in, _, _ = b.inBackOffSince("uid/c", now, now)
	require.False(t, in, "a removed pod's back-off is forgotten")
}
