package conformance

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const multiDoc = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cm1
  labels: {app: web}
data:
  a: "1"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cm2
data:
  b: "2"
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: rs1
spec:
  replicas: 1
  selector: {matchLabels: {app: rs1}}
  template:
    metadata: {labels: {app: rs1}}
    spec:
      containers:
      - name: c
        image: busybox
`

const appV1 = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web
  labels: {tier: front, remove-me: "yes"}
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1
        env: [{name: A, value: "1"}]
      - name: sidecar
        image: busybox
`

// appV2 changes the image, drops the sidecar and a label, adds a container
// and an annotation: kubectl sends a strategic merge patch with
// $setElementOrder and a $patch: delete element.
const appV2 = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web
  labels: {tier: front}
  annotations: {note: v2}
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:2
        env: [{name: A, value: "1"}, {name: B, value: "2"}]
      - name: logger
        image: fluentd
`

// TestKubectl drives every real kubectl found through the commands users
// run, asserting what a real cluster prints.
func TestKubectl(t *testing.T) {
	for _, bin := range requireKubectls(t) {
		t.Run(bin.version, func(t *testing.T) {
			t.Logf("kubectl %s at %s", bin.version, bin.path)
			ns := newNamespace(t)
			k := &kubectl{t: t, bin: bin, namespace: ns}
			t.Run("api-resources", func(t *testing.T) { kubectlAPIResources(t, k) })
			t.Run("create", func(t *testing.T) { kubectlCreate(t, k) })
			t.Run("apply", func(t *testing.T) { kubectlApply(t, k) })
			t.Run("dry-run", func(t *testing.T) { kubectlDryRun(t, k) })
			t.Run("get", func(t *testing.T) { kubectlGet(t, k) })
			t.Run("watch", func(t *testing.T) { kubectlWatch(t, k) })
			t.Run("scale", func(t *testing.T) { kubectlScale(t, k) })
			t.Run("label-annotate-patch", func(t *testing.T) { kubectlLabelAnnotatePatch(t, k) })
			t.Run("replace-edit", func(t *testing.T) { kubectlReplaceEdit(t, k) })
			t.Run("describe", func(t *testing.T) { kubectlDescribe(t, k) })
			t.Run("errors", func(t *testing.T) { kubectlErrors(t, k) })
			t.Run("delete", func(t *testing.T) { kubectlDelete(t, k) })
			t.Run("namespace", func(t *testing.T) { kubectlNamespace(t, k) })
		})
	}
}

func kubectlAPIResources(t *testing.T, k *kubectl) {
	out := k.ok("api-resources")
	for _, want := range []string{"pods", "po", "replicasets", "rs", "apps/v1", "leases", "coordination.k8s.io/v1", "events", "ev"} {
		assert.Contains(t, out, want)
	}
	assert.Regexp(t, `(?m)^nodes\s+no\s+v1\s+false\s+Node$`, out)
}

func kubectlCreate(t *testing.T, k *kubectl) {
	f := writeFile(t, "multi.yaml", multiDoc)
	out := k.ok("create", "-f", f)
	assert.Contains(t, out, "configmap/cm1 created")
	assert.Contains(t, out, "configmap/cm2 created")
	assert.Contains(t, out, "replicaset.apps/rs1 created")
	r := k.stdin(multiDoc, "create", "-f", "-")
	require.Equal(t, 1, r.code, r.out())
	assert.Contains(t, r.stderr, `Error from server (AlreadyExists): error when creating "STDIN": configmaps "cm1" already exists`)
	assert.Contains(t, r.stderr, `Error from server (AlreadyExists): error when creating "STDIN": replicasets.apps "rs1" already exists`)
}

func kubectlApply(t *testing.T, k *kubectl) {
	f1, f2 := writeFile(t, "v1.yaml", appV1), writeFile(t, "v2.yaml", appV2)
	assert.Contains(t, k.ok("apply", "-f", f1), "replicaset.apps/web created")
	assert.Contains(t, k.ok("apply", "-f", f2), "replicaset.apps/web configured")
	assert.Contains(t, k.ok("apply", "-f", f2), "replicaset.apps/web unchanged")

	var rs struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
		Spec     struct {
			Template corev1.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	require.NoError(t, json.Unmarshal([]byte(k.ok("get", "rs", "web", "-o", "json")), &rs))
	assert.Equal(t, map[string]string{"tier": "front"}, rs.Metadata.Labels)
	assert.Equal(t, "v2", rs.Metadata.Annotations["note"])
	assert.Contains(t, rs.Metadata.Annotations, "kubectl.kubernetes.io/last-applied-configuration")
	cs := rs.Spec.Template.Spec.Containers
	require.Len(t, cs, 2, "sidecar removed, logger added")
	assert.Equal(t, "web", cs[0].Name)
	assert.Equal(t, "nginx:2", cs[0].Image)
	assert.Equal(t, []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}}, cs[0].Env)
	assert.Equal(t, "logger", cs[1].Name)

	// Server-side apply takes over an object applied client-side: kubectl
	// (the manager of its earlier patches) owns what it set.
	assert.Contains(t, k.ok("apply", "--server-side", "-f", f2), "replicaset.apps/web serverside-applied")
}

func kubectlGet(t *testing.T, k *kubectl) {
	out := k.ok("get", "configmaps")
	assert.Equal(t, "NAME DATA AGE", header(out))
	assert.Regexp(t, `(?m)^cm1\s+1\s+\d+s$`, out)

	out = k.ok("get", "rs", "-o", "wide")
	assert.Equal(t, "NAME DESIRED CURRENT READY AGE CONTAINERS IMAGES SELECTOR", header(out))
	assert.Regexp(t, `(?m)^web\s+0\s+0\s+0\s+\d+s\s+web,logger\s+nginx:2,fluentd\s+app=web$`, out)

	out = k.ok("get", "pods", "-o", "wide")
	if !strings.HasPrefix(out, "No resources") {
		assert.Equal(t, "NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES", header(out))
	}
	out = k.ok("get", "configmaps", "-A")
	assert.Equal(t, "NAMESPACE NAME DATA AGE", header(out))
	assert.Regexp(t, `(?m)^`+k.namespace+`\s+cm1\s+1\s+`, out)

	out = k.ok("get", "cm", "-l", "app=web")
	assert.Contains(t, out, "cm1")
	assert.NotContains(t, out, "cm2")

	out = k.ok("get", "cm", "cm1", "--show-labels")
	assert.Equal(t, "NAME DATA AGE LABELS", header(out))
	assert.Regexp(t, `(?m)^cm1\s+1\s+\d+s\s+app=web$`, out)

	assert.Equal(t, "1", k.ok("get", "cm", "cm1", "-o", "jsonpath={.data.a}"))
	assert.Contains(t, k.ok("get", "cm", "cm1", "-o", "yaml"), "kind: ConfigMap")
	var cm corev1.ConfigMap
	require.NoError(t, json.Unmarshal([]byte(k.ok("get", "cm", "cm1", "-o", "json")), &cm))
	assert.Equal(t, "1", cm.Data["a"])
	assert.NotEmpty(t, cm.UID)

	out = k.ok("get", "namespaces", k.namespace)
	assert.Equal(t, "NAME STATUS AGE", header(out))
	assert.Regexp(t, `(?m)^`+k.namespace+`\s+Active\s+`, out)
	out = k.ok("get", "nodes")
	assert.Equal(t, "NAME STATUS ROLES AGE VERSION", header(out))
	out = k.ok("get", "nodes", "-o", "wide")
	assert.Equal(t, "NAME STATUS ROLES AGE VERSION INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME", header(out))
	out = k.ok("get", "leases", "-n", "kube-node-lease")
	assert.Equal(t, "NAME HOLDER AGE", header(out))
}

func kubectlWatch(t *testing.T, k *kubectl) {
	k.ok("create", "configmap", "wcm", "--from-literal=k=v")
	w := k.start("get", "configmaps", "-w", "--output-watch-events")
	w.waitLine(t, "ADDED", "wcm")
	k.ok("label", "cm", "wcm", "x=y")
	w.waitLine(t, "MODIFIED", "wcm")
	k.ok("delete", "cm", "wcm")
	w.waitLine(t, "DELETED", "wcm")

	// get NAME -w watches one object and skips its first event.
	one := k.start("get", "configmap", "cm2", "-w")
	one.waitLine(t, "cm2")
	k.ok("label", "cm", "cm2", "seen=yes")
	one.waitLine(t, "cm2")
}

func kubectlScale(t *testing.T, k *kubectl) {
	assert.Contains(t, k.ok("scale", "rs", "rs1", "--replicas=3"), "replicaset.apps/rs1 scaled")
	assert.Equal(t, "3", k.ok("get", "rs", "rs1", "-o", "jsonpath={.spec.replicas}"))
	assert.Contains(t, k.ok("scale", "rs", "rs1", "--current-replicas=3", "--replicas=0"), "replicaset.apps/rs1 scaled")
	assert.Equal(t, "0", k.ok("get", "rs", "rs1", "-o", "jsonpath={.spec.replicas}"))
	k.fails("scale", "rs", "rs1", "--current-replicas=7", "--replicas=1")
}

func kubectlLabelAnnotatePatch(t *testing.T, k *kubectl) {
	assert.Contains(t, k.ok("label", "cm", "cm1", "env=prod"), "configmap/cm1 labeled")
	assert.Equal(t, "prod", k.ok("get", "cm", "cm1", "-o", "jsonpath={.metadata.labels.env}"))
	assert.Contains(t, k.ok("label", "cm", "cm1", "env-"), "configmap/cm1 unlabeled")
	assert.Equal(t, "", k.ok("get", "cm", "cm1", "-o", "jsonpath={.metadata.labels.env}"))
	assert.Contains(t, k.ok("annotate", "cm", "cm1", "owner=me"), "configmap/cm1 annotated")
	assert.Equal(t, "me", k.ok("get", "cm", "cm1", "-o", "jsonpath={.metadata.annotations.owner}"))

	assert.Contains(t, k.ok("patch", "cm", "cm1", "--type=merge", "-p", `{"data":{"m":"merge"}}`), "configmap/cm1 patched")
	assert.Contains(t, k.ok("patch", "cm", "cm1", "--type=json", "-p", `[{"op":"add","path":"/data/j","value":"json"}]`), "configmap/cm1 patched")
	assert.Contains(t, k.ok("patch", "rs", "rs1", "--type=strategic", "-p",
		`{"spec":{"template":{"spec":{"containers":[{"name":"extra","image":"redis"}]}}}}`), "replicaset.apps/rs1 patched")
	assert.Equal(t, "merge json", k.ok("get", "cm", "cm1", "-o", "jsonpath={.data.m} {.data.j}"))
	assert.Equal(t, "extra c", k.ok("get", "rs", "rs1", "-o", "jsonpath={.spec.template.spec.containers[*].name}"),
		"strategic merge adds the container by name, ahead of the existing one as Kubernetes orders it")
	assert.Contains(t, k.ok("patch", "cm", "cm1", "--type=merge", "-p", `{"data":{"m":"merge"}}`), "configmap/cm1 patched (no change)")
}

func kubectlReplaceEdit(t *testing.T, k *kubectl) {
	f := writeFile(t, "cm3.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm3\ndata:\n  v: edit-me\n")
	k.ok("create", "-f", f)
	require.NoError(t, os.WriteFile(f, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm3\ndata:\n  v: edit-me\n  w: replaced\n"), 0o644))
	assert.Contains(t, k.ok("replace", "-f", f), "configmap/cm3 replaced")
	assert.Equal(t, "replaced", k.ok("get", "cm", "cm3", "-o", "jsonpath={.data.w}"))

	editor := filepath.Join(t.TempDir(), "editor.sh")
	require.NoError(t, os.WriteFile(editor, []byte("#!/bin/sh\nsed -i 's/edit-me/edited/' \"$1\"\n"), 0o755))
	ke := *k
	ke.env = []string{"KUBE_EDITOR=" + editor, "EDITOR=" + editor}
	assert.Contains(t, ke.ok("edit", "cm", "cm3"), "configmap/cm3 edited")
	assert.Equal(t, "edited", k.ok("get", "cm", "cm3", "-o", "jsonpath={.data.v}"))
}

func kubectlDescribe(t *testing.T, k *kubectl) {
	cs := clientset(t)
	ctx := context.Background()
	pod, err := cs.CoreV1().Pods(k.namespace).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "described", Labels: map[string]string{"app": "described"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.CoreV1().Events(k.namespace).Create(ctx, &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "described.1"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: k.namespace, Name: pod.Name, UID: pod.UID, APIVersion: "v1"},
		Reason:         "ConformanceReason", Message: "described by the conformance suite", Type: corev1.EventTypeNormal,
		Source: corev1.EventSource{Component: "conformance"}, FirstTimestamp: metav1.Now(), LastTimestamp: metav1.Now(), Count: 1,
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	out := k.ok("describe", "pod", "described")
	assert.Regexp(t, `(?m)^Name:\s+described$`, out)
	assert.Regexp(t, `Normal\s+ConformanceReason\s+\S+\s+conformance\s+described by the conformance suite`, out)

	out = k.ok("get", "events")
	assert.Equal(t, "LAST SEEN TYPE REASON OBJECT MESSAGE", header(out))
	assert.Regexp(t, `ConformanceReason\s+pod/described\s+described by the conformance suite`, out)

	// The ReplicaSet controller reports its pod creations as events.
	k.ok("scale", "rs", "rs1", "--replicas=1")
	require.Eventually(t, func() bool {
		return strings.Contains(k.ok("describe", "rs", "rs1"), "SuccessfulCreate")
	}, 30*time.Second, 200*time.Millisecond, "describe rs lists the controller's events")
	out = k.ok("describe", "rs", "rs1")
	assert.Regexp(t, `(?m)^Replicas:\s+\d+ current / 1 desired$`, out)
	k.ok("scale", "rs", "rs1", "--replicas=0")
}

func kubectlErrors(t *testing.T, k *kubectl) {
	assert.Equal(t, `Error from server (NotFound): pods "nope" not found`+"\n", k.fails("get", "pod", "nope"))
	assert.Equal(t, `Error from server (NotFound): replicasets.apps "nope" not found`+"\n", k.fails("get", "rs", "nope"))
	// The generator commands wrap the error, on real clusters too.
	assert.Equal(t, `error: failed to create configmap: configmaps "cm1" already exists`+"\n",
		k.fails("create", "configmap", "cm1"))
	assert.Equal(t, `Error from server (AlreadyExists): error when creating "STDIN": configmaps "cm1" already exists`+"\n",
		k.stdin("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1}\n", "create", "-f", "-").stderr)
	assert.Equal(t, `The ReplicaSet "rs1" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`+"\n",
		k.fails("patch", "rs", "rs1", "--type=merge", "-p", `{"spec":{"replicas":-1}}`))

	rv := k.ok("get", "cm", "cm2", "-o", "jsonpath={.metadata.resourceVersion}")
	k.ok("label", "cm", "cm2", "bump=1")
	stale := writeFile(t, "stale.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm2\n  resourceVersion: \""+rv+"\"\ndata:\n  b: stale\n")
	assert.Equal(t, `Error from server (Conflict): error when replacing "`+stale+`": Operation cannot be fulfilled on configmaps "cm2": the object has been modified; please apply your changes to the latest version and try again`+"\n",
		k.fails("replace", "-f", stale))
}

func kubectlDelete(t *testing.T, k *kubectl) {
	assert.Contains(t, k.ok("delete", "cm", "cm2"), `configmap "cm2" deleted`)
	k.fails("get", "cm", "cm2")

	// A finalizer holds the object: --wait=false returns at once, the
	// object stays (being deleted) until the finalizer is removed.
	fin := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  finalizers: [conformance.kubeloop.dev/hold]\n"
	k.ok("create", "-f", writeFile(t, "held.yaml", fin))
	assert.Contains(t, k.ok("delete", "cm", "held", "--wait=false"), `configmap "held" deleted`)
	assert.NotEmpty(t, k.ok("get", "cm", "held", "-o", "jsonpath={.metadata.deletionTimestamp}"))
	k.ok("patch", "cm", "held", "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
	k.fails("get", "cm", "held")

	// With --wait (the default) kubectl watches until the object is gone.
	k.ok("create", "-f", writeFile(t, "held2.yaml", fin))
	w := k.start("delete", "cm", "held", "--timeout=60s")
	w.waitLine(t, `configmap "held" deleted`)
	require.Eventually(t, func() bool {
		return k.ok("get", "cm", "held", "-o", "jsonpath={.metadata.deletionTimestamp}") != ""
	}, 30*time.Second, 100*time.Millisecond)
	k.ok("patch", "cm", "held", "--type=json", "-p", `[{"op":"remove","path":"/metadata/finalizers"}]`)
	select {
	case <-w.done:
	case <-time.After(30 * time.Second):
		t.Fatal("kubectl delete --wait did not return after the finalizer was removed")
	}
	k.fails("get", "cm", "held")
}

func kubectlNamespace(t *testing.T, k *kubectl) {
	name := k.namespace + "-extra"
	noNS := &kubectl{t: t, bin: k.bin}
	assert.Equal(t, "namespace/"+name+" created\n", noNS.ok("create", "namespace", name))
	inNS := &kubectl{t: t, bin: k.bin, namespace: name}
	inNS.ok("create", "configmap", "inside")
	assert.Contains(t, noNS.ok("delete", "namespace", name, "--timeout=60s"), `namespace "`+name+`" deleted`)
	assert.Contains(t, noNS.fails("get", "namespace", name), `namespaces "`+name+`" not found`)
}
