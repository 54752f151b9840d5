package store_test

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/store"
)

func TestPagedListReturnsEachObjectOnceWhileOthersCreate(t *testing.T) {
	f := newFixture(t)
	const initial = 25
	for i := range initial {
		f.create(fmt.Sprintf("obj-%02d", i), nil)
	}

	// Writers keep adding objects while we page; none of them may appear,
	// because every page reads at the first page's revision.
	stop := make(chan struct{})
	var created atomic.Int64
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				_, err := f.store.Create(f.ctx, f.key(fmt.Sprintf("late-%d-%d", w, i)), f.configMap(fmt.Sprintf("late-%d-%d", w, i), nil, nil))
				if !assert.NoError(t, err) {
					return
				}
				created.Add(1)
			}
		})
	}

	seen := map[string]int{}
	var firstRV uint64
	token := ""
	pages := 0
	for {
		res, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Limit: 4, Continue: token}})
		require.NoError(t, err)
		pages++
		if firstRV == 0 {
			firstRV = res.ResourceVersion
		}
		assert.Equal(t, firstRV, res.ResourceVersion, "every page reads at the first page's revision")
		for _, n := range names(res.Items) {
			seen[n]++
		}
		if res.Continue == "" {
			require.Nil(t, res.RemainingItemCount)
			break
		}
		require.NotNil(t, res.RemainingItemCount)
		token = res.Continue
		// Let at least one more object land between this page and the next.
		n := created.Load()
		require.Eventually(t, func() bool { return created.Load() > n }, 20*time.Second, time.Millisecond)
	}
	close(stop)
	wg.Wait()

	// The pages together are exactly the snapshot at the first page's
	// revision: every object once, including any writer's object that
	// landed before that revision, and none after it.
	snapshot, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{
		ResourceVersion: strconv.FormatUint(firstRV, 10), ResourceVersionMatch: store.ResourceVersionMatchExact})
	require.NoError(t, err)
	want := map[string]int{}
	for _, n := range names(snapshot.Items) {
		want[n] = 1
	}
	assert.Equal(t, want, seen)
	for i := range initial {
		assert.Equal(t, 1, seen[fmt.Sprintf("obj-%02d", i)])
	}
	assert.Equal(t, (len(want)+3)/4, pages)
	latest, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	assert.Greater(t, len(latest.Items), len(want), "objects created during the paging are not in it")
}

func TestListRemainingItemCountWithoutSelector(t *testing.T) {
	f := newFixture(t)
	for i := range 10 {
		f.create(fmt.Sprintf("obj-%02d", i), nil)
	}
	res, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Limit: 3}})
	require.NoError(t, err)
	assert.Equal(t, []string{"obj-00", "obj-01", "obj-02"}, names(res.Items))
	require.NotNil(t, res.RemainingItemCount)
	assert.Equal(t, int64(7), *res.RemainingItemCount)
}

func TestListContinueTokenMatchesKubernetesFormat(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	f.create("b", nil)
	res, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Limit: 1}})
	require.NoError(t, err)
	raw, err := base64.RawURLEncoding.DecodeString(res.Continue)
	require.NoError(t, err)
	want := fmt.Sprintf(`{"v":"meta.k8s.io/v1","rv":%d,"start":"a\u0000"}`, res.ResourceVersion)
	assert.Equal(t, want, string(raw))
}

func TestListWithTamperedContinueIsBadRequest(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for name, token := range map[string]string{
		"not base64":      "!!!",
		"not json":        enc("nope"),
		"unknown version": enc(`{"v":"meta.k8s.io/v2","rv":5,"start":"a\u0000"}`),
		"no revision":     enc(`{"v":"meta.k8s.io/v1","start":"a\u0000"}`),
		"no start key":    enc(`{"v":"meta.k8s.io/v1","rv":5}`),
		"path traversal":  enc(`{"v":"meta.k8s.io/v1","rv":5,"start":"../../secrets/x"}`),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Limit: 1, Continue: token}})
			require.True(t, api.IsBadRequest(err), "got %v", err)
		})
	}
}

