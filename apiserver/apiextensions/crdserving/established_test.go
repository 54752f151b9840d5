package crdserving_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

// Nothing is served half-registered: the first time a watch of the CRD
// shows Established=True, every served version, its subresources, its
// discovery entries and its OpenAPI documents answer at once, without
// waiting. (Served.Register builds them all before one swap.)
func TestEstablishedMeansEveryPartIsServed(t *testing.T) {
	group := "whole.example.com"
	name := "widgets." + group
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+crdsPath+"?watch=true&fieldSelector=metadata.name%3D"+name, nil)
	require.NoError(t, err)
	resp, err := srv.HTTPClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	// widgetCRD served as v1 and v2 (the storage version).
	body := strings.Replace(widgetCRD(group), `"versions":[{"name":"v1","served":true,"storage":true,`, `"versions":[{"name":"v1","served":true,"storage":false,`, 1)
	v1 := body[strings.Index(body, `{"name":"v1"`) : len(body)-3]
	v2 := strings.Replace(strings.Replace(v1, `"name":"v1"`, `"name":"v2"`, 1), `"storage":false`, `"storage":true`, 1)
	body = strings.Replace(body, v1, v1+","+v2, 1)
	c := srv.Do(t, "POST", crdsPath, "", body)
	require.Equal(t, http.StatusCreated, c.Code, c.Body)
	t.Cleanup(func() { srv.Do(t, "DELETE", crdsPath+"/"+name, "", "") })

	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for established := false; !established; {
		require.True(t, sc.Scan(), "the watch ended before Established: %v", sc.Err())
		var ev struct {
			Object map[string]any `json:"object"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
		established = conditionStatus(ev.Object, "Established") == "True"
	}

	ns := srv.NewNamespace(t)
	for _, v := range []string{"v1", "v2"} {
		base := "/apis/" + group + "/" + v + "/namespaces/" + ns + "/widgets"
		w := fmt.Sprintf(`{"apiVersion":"%s/%s","kind":"Widget","metadata":{"name":"w-%s"},"spec":{"color":"red"}}`, group, v, v)
		require.Equal(t, http.StatusCreated, srv.Do(t, "POST", base, "", w).Code, v)
		assert.Equal(t, http.StatusOK, srv.Do(t, "GET", base+"/w-"+v+"/status", "", "").Code, v)
		assert.Equal(t, http.StatusOK, srv.Do(t, "GET", base+"/w-"+v+"/scale", "", "").Code, v)
		disc := srv.Do(t, "GET", "/apis/"+group+"/"+v, "", "")
		require.Equal(t, http.StatusOK, disc.Code, v)
		for _, r := range []string{`"widgets"`, `"widgets/status"`, `"widgets/scale"`} {
			assert.Contains(t, disc.Body, `"name":`+r, v)
		}
		assert.Equal(t, http.StatusOK, srv.Do(t, "GET", "/openapi/v3/apis/"+group+"/"+v, "", "").Code, v)
	}
	g := srv.Do(t, "GET", "/apis/"+group, "", "").Obj(t)
	assert.Equal(t, "v2", apiservertest.Get(g, "preferredVersion", "version"))
	assert.Len(t, g["versions"], 2)
	assert.Contains(t, srv.Do(t, "GET", "/openapi/v2", "", "").Body, "com.example.whole.v2.Widget")
}
