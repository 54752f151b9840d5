//go:build exercise || solution

package listwatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watchesAfter returns the WATCH requests after the i-th request.
func watchesAfter(reqs []request, i int) []request {
	var out []request
	for _, r := range reqs[i:] {
		if r.verb == "WATCH" {
			out = append(out, r)
		}
	}
	return out
}

func countVerb(reqs []request, verb string) int {
	n := 0
	for _, r := range reqs {
		if r.verb == verb {
			n++
		}
	}
	return n
}

func TestWatchStartsFromTheListsResourceVersion(t *testing.T) {
	var a, b string
	rn := start(t, func(rn *run) {
		a = rn.create("a").ResourceVersion
		b = rn.create("b").ResourceVersion
	})
	rn.waitUntil("the reflector listed and then watched", func() bool { return countVerb(rn.h.recorded(), "WATCH") >= 1 })
	reqs := rn.h.recorded()
	require.Equal(t, "LIST", reqs[0].verb, "the first request is the LIST")
	assert.Equal(t, "WATCH", reqs[1].verb)
	assert.Equal(t, reqs[0].listRV, reqs[1].rv, "the watch starts at the list's resourceVersion: nothing between the two is missed")
	assert.Equal(t, []string{"a@" + a, "b@" + b}, rn.h.store.cached())

	c := rn.create("c")
	rn.waitUntil("c reached the store", func() bool { return contains(rn.h.store.cached(), "c@"+c.ResourceVersion) })
}

// The resourceVersion a reflector resumes from is its promise that
// everything up to it is in the store. Every event moves it, a DELETED
// too (its object carries the revision of the deletion).
func TestEveryEventMovesTheResourceVersion(t *testing.T) {
	rn := start(t, nil)
	rn.waitUntil("the reflector watched", func() bool { return countVerb(rn.h.recorded(), "WATCH") >= 1 })

	created := rn.create("a")
	rn.waitUntil("ADDED a reached the store", func() bool { return contains(rn.h.store.cached(), "a@"+created.ResourceVersion) })
	rn.soon("ADDED a moved the version to "+created.ResourceVersion, func() bool { return rn.r.LastSyncResourceVersion() == created.ResourceVersion })
	updated := rn.update("a", "2")
	rn.waitUntil("MODIFIED a reached the store", func() bool { return contains(rn.h.store.cached(), "a@"+updated.ResourceVersion) })
	rn.soon("MODIFIED a moved the version to "+updated.ResourceVersion, func() bool { return rn.r.LastSyncResourceVersion() == updated.ResourceVersion })
	rn.delete("a")
	rn.waitUntil("DELETED a reached the store", func() bool { return len(rn.h.store.cached()) == 0 })
	rn.soon("DELETED a moved the version", func() bool { return rn.r.LastSyncResourceVersion() != updated.ResourceVersion })
	calls := rn.h.store.calls()
	require.Len(t, calls, 4, "one LIST and three events: %v", calls)
	assert.Equal(t, []string{"add a@" + created.ResourceVersion, "update a@" + updated.ResourceVersion}, calls[1:3],
		"each event reached the store once, in order")
	require.Contains(t, calls[3], "delete a@")
	assert.Equal(t, "delete a@"+rn.r.LastSyncResourceVersion(), calls[3], "DELETED moved the version to the revision of the deletion")
}

// A watch that ends (every watch has a timeout) is resumed from the last
// version, with no LIST: nothing was missed, and listing every few minutes
// would cost the apiserver a full read per client.
func TestAWatchThatEndsIsResumedWithoutRelisting(t *testing.T) {
	rn := start(t, nil)
	rn.waitUntil("the reflector watched", func() bool { return countVerb(rn.h.recorded(), "WATCH") >= 1 })
	a := rn.create("a")
	rn.waitUntil("a reached the store", func() bool { return contains(rn.h.store.cached(), "a@"+a.ResourceVersion) })

	before := len(rn.h.recorded())
	rn.h.end() // the server's timeoutSeconds ran out
	rn.waitUntil("the reflector watched again", func() bool { return len(rn.h.recorded()) > before })
	next := rn.h.recorded()[before]
	assert.Equal(t, "WATCH", next.verb, "after a watch ends the reflector watches again, without a LIST")
	assert.Equal(t, a.ResourceVersion, next.rv, "and from the version of the last event, not the list's")

	b := rn.create("b")
	rn.waitUntil("b reached the store through the new watch", func() bool { return contains(rn.h.store.cached(), "b@"+b.ResourceVersion) })
	assert.Equal(t, 1, countVerb(rn.h.recorded(), "LIST"), "one LIST in all")
	assert.Equal(t, 1, countPrefix(rn.h.store.calls(), "add a@"), "a's ADDED is not replayed")
}

func TestAnExpiredWatchRelistsAndResumesFromTheNewList(t *testing.T) {
	expireAndRelist(t, false)
}

// kube-apiserver without its watch cache answers a watch from a compacted
// etcd revision with a stream holding one ERROR event: the same 410, in
// the stream instead of the HTTP status.
func TestAnExpiredErrorEventRelists(t *testing.T) {
	expireAndRelist(t, true)
}

// The watch goes away and, while it is away, the history it would resume
// from is compacted. The reflector's next watch gets 410 Gone: it must
// list again (once), replace the store with the list, and watch from the
// new list's version.
func expireAndRelist(t *testing.T, kubeStyle bool) {
	t.Helper()
	var b string
	rn := start(t, func(rn *run) {
		rn.h.kubeStyleExpiry = kubeStyle
		rn.create("a")
		b = rn.create("b").ResourceVersion
	})
	rn.waitUntil("the reflector watched", func() bool { return countVerb(rn.h.recorded(), "WATCH") >= 1 })
	rn.waitUntil("the store holds a and b", func() bool { return len(rn.h.store.cached()) == 2 })

	rn.h.hold()
	rn.h.end()
	rn.waitUntil("the reflector tried to watch again", func() bool { return rn.h.waitingWatches() == 1 })
	before := len(rn.h.recorded())
	// While it waits: a is deleted, b changes, c appears; then etcd's
	// history is compacted.
	rn.delete("a")
	bNow := rn.update("b", "2")
	c := rn.create("c")
	compact(t)
	want := rn.serverState()
	rn.h.release()

	rn.waitUntil("the reflector listed after the 410 and watched again", func() bool {
		reqs := rn.h.recorded()
		return countVerb(reqs[before:], "LIST") >= 1 && len(watchesAfter(reqs, before)) >= 2
	})
	reqs := rn.h.recorded()[before:]
	assert.Equal(t, "WATCH", reqs[0].verb)
	assert.Equal(t, b, reqs[0].rv, "the held watch resumed from b's version")
	assert.Equal(t, "410", reqs[0].result, "which the compaction made too old")
	require.Equal(t, "LIST", reqs[1].verb, "a 410 is followed by a LIST")
	require.Equal(t, "WATCH", reqs[2].verb)
	assert.Equal(t, reqs[1].listRV, reqs[2].rv, "the new watch starts at the new list's version")
	assert.Equal(t, want, rn.h.store.cached(), "the store equals the server after the relist")
	assert.Equal(t, []string{"b@" + bNow.ResourceVersion, "c@" + c.ResourceVersion}, want)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, x := range list {
		if len(x) >= len(prefix) && x[:len(prefix)] == prefix {
			n++
		}
	}
	return n
}
