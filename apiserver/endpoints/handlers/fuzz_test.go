package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/store"
)

// FuzzCreateAndPatch posts arbitrary bodies and patches. Whatever comes in,
// the server never answers 500 and never stores an object that its own
// validation would refuse. Under plain `go test` only the seeds run.
func FuzzCreateAndPatch(f *testing.F) {
	f.Add(uint8(0), `{"metadata":{"name":"f1"},"data":{"a":"b"}}`, false, `{"data":{"a":null}}`)
	f.Add(uint8(1), `{"metadata":{"name":"f2"},"spec":{"containers":[{"name":"c","image":"i"}]}}`, true, `[{"op":"replace","path":"/spec/containers/0/image","value":"j"}]`)
	f.Add(uint8(1), `{"metadata":{"name":"f3"},"spec":{"containers":[]}}`, false, `{}`)
	f.Add(uint8(2), rsJSON("f4", 1), false, `{"spec":{"replicas":-3}}`)
	f.Add(uint8(2), rsJSON("f5", 1), false, `{"spec":{"selector":{"matchLabels":{"app":"other"}}}}`)
	f.Add(uint8(0), `{"metadata":{"name":"f6","labels":{"bad key!":"v"}}}`, false, `{"metadata":{"labels":{"-x":"y"}}}`)
	f.Add(uint8(0), `{"metadata":{"name":"f7"}}`, true, `[{"op":"remove","path":"/metadata/name"}]`)
	f.Add(uint8(0), `{"metadata":{"name":"f8"}}`, false, `{"metadata":{"name":"other","namespace":"x"}}`)
	f.Add(uint8(1), `not json`, false, `also not json`)
	f.Add(uint8(0), `{"metadata":{"name":"f9"}}`, false, `{"kind":"Pod"}`)

	const ns = "default"
	kinds := []struct{ path, group, resource string }{
		{"/api/v1/namespaces/" + ns + "/configmaps", "", "configmaps"},
		{"/api/v1/namespaces/" + ns + "/pods", "", "pods"},
		{"/apis/apps/v1/namespaces/" + ns + "/replicasets", "apps", "replicasets"},
	}
	f.Fuzz(func(t *testing.T, kind uint8, body string, jsonPatch bool, patch string) {
		k := kinds[int(kind)%len(kinds)]
		info, _ := api.Builtin().ForResource(k.group, k.resource)
		ct := mergePatchType
		if jsonPatch {
			ct = jsonPatchType
		}
		createThenPatch(t, info, ns, k.path, "", body, "", ct, patch)
	})
}

// createThenPatch posts body (of createType; "" is JSON) to path and, if
// that created an object, sends patch (of patchType, query appended to the
// object's path) to it: no 5xx either time, and the stored object passes
// validation after each. The object is deleted at the end.
func createThenPatch(t *testing.T, info *api.ResourceInfo, ns, path, createType, body, query, patchType, patch string) {
	created := do(t, "POST", path, createType, body)
	if created.Code >= 500 {
		t.Fatalf("create: %d %s", created.Code, created.Body)
	}
	if created.Code != http.StatusCreated {
		return
	}
	var meta struct {
		Metadata struct{ Name string } `json:"metadata"`
	}
	if err := json.Unmarshal([]byte(created.Body), &meta); err != nil {
		t.Fatalf("created body: %v", err)
	}
	url := path + "/" + meta.Metadata.Name
	defer do(t, "DELETE", url, "", `{"gracePeriodSeconds":0}`)
	checkStoredIsValid(t, info, ns, meta.Metadata.Name)

	patched := do(t, "PATCH", url+query, patchType, patch)
	if patched.Code >= 500 {
		t.Fatalf("patch: %d %s", patched.Code, patched.Body)
	}
	checkStoredIsValid(t, info, ns, meta.Metadata.Name)
}

// checkStoredIsValid re-reads the stored object from etcd and runs the
// kind's validation rules on it.
func checkStoredIsValid(t *testing.T, info *api.ResourceInfo, ns, name string) {
	t.Helper()
	obj, err := store.New(srv.Etcd.Client(), info).Get(context.Background(), info.Key(ns, name), store.GetOptions{})
	if err != nil {
		t.Fatalf("read back: %v", err)
	}
	a := &admission.Attributes{Operation: admission.Create, Resource: info, Namespace: ns, Name: name, Object: obj.DeepCopyObject()}
	if err := admission.NewValidation().Validate(context.Background(), a); err != nil {
		t.Fatalf("stored object fails validation: %v", err)
	}
}
