package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonPatchOps renders n copies of one operation as a JSON patch.
func jsonPatchOps(t *testing.T, n int, op func(i int) map[string]any) string {
	t.Helper()
	ops := make([]map[string]any, n)
	for i := range ops {
		ops[i] = op(i)
	}
	b, err := json.Marshal(ops)
	require.NoError(t, err)
	return string(b)
}

// requireUnchanged checks that the object at path still has the
// resourceVersion it had before a refused patch.
func requireUnchanged(t *testing.T, path, rv string) {
	t.Helper()
	after := do(t, "GET", path, "", "")
	require.Equal(t, http.StatusOK, after.Code, after.Body)
	assert.Equal(t, rv, get(after.Obj(t), "metadata", "resourceVersion"), "a refused patch changes nothing")
}

func createConfigMap(t *testing.T, data map[string]string) (path, rv string) {
	t.Helper()
	ns := newNamespace(t)
	path = "/api/v1/namespaces/" + ns + "/configmaps/src"
	resp := do(t, "POST", "/api/v1/namespaces/"+ns+"/configmaps", "", cmJSON("src", data))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	return path, get(resp.Obj(t), "metadata", "resourceVersion").(string)
}

func TestJSONPatchOfMoreThan10000OperationsIsRequestEntityTooLarge(t *testing.T) {
	path, rv := createConfigMap(t, map[string]string{"k": "v"})
	test := func(int) map[string]any { return map[string]any{"op": "test", "path": "/data/k", "value": "v"} }

	resp := do(t, "PATCH", path, jsonPatchType, jsonPatchOps(t, 10001, test))
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.Code, resp.Body)
	st := resp.Obj(t)
	assert.Equal(t, "RequestEntityTooLarge", st["reason"])
	assert.Equal(t, "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001", st["message"])
	requireUnchanged(t, path, rv)

	resp = do(t, "PATCH", path, jsonPatchType, jsonPatchOps(t, 10000, test))
	require.Equal(t, http.StatusOK, resp.Code, "10,000 operations are allowed: %s", resp.Body)
}

// 10,000 copies of a 32 KiB value would build a 320 MB object out of a
// 600 kB request (before this limit: 11 to 22 s and 2 to 3 GiB of RSS on a
// 2-core machine). The copies stop at Kubernetes' JSONPatchMaxCopyBytes
// (3 MiB), counted in JSON bytes (the value and its two quotes): the 96th
// copy is the first over it, so the server refuses after 96 copies, not
// 10,000, and the message says how far it got.
func TestJSONPatchCopiesStopAtJSONPatchMaxCopyBytes(t *testing.T) {
	const valueSize = 32 << 10
	path, rv := createConfigMap(t, map[string]string{"v": strings.Repeat("x", valueSize)})
	copyOp := func(i int) map[string]any {
		return map[string]any{"op": "copy", "from": "/data/v", "path": fmt.Sprintf("/data/c%d", i)}
	}

	resp := do(t, "PATCH", path, jsonPatchType, jsonPatchOps(t, 10000, copyOp))
	require.Equal(t, http.StatusUnprocessableEntity, resp.Code, resp.Body)
	st := resp.Obj(t)
	assert.Equal(t, "Invalid", st["reason"])
	const copied = valueSize + 2 // `"xx…x"`
	firstOver := (3<<20)/copied + 1
	assert.Equal(t, fmt.Sprintf("the server rejected our request due to an error in our request: "+
		"Unable to complete the copy, the accumulated size increase of copy is %d, exceeding the limit 3145728",
		firstOver*copied), st["message"])
	requireUnchanged(t, path, rv)

	// Copies under the cap are ordinary copies.
	resp = do(t, "PATCH", path, jsonPatchType, jsonPatchOps(t, 3, copyOp))
	require.Equal(t, http.StatusOK, resp.Code, resp.Body)
	assert.Len(t, get(resp.Obj(t), "data"), 4)
}

// Every patch type reads at most 3 MiB of body, as every write does.
func TestPatchBodyOverThreeMiBIsRequestEntityTooLarge(t *testing.T) {
	path, rv := createConfigMap(t, map[string]string{"k": "v"})
	big := strings.Repeat("x", 3<<20)
	for contentType, body := range map[string]string{
		mergePatchType:     `{"data":{"k":"` + big + `"}}`,
		strategicPatchType: `{"data":{"k":"` + big + `"}}`,
		jsonPatchType:      `[{"op":"replace","path":"/data/k","value":"` + big + `"}]`,
	} {
		resp := do(t, "PATCH", path, contentType, body)
		require.Equal(t, http.StatusRequestEntityTooLarge, resp.Code, "%s: %s", contentType, resp.Body)
		assert.Equal(t, "Request entity too large: limit is 3145728", resp.Obj(t)["message"], contentType)
	}
	requireUnchanged(t, path, rv)
}

// A merge or strategic merge patch cannot grow an object beyond the object
// plus the patch; when that is more than etcd stores (1.5 MiB), the write is
// 413, not a 500, and the stored object stays as it was. A ReplicaSet's
// container args have no size rule of their own, so only etcd's limit
// applies.
func TestMergePatchesThatOutgrowTheStoreAreRequestEntityTooLarge(t *testing.T) {
	ns := newNamespace(t)
	path := "/apis/apps/v1/namespaces/" + ns + "/replicasets/rs1"
	resp := do(t, "POST", "/apis/apps/v1/namespaces/"+ns+"/replicasets", "", rsJSON("rs1", 1))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	rv := get(resp.Obj(t), "metadata", "resourceVersion").(string)

	args, err := json.Marshal([]string{strings.Repeat("a", 1<<20), strings.Repeat("b", 1<<20)})
	require.NoError(t, err)
	patch := `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx","args":` + string(args) + `}]}}}}`
	for _, contentType := range []string{mergePatchType, strategicPatchType} {
		resp := do(t, "PATCH", path, contentType, patch)
		require.Equal(t, http.StatusRequestEntityTooLarge, resp.Code, "%s: %.300s", contentType, resp.Body)
		st := resp.Obj(t)
		assert.Equal(t, "RequestEntityTooLarge", st["reason"], contentType)
		assert.Equal(t, "Request entity too large: etcdserver: request is too large", st["message"], contentType)
	}
	requireUnchanged(t, path, rv)
}
