package client_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/client"
)

// The wire format of the typed clients: protobuf for built-in kinds unless
// Config.ContentType forces JSON (client/content.go). A recording transport
// around the client's own sees every request and answer as they go over
// real HTTP to a real apiserver.

const (
	protobuf       = "application/vnd.kubernetes.protobuf"
	acceptProtobuf = "application/vnd.kubernetes.protobuf,application/json"
)

// TestWireFormat runs the wire-format checks against one apiserver, each
// in a namespace of its own (every apiserver started and stopped is a
// burst of etcd watches opened and cancelled on the package's one etcd).
func TestWireFormat(t *testing.T) {
	c, _ := startServer(t)
	for name, check := range map[string]func(*testing.T, *client.Client){
		"TypedClientSpeaksProtobufForBuiltinKinds":  typedClientSpeaksProtobufForBuiltinKinds,
		"JSONForcedClientSpeaksJSON":                jsonForcedClientSpeaksJSON,
		"ProtobufAndJSONClientsReadEqualObjects":    protobufAndJSONClientsReadEqualObjects,
		"ProtobufRequestErrorsAreTypedStatusErrors": protobufRequestErrorsAreTypedStatusErrors,
		"UnstructuredObjectsStayJSON":               unstructuredObjectsStayJSON,
	} {
		t.Run(name, func(t *testing.T) { check(t, c) })
	}
}

// newNamespace creates a namespace for one check.
func newNamespace(t *testing.T, c *client.Client) string {
	t.Helper()
	ns := fmt.Sprintf("t%d", time.Now().UnixNano())
	_, err := client.For[*api.Namespace](c).Create(ctx(t), &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)
	return ns
}

// exchange is what went over the wire for one request.
type exchange struct {
	method, path string
	accept       string // the request's Accept
	contentType  string // the request's Content-Type ("" without a body)
	body         []byte // the request's body
	code         int
	answeredAs   string // the answer's Content-Type
}

// wireRecorder records every exchange of the client whose transport it wraps.
type wireRecorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen []exchange
}

func (w *wireRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	ex := exchange{method: r.Method, path: r.URL.Path, accept: r.Header.Get("Accept"), contentType: r.Header.Get("Content-Type")}
	if r.GetBody != nil {
		body, err := r.GetBody()
		if err != nil {
			return nil, err
		}
		ex.body, _ = io.ReadAll(body)
	}
	resp, err := w.next.RoundTrip(r)
	if err == nil {
		ex.code, ex.answeredAs = resp.StatusCode, resp.Header.Get("Content-Type")
	}
	w.mu.Lock()
	w.seen = append(w.seen, ex)
	w.mu.Unlock()
	return resp, err
}

func (w *wireRecorder) exchanges() []exchange {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]exchange(nil), w.seen...)
}

// recordingClient is a client of c's server with the given ContentType,
// whose exchanges are recorded.
func recordingClient(t *testing.T, host, contentType string) (*client.Client, *wireRecorder) {
	t.Helper()
	rec := &wireRecorder{}
	c, err := client.NewForConfig(&client.Config{
		Host: host, ContentType: contentType, Timeout: 30 * time.Second,
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper { rec.next = rt; return rec },
	})
	require.NoError(t, err)
	return c, rec
}

