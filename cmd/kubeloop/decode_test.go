package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/store"
	"kubeloop/store/storetest"
)

// runDecode runs the binary's decode with args and stdin, and returns its
// standard output and error.
func runDecode(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"decode"}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, diag bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &diag
	err = cmd.Run()
	return out.String(), diag.String(), err
}

func TestDecodePrintsAStoredPodAsYAMLAndJSON(t *testing.T) {
	etcd := storetest.StartEtcd(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	info, ok := api.ForType[*api.Pod](api.Builtin())
	require.True(t, ok)
	key := info.Key("default", "web")
	created, err := store.New(etcd.Client(), info).Create(ctx, key, &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx:1.27"}}},
	})
	require.NoError(t, err)
	want := created.DeepCopyObject().(*api.Pod)
	want.ResourceVersion = "" // etcd holds none: the key's revision is it

	out, diag, err := runDecode(t, nil, "--etcd-endpoints", strings.Join(etcd.Endpoints(), ","), key)
	require.NoError(t, err, diag)
	assert.Contains(t, diag, "stored as protobuf")
	assert.Contains(t, out, "kind: Pod\n")
	var fromYAML api.Pod
	require.NoError(t, yaml.Unmarshal([]byte(out), &fromYAML))
	assert.Equal(t, want, &fromYAML)

	// As etcdctl get KEY --print-value-only prints it: with a newline.
	raw, err := etcd.Client().Get(ctx, key)
	require.NoError(t, err)
	out, diag, err = runDecode(t, append(raw.Kvs[0].Value, '\n'), "-o", "json")
	require.NoError(t, err, diag)
	var fromJSON api.Pod
	require.NoError(t, json.Unmarshal([]byte(out), &fromJSON), out)
	assert.Equal(t, want, &fromJSON)
}

func TestDecodePrintsAJSONValueAsItIs(t *testing.T) {
	value := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":3}}`
	out, diag, err := runDecode(t, []byte(value))
	require.NoError(t, err, diag)
	assert.Contains(t, diag, "stored as JSON")
	assert.Equal(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 3\n", out)
}

func TestDecodeRefusesWhatIsNoValue(t *testing.T) {
	_, diag, err := runDecode(t, []byte("hello"))
	require.Error(t, err)
	assert.Contains(t, diag, "neither protobuf")

	_, diag, err = runDecode(t, nil, "/registry/core/pods/default/web")
	require.Error(t, err)
	assert.Contains(t, diag, "needs --etcd-endpoints")
}