func TestListWithContinueAndResourceVersionIsBadRequest(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	f.create("b", nil)
	res, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Limit: 1}})
	require.NoError(t, err)
	_, err = f.store.List(f.ctx, f.prefix(), store.ListOptions{
		ResourceVersion: "5", Predicate: store.SelectionPredicate{Limit: 1, Continue: res.Continue}})
	require.True(t, api.IsBadRequest(err), "got %v", err)
}

func TestListWithCompactedContinueIsExpired(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	f.create("b", nil)
	res, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Limit: 1}})
	require.NoError(t, err)
	f.create("c", nil)
	require.NoError(t, store.Compact(f.ctx, f.client(), f.currentRV()))

	_, err = f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Limit: 1, Continue: res.Continue}})
	require.True(t, api.IsExpired(err), "got %v", err)
	assert.Equal(t, "The provided continue parameter is too old to display a consistent list result. "+
		"You can start a new list without the continue parameter.", err.Error())
}

func TestListWithLabelSelectorAndLimitFillsPagesWithMatches(t *testing.T) {
	f := newFixture(t)
	want := []string{}
	for i := range 30 {
		name := fmt.Sprintf("obj-%02d", i)
		labels := map[string]string{"app": "db"}
		if i%4 == 0 {
			labels["app"] = "web"
			want = append(want, name)
		}
		f.create(name, labels)
	}
	sel, err := api.ParseSelector("app=web")
	require.NoError(t, err)

	var got []string
	token := ""
	for {
		res, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Label: sel, Limit: 3, Continue: token}})
		require.NoError(t, err)
		assert.Nil(t, res.RemainingItemCount, "no count with a selector")
		if res.Continue != "" {
			assert.Len(t, res.Items, 3, "a page that is not the last is full")
		}
		got = append(got, names(res.Items)...)
		if token = res.Continue; token == "" {
			break
		}
	}
	assert.Equal(t, want, got)
}

func TestListWithFieldSelectorMatchesMetadataName(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	f.create("b", nil)
	sel, err := api.ParseFieldSelector("metadata.name=b")
	require.NoError(t, err)
	res, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{Predicate: store.SelectionPredicate{Field: sel}})
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, names(res.Items))
}

func TestListExactAtOldRevisionReturnsOldState(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	old := f.currentRV()
	_, err := f.store.GuaranteedUpdate(f.ctx, f.key("a"), nil, increment0, nil)
	require.NoError(t, err)
	f.create("b", nil)

	res, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{
		ResourceVersion: strconv.FormatInt(old, 10), ResourceVersionMatch: store.ResourceVersionMatchExact})
	require.NoError(t, err)
	assert.Equal(t, uint64(old), res.ResourceVersion)
	require.Equal(t, []string{"a"}, names(res.Items))
	assert.Equal(t, map[string]string{"k": "v"}, res.Items[0].(*api.ConfigMap).Data)

	latest, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, names(latest.Items))
	assert.Equal(t, "1", latest.Items[0].(*api.ConfigMap).Data["n"])
}

func TestListExactAtCompactedRevisionIsExpired(t *testing.T) {
	f := newFixture(t)
	f.create("a", nil)
	old := f.currentRV()
	f.create("b", nil)
	require.NoError(t, store.Compact(f.ctx, f.client(), f.currentRV()))

	_, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{
		ResourceVersion: strconv.FormatInt(old, 10), ResourceVersionMatch: store.ResourceVersionMatchExact})
	require.True(t, api.IsExpired(err), "got %v", err)
	assert.Equal(t, "The resourceVersion for the provided list is too old.", err.Error())
}

func TestListNotOlderThanFutureRevisionIsTooLarge(t *testing.T) {
	f := newFixture(t)
	future := strconv.FormatInt(f.currentRV()+100, 10)
	for _, match := range []string{"", store.ResourceVersionMatchNotOlderThan, store.ResourceVersionMatchExact} {
		_, err := f.store.List(f.ctx, f.prefix(), store.ListOptions{ResourceVersion: future, ResourceVersionMatch: match})
		require.True(t, api.IsTooLargeResourceVersion(err), "match %q: got %v", match, err)
	}
}