// typedRoundTrip makes one request of every kind a typed client makes:
// create, get, list, update, update status, patch, the scale subresource,
// bind, delete.
func typedRoundTrip(t *testing.T, c *client.Client, ns string) {
	t.Helper()
	pods := client.For[*api.Pod](c).Namespace(ns)
	in := pod("web", map[string]string{"app": "web"})
	p, err := pods.Create(ctx(t), in, client.CreateOptions{})
	require.NoError(t, err)
	assert.Empty(t, in.TypeMeta, "the caller's object is not written")
	p, err = pods.Get(ctx(t), p.Name, client.GetOptions{})
	require.NoError(t, err)
	list, err := pods.List(ctx(t), client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	p.Labels["updated"] = "yes"
	p, err = pods.Update(ctx(t), p, client.UpdateOptions{})
	require.NoError(t, err)
	p.Status.Message = "status written"
	p, err = pods.UpdateStatus(ctx(t), p, client.UpdateOptions{})
	require.NoError(t, err)
	p, err = pods.Patch(ctx(t), p.Name, client.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}}}`), client.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"app": "web", "updated": "yes", "patched": "yes"}, p.Labels)
	assert.Equal(t, "status written", p.Status.Message)
	require.NoError(t, pods.Bind(ctx(t), &api.Binding{ObjectMeta: api.ObjectMeta{Name: p.Name}, Target: api.ObjectReference{Kind: "Node", Name: "n1"}}, client.CreateOptions{}))

	rss := client.For[*api.ReplicaSet](c).Namespace(ns)
	_, err = rss.Create(ctx(t), replicaSet("rs", 1), client.CreateOptions{})
	require.NoError(t, err)
	scale, err := rss.GetScale(ctx(t), "rs")
	require.NoError(t, err)
	scale.Spec.Replicas = 3
	scale, err = rss.UpdateScale(ctx(t), "rs", scale, client.UpdateOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 3, scale.Spec.Replicas)

	require.NoError(t, pods.Delete(ctx(t), p.Name, api.DeleteOptions{}))
}

func typedClientSpeaksProtobufForBuiltinKinds(t *testing.T, c *client.Client) {
	ns := newNamespace(t, c)
	pb, rec := recordingClient(t, c.Host(), "")
	typedRoundTrip(t, pb, ns)

	exs := rec.exchanges()
	require.NotEmpty(t, exs)
	for _, ex := range exs {
		what := ex.method + " " + ex.path
		assert.Equal(t, acceptProtobuf, ex.accept, "%s asks for protobuf first, as client-go", what)
		switch {
		case ex.method == http.MethodPatch:
			assert.Equal(t, string(client.MergePatchType), ex.contentType, "%s: a patch keeps its patch type", what)
		case len(ex.body) > 0:
			assert.Equal(t, protobuf, ex.contentType, what)
			assert.True(t, bytes.HasPrefix(ex.body, []byte(api.ProtobufPrefix)), "%s: a protobuf body starts with k8s\\x00", what)
		}
		assert.Less(t, ex.code, 300, what)
		assert.Equal(t, protobuf, ex.answeredAs, "%s: the apiserver answers protobuf", what)
	}
}

func jsonForcedClientSpeaksJSON(t *testing.T, c *client.Client) {
	ns := newNamespace(t, c)
	js, rec := recordingClient(t, c.Host(), client.ContentTypeJSON)
	typedRoundTrip(t, js, ns)

	exs := rec.exchanges()
	require.NotEmpty(t, exs)
	for _, ex := range exs {
		what := ex.method + " " + ex.path
		assert.Equal(t, client.ContentTypeJSON, ex.accept, what)
		switch {
		case ex.method == http.MethodPatch:
			assert.Equal(t, string(client.MergePatchType), ex.contentType, what)
		case len(ex.body) > 0:
			assert.Equal(t, client.ContentTypeJSON, ex.contentType, what)
			assert.Equal(t, byte('{'), ex.body[0], what)
		}
		assert.Equal(t, client.ContentTypeJSON, ex.answeredAs, what)
	}
}

// richPod fills the fields whose two encodings differ most: maps, times,
// quantities, int-or-strings, nested lists, status.
func richPod(name string) *api.Pod {
	p := pod(name, map[string]string{"app": "web", "tier": "front"})
	p.Annotations = map[string]string{"note": "a \"quoted\" value"}
	grace := int64(7)
	p.Spec.TerminationGracePeriodSeconds = &grace
	p.Spec.Containers[0].Env = []api.EnvVar{{Name: "A", Value: "1"}, {Name: "B"}}
	p.Spec.Containers[0].Ports = []api.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: "TCP"}}
	p.Spec.Containers[0].Resources.Requests = api.ResourceList{"cpu": api.MustParseQuantity("250m"), "memory": api.MustParseQuantity("64Mi")}
	p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoSchedule"}}
	return p
}

// Whichever encoding a client speaks, it reads the same objects: gets,
// lists and watch events decoded from protobuf equal those decoded from
// JSON, field for field.
func protobufAndJSONClientsReadEqualObjects(t *testing.T, c *client.Client) {
	ns := newNamespace(t, c)
	pb, pbRec := recordingClient(t, c.Host(), "")
	js, _ := recordingClient(t, c.Host(), client.ContentTypeJSON)
	pbPods, jsPods := client.For[*api.Pod](pb).Namespace(ns), client.For[*api.Pod](js).Namespace(ns)

	created, err := jsPods.Create(ctx(t), richPod("rich"), client.CreateOptions{FieldManager: "test"})
	require.NoError(t, err)
	require.NotEmpty(t, created.ManagedFields)
	_, err = pbPods.Create(ctx(t), richPod("rich-pb"), client.CreateOptions{FieldManager: "test"})
	require.NoError(t, err)

	for _, name := range []string{"rich", "rich-pb"} {
		fromPB, err := pbPods.Get(ctx(t), name, client.GetOptions{})
		require.NoError(t, err)
		fromJSON, err := jsPods.Get(ctx(t), name, client.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, fromJSON, fromPB, "GET %s", name)
	}
	pbList, err := pbPods.List(ctx(t), client.ListOptions{})
	require.NoError(t, err)
	jsList, err := jsPods.List(ctx(t), client.ListOptions{})
	require.NoError(t, err)
	require.Len(t, pbList.Items, 2)
	assert.Equal(t, jsList.Items, pbList.Items, "LIST")

	opts := client.ListOptions{ResourceVersion: jsList.ResourceVersion}
	pbWatch, err := pbPods.Watch(ctx(t), opts)
	require.NoError(t, err)
	defer pbWatch.Stop()
	jsWatch, err := jsPods.Watch(ctx(t), opts)
	require.NoError(t, err)
	defer jsWatch.Stop()
	_, err = pbPods.Patch(ctx(t), "rich", client.MergePatchType, []byte(`{"metadata":{"labels":{"tier":"back"}}}`), client.PatchOptions{})
	require.NoError(t, err)
	require.NoError(t, pbPods.Delete(ctx(t), "rich", api.DeleteOptions{}))
	for _, want := range []api.EventType{api.Modified, api.Deleted} {
		fromPB, fromJSON := next(t, pbWatch), next(t, jsWatch)
		require.Equal(t, want, fromPB.Type)
		assert.Equal(t, fromJSON, fromPB, "%s event", want)
	}

	var watched bool
	for _, ex := range pbRec.exchanges() {
		if ex.method == http.MethodGet && ex.code == http.StatusOK && ex.answeredAs == protobuf+";stream=watch" {
			watched = true
		}
	}
	assert.True(t, watched, "the protobuf client's watch was a protobuf stream")
}

// Errors of requests that preferred protobuf come back as typed Status
// errors, whether the handler wrote the Status in protobuf or a filter wrote
// it in JSON.
func protobufRequestErrorsAreTypedStatusErrors(t *testing.T, c *client.Client) {
	ns := newNamespace(t, c)
	pb, rec := recordingClient(t, c.Host(), "")
	rss := client.For[*api.ReplicaSet](pb).Namespace(ns)

	_, err := rss.Get(ctx(t), "nope", client.GetOptions{})
	require.True(t, api.IsNotFound(err), "%v", err)
	assert.Equal(t, `replicasets.apps "nope" not found`, err.Error())

	_, err = rss.Create(ctx(t), replicaSet("rs", 1), client.CreateOptions{})
	require.NoError(t, err)
	_, err = rss.Create(ctx(t), replicaSet("rs", 1), client.CreateOptions{})
	assert.True(t, api.IsAlreadyExists(err), "%v", err)

	_, err = rss.Create(ctx(t), replicaSet("bad", -1), client.CreateOptions{})
	require.True(t, api.IsInvalid(err), "%v", err)
	var se *api.StatusError
	require.ErrorAs(t, err, &se)
	require.NotNil(t, se.ErrStatus.Details)
	assert.Equal(t, "spec.replicas", se.ErrStatus.Details.Causes[0].Field, "the causes survive the protobuf Status")

	for _, ex := range rec.exchanges() {
		if ex.code >= 400 {
			assert.Equal(t, protobuf, ex.answeredAs, "%s %s -> %d: the handler's Status is protobuf", ex.method, ex.path, ex.code)
		}
	}

	// With RBAC on, an anonymous request is refused by the authorization
	// filter, which writes its Status in JSON whatever was asked for.
	srv, err := apiserver.New(apiserver.Config{Etcd: etcdClient(t), Logger: slog.New(slog.DiscardHandler), AuthorizationModes: []string{"RBAC"}})
	require.NoError(t, err)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)
	anon, anonRec := recordingClient(t, ts.URL, "")
	_, err = client.For[*api.Pod](anon).Namespace(ns).List(ctx(t), client.ListOptions{})
	require.True(t, api.IsForbidden(err), "%v", err)
	assert.Contains(t, err.Error(), `User "system:anonymous" cannot list resource "pods"`)
	exs := anonRec.exchanges()
	require.Len(t, exs, 1)
	assert.Equal(t, acceptProtobuf, exs[0].accept)
	assert.Equal(t, client.ContentTypeJSON, exs[0].answeredAs)
}

// Objects without protobuf tags — custom resources, *api.Unstructured —
// have no protobuf form: their requests stay JSON, as those of client-go's
// dynamic client do. A CustomResourceDefinition itself is a built-in kind
// and goes in protobuf.
func unstructuredObjectsStayJSON(t *testing.T, c *client.Client) {
	ns := newNamespace(t, c)
	pb, rec := recordingClient(t, c.Host(), "")

	crd := &api.CustomResourceDefinition{Spec: api.CustomResourceDefinitionSpec{
		Group: "pb.example.com", Scope: api.NamespaceScoped,
		Names: api.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget"},
		Versions: []api.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
			Schema: &api.CustomResourceValidation{OpenAPIV3Schema: &api.JSONSchemaProps{Type: "object", XPreserveUnknownFields: new(true)}}}},
	}}
	crd.Name = "widgets.pb.example.com"
	crds := client.For[*api.CustomResourceDefinition](pb)
	_, err := crds.Create(ctx(t), crd, client.CreateOptions{})
	require.NoError(t, err)
	got, err := crds.Get(ctx(t), crd.Name, client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, crd.Spec.Versions[0].Schema, got.Spec.Versions[0].Schema)
	require.NoError(t, crds.Delete(ctx(t), crd.Name, api.DeleteOptions{}))
	for _, ex := range rec.exchanges() {
		assert.Equal(t, protobuf, ex.answeredAs, "%s %s", ex.method, ex.path)
	}

	// A ConfigMap read and written as *api.Unstructured, as a custom
	// resource would be, over the same client.
	before := len(rec.exchanges())
	cms := pb.Dynamic(client.UnstructuredResourceInfo("", "v1", "ConfigMap", "configmaps", true)).Namespace(ns)
	u := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, Content: map[string]any{"data": map[string]any{"k": "v"}}}
	u.Name = "u1"
	_, err = cms.Create(ctx(t), u, client.CreateOptions{})
	require.NoError(t, err)
	read, err := cms.Get(ctx(t), "u1", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"k": "v"}, read.(*api.Unstructured).Content["data"])
	require.NoError(t, cms.Delete(ctx(t), "u1", api.DeleteOptions{}))

	exs := rec.exchanges()[before:]
	require.Len(t, exs, 3)
	for _, ex := range exs {
		assert.Equal(t, client.ContentTypeJSON, ex.accept, "%s %s", ex.method, ex.path)
		if len(ex.body) > 0 {
			assert.Equal(t, client.ContentTypeJSON, ex.contentType, "%s %s", ex.method, ex.path)
		}
		assert.Equal(t, client.ContentTypeJSON, ex.answeredAs, "%s %s", ex.method, ex.path)
	}
}
