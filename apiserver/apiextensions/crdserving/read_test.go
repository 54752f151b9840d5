package crdserving_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

func TestTableHasThePrinterColumns(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("t", "blue", 3), group)).Code)
	resp := srv.DoWith(t, context.Background(), "GET", widgets(group, ns), "", "",
		http.Header{"Accept": {"application/json;as=Table;v=v1;g=meta.k8s.io"}})
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	tbl := resp.Obj(t)
	var names []string
	for _, c := range tbl["columnDefinitions"].([]any) {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"Name", "Color", "Replicas", "Age"}, names)
	cells := tbl["rows"].([]any)[0].(map[string]any)["cells"].([]any)
	assert.Equal(t, []any{"t", "blue", float64(3)}, cells[:3])
	assert.Regexp(t, `^\d+s$`, cells[3])
}

func TestListPagingSelectorsAndSelectableFields(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	for i, color := range []string{"red", "blue", "red"} {
		body := withGroup(widget(fmt.Sprintf("w%d", i), color, 1), group)
		require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", body).Code)
	}
	names := func(path string) []string {
		resp := srv.Do(t, "GET", path, "", "")
		require.Equal(t, http.StatusOK, resp.Code, resp.Body)
		var out []string
		for _, it := range resp.Obj(t)["items"].([]any) {
			out = append(out, apiservertest.Get(it.(map[string]any), "metadata", "name").(string))
		}
		return out
	}
	assert.Equal(t, []string{"w0", "w2"}, names(widgets(group, ns)+"?fieldSelector=spec.color%3Dred"))
	assert.Equal(t, []string{"w1"}, names(widgets(group, ns)+"?fieldSelector=metadata.name%3Dw1"))
	assert.Equal(t, []string{"w0", "w1", "w2"}, names(widgets(group, ns)+"?labelSelector=app%3Dw"))
	assert.Empty(t, names(widgets(group, ns)+"?labelSelector=app%3Dother"))
	assert.Equal(t, []string{"w0", "w1", "w2"}, names("/apis/"+group+"/v1/widgets"), "all namespaces")
	other := srv.NewNamespace(t)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, other), "", withGroup(widget("o", "red", 1), group)).Code)
	assert.Equal(t, []string{"o"}, names("/apis/"+group+"/v1/widgets?fieldSelector=metadata.namespace%3D"+other))
	assert.Equal(t, []string{"w0", "w2"}, names("/apis/"+group+"/v1/widgets?fieldSelector=metadata.namespace!%3D"+other+",spec.color%3Dred"))
	bad := srv.Do(t, "GET", widgets(group, ns)+"?fieldSelector=spec.size%3Dx", "", "")
	assert.Equal(t, http.StatusBadRequest, bad.Code, bad.Body)

	page := srv.Do(t, "GET", widgets(group, ns)+"?limit=2", "", "").Obj(t)
	assert.Len(t, page["items"], 2)
	cont := apiservertest.Get(page, "metadata", "continue").(string)
	require.NotEmpty(t, cont)
	assert.Equal(t, []string{"w2"}, names(widgets(group, ns)+"?limit=2&continue="+cont))
}

func TestWatchStreamsCustomResourceEvents(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+widgets(group, ns)+"?watch=true", nil)
	require.NoError(t, err)
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("wa", "red", 1), group)).Code)
	require.Equal(t, http.StatusOK, srv.Do(t, "DELETE", widgets(group, ns)+"/wa", "", "").Code)
	sc := bufio.NewScanner(resp.Body)
	var types []string
	for len(types) < 2 && sc.Scan() {
		var ev struct {
			Type   string         `json:"type"`
			Object map[string]any `json:"object"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
		assert.Equal(t, "Widget", ev.Object["kind"])
		types = append(types, ev.Type)
	}
	assert.Equal(t, []string{"ADDED", "DELETED"}, types)

	// The watch is the watch cache's: its metrics count this watcher and
	// the events it dispatched.
	dispatched := regexp.MustCompile(`kubeloop_watchcache_events_dispatched_total\{resource="widgets\.` + regexp.QuoteMeta(group) + `"\} [1-9]`)
	var metrics string
	require.Eventually(t, func() bool {
		metrics = srv.Do(t, "GET", "/metrics", "", "").Body
		return dispatched.MatchString(metrics)
	}, 10*time.Second, 20*time.Millisecond, "the watch cache dispatched nothing for widgets.%s", group)
	assert.Contains(t, metrics, `kubeloop_watchcache_watchers{resource="widgets.`+group+`"} 1`)
}

func TestDiscoveryListsTheCustomResource(t *testing.T) {
	group := createCRD(t, widgetCRD)
	resp := srv.Do(t, "GET", "/apis/"+group+"/v1", "", "")
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	byName := map[string]map[string]any{}
	for _, r := range resp.Obj(t)["resources"].([]any) {
		m := r.(map[string]any)
		byName[m["name"].(string)] = m
	}
	require.Contains(t, byName, "widgets")
	assert.Equal(t, []any{"wd"}, byName["widgets"]["shortNames"])
	assert.Equal(t, []any{"all"}, byName["widgets"]["categories"])
	assert.Equal(t, true, byName["widgets"]["namespaced"])
	assert.Contains(t, byName, "widgets/status")
	assert.Contains(t, byName, "widgets/scale")

	groups := srv.Do(t, "GET", "/apis", "", "").Body
	assert.Contains(t, groups, `"name":"`+group+`"`)
	agg := srv.DoWith(t, context.Background(), "GET", "/apis", "", "",
		http.Header{"Accept": {"application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"}})
	require.Equal(t, http.StatusOK, agg.Code)
	var found map[string]any
	for _, g := range agg.Obj(t)["items"].([]any) {
		if apiservertest.Get(g.(map[string]any), "metadata", "name") != group {
			continue
		}
		v := g.(map[string]any)["versions"].([]any)[0].(map[string]any)
		assert.Equal(t, "v1", v["version"])
		found = v["resources"].([]any)[0].(map[string]any)
	}
	require.NotNil(t, found, "the aggregated document lists %s", group)
	assert.Equal(t, "widgets", found["resource"])
	assert.Equal(t, "Namespaced", found["scope"])
	assert.Equal(t, []any{"wd"}, found["shortNames"])
	assert.Equal(t, []any{"all"}, found["categories"])
	assert.Equal(t, "Widget", apiservertest.Get(found, "responseKind", "kind"))
	var subs []string
	for _, sr := range found["subresources"].([]any) {
		subs = append(subs, sr.(map[string]any)["subresource"].(string))
	}
	assert.ElementsMatch(t, []string{"status", "scale"}, subs)
}

// A watch filtered by a selectable field sees an object enter and leave
// the selection (a change of the field out of it is a DELETED), as for
// built-in field selectors.
func TestWatchFiltersBySelectableFields(t *testing.T) {
	group := createCRD(t, widgetCRD)
	ns := srv.NewNamespace(t)
	next := watchEvents(t, widgets(group, ns)+"?watch=true&fieldSelector=spec.color%3Dred")
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("b", "blue", 1), group)).Code)
	require.Equal(t, http.StatusCreated, srv.Do(t, "POST", widgets(group, ns), "", withGroup(widget("r", "red", 1), group)).Code)
	for _, color := range []string{"red", "blue"} {
		p := srv.Do(t, "PATCH", widgets(group, ns)+"/b", "application/merge-patch+json", `{"spec":{"color":"`+color+`"}}`)
		require.Equal(t, http.StatusOK, p.Code, p.Body)
	}
	assert.Equal(t, []string{"ADDED r", "ADDED b", "DELETED b"}, next(3))
}
