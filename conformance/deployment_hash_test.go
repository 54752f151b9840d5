package conformance

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"
	"testing"

	"github.com/davecgh/go-spew/spew"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"

	"kubeloop/api"
	"kubeloop/controllers/deployment"
)

// kubernetesHash is kube-controller-manager's pod-template-hash of a
// template (pkg/controller/controller_utils.go ComputeHash over
// pkg/util/hash DeepHashObject), rebuilt from its two ingredients: go-spew
// with DeepHashObject's settings and apimachinery's SafeEncodeString.
func kubernetesHash(t *corev1.PodTemplateSpec) (string, string) {
	h := fnv.New32a()
	printer := spew.ConfigState{Indent: " ", SortKeys: true, DisableMethods: true, SpewKeys: true}
	dump := printer.Sprintf("%#v", *t)
	h.Write([]byte(dump))
	return rand.SafeEncodeString(fmt.Sprint(h.Sum32())), dump
}

// TestPodTemplateHashIsKubernetes checks that the Deployment controller
// names ReplicaSets as kube-controller-manager would: each template is
// decoded into k8s.io/api's type from the JSON kubeloop writes, as a
// controller reading it from the apiserver would see it, and hashed both
// ways.
func TestPodTemplateHashIsKubernetes(t *testing.T) {
	grace := int64(30)
	cases := map[string]api.PodTemplateSpec{
		"minimal": {
			ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.27"}}},
		},
		"defaulted": {
			ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web", "tier": "front"}, Annotations: map[string]string{"kubectl.kubernetes.io/restartedAt": "2026-01-01T00:00:00Z"}},
			Spec: api.PodSpec{
				Containers: []api.Container{{
					Name: "web", Image: "nginx", ImagePullPolicy: "Always",
					TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File",
				}},
				RestartPolicy: "Always", DNSPolicy: "ClusterFirst", SchedulerName: "default-scheduler",
				TerminationGracePeriodSeconds: &grace, SecurityContext: &api.PodSecurityContext{},
			},
		},
		"resources": {
			ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec: api.PodSpec{Containers: []api.Container{{
				Name: "web", Image: "nginx",
				Resources: api.ResourceRequirements{
					Requests: api.ResourceList{"cpu": "100m", "memory": "128Mi"},
					Limits:   api.ResourceList{"cpu": "2", "memory": "1Gi", "ephemeral-storage": "1000"},
				},
			}}},
		},
		"ports, env and probes": {
			ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec: api.PodSpec{Containers: []api.Container{{
				Name: "web", Image: "nginx", Command: []string{"nginx", "-g", "daemon off;"},
				Ports: []api.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: "TCP"}},
				Env:   []api.EnvVar{{Name: "A", Value: "1"}, {Name: "POD", ValueFrom: &api.EnvVarSource{FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}},
				ReadinessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &api.HTTPGetAction{Path: "/", Port: api.FromString("http"), Scheme: "HTTP"}},
					PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3, TimeoutSeconds: 1},
				LivenessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{TCPSocket: &api.TCPSocketAction{Port: api.FromInt32(80)}}},
			}}},
		},
	}
	for name, ours := range cases {
		t.Run(name, func(t *testing.T) {
			raw, err := json.Marshal(ours)
			require.NoError(t, err)
			var theirs corev1.PodTemplateSpec
			require.NoError(t, json.Unmarshal(raw, &theirs))
			want, dump := kubernetesHash(&theirs)
			assert.Equal(t, want, deployment.ComputeHash(&ours, nil), "kube-controller-manager hashes\n%s", dump)

			count := int32(3)
			h := fnv.New32a()
			h.Write([]byte(dump))
			h.Write([]byte{3, 0, 0, 0, 0, 0, 0, 0})
			assert.Equal(t, rand.SafeEncodeString(fmt.Sprint(h.Sum32())), deployment.ComputeHash(&ours, &count), "with a collision count")
		})
	}
}

// TestPodTemplateTypesDifferOnlyWhereTheHashKnows walks api.PodTemplateSpec
// and corev1.PodTemplateSpec side by side. The hash dump prints our api.X
// as v1.X (IntOrString, Quantity and Time have their own mapping); every
// other difference of field name, order or type must be one the dump's
// table (controllers/deployment/hash_dump.go, kubeFieldTypes) rewrites,
// or the hashes would silently drift apart.
func TestPodTemplateTypesDifferOnlyWhereTheHashKnows(t *testing.T) {
	var diffs []string
	walkHashTypes(reflect.TypeFor[api.PodTemplateSpec](), reflect.TypeFor[corev1.PodTemplateSpec](), map[reflect.Type]bool{}, &diffs)
	assert.ElementsMatch(t, []string{
		"ObjectMeta.UID: string vs types.UID",
		"OwnerReference.UID: string vs types.UID",
		"Container.TerminationMessagePolicy: string vs v1.TerminationMessagePolicy",
		"PodSpec.DNSPolicy: string vs v1.DNSPolicy",
	}, diffs)
}

func hashTypeName(ours reflect.Type) string {
	s := ours.String()
	s = strings.ReplaceAll(s, "api.IntOrStringType", "intstr.Type")
	s = strings.ReplaceAll(s, "api.IntOrString", "intstr.IntOrString")
	s = strings.ReplaceAll(s, "api.Quantity", "resource.Quantity")
	return strings.ReplaceAll(s, "api.", "v1.")
}

func walkHashTypes(ours, theirs reflect.Type, seen map[reflect.Type]bool, diffs *[]string) {
	for ours.Kind() == theirs.Kind() && (ours.Kind() == reflect.Pointer || ours.Kind() == reflect.Slice || ours.Kind() == reflect.Map) {
		ours, theirs = ours.Elem(), theirs.Elem()
	}
	if seen[ours] || ours.Kind() != reflect.Struct || theirs.Kind() != reflect.Struct || theirs.Name() == "Time" {
		return
	}
	seen[ours] = true
	if ours.NumField() != theirs.NumField() {
		*diffs = append(*diffs, fmt.Sprintf("%s: %d fields vs %d", theirs.Name(), ours.NumField(), theirs.NumField()))
	}
	for i := 0; i < min(ours.NumField(), theirs.NumField()); i++ {
		of, tf := ours.Field(i), theirs.Field(i)
		if of.Name != tf.Name {
			*diffs = append(*diffs, fmt.Sprintf("%s field %d: %s vs %s", theirs.Name(), i, of.Name, tf.Name))
			continue
		}
		if o, k := hashTypeName(of.Type), tf.Type.String(); o != k {
			*diffs = append(*diffs, fmt.Sprintf("%s.%s: %s vs %s", theirs.Name(), of.Name, o, k))
		}
		walkHashTypes(of.Type, tf.Type, seen, diffs)
	}
}
