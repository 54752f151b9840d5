package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"

	"kubeloop/api"
)

// The differential test of kubeloop's wire formats against k8s.io/api's
// own: for every kind kubeloop serves (and its list, and the bodies of
// subresources and deletes), an object with every field filled
// (roundtrip_fill_test.go) is written by Kubernetes' code, read into
// kubeloop's type and written again by kubeloop's; the bytes must be
// equal, and Kubernetes must read kubeloop's bytes back into an object
// deep-equal to the one it started from. So a field kubeloop lacks, numbers
// differently, orders differently or writes differently fails here, named
// by its path.

// gogoObject is a k8s.io/api object with gogo-protobuf's generated methods.
type gogoObject interface {
	runtime.Object
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// roundTripKind pairs a Kubernetes type with kubeloop's.
type roundTripKind struct {
	gvk    schema.GroupVersionKind
	filled func() gogoObject // every field set
	empty  func() gogoObject // the zero value
	ours   func() any        // a new kubeloop object
}

func pairOf[K any, PK interface {
	*K
	gogoObject
}, O any](group, version, kind string) roundTripKind {
	gvk := schema.GroupVersionKind{Group: group, Version: version, Kind: kind}
	return roundTripKind{
		gvk:    gvk,
		filled: func() gogoObject { return withKind(PK(fillObject[K]()), gvk) },
		empty:  func() gogoObject { return withKind(PK(new(K)), gvk) },
		ours:   func() any { return new(O) },
	}
}

func withKind(o gogoObject, gvk schema.GroupVersionKind) gogoObject {
	o.GetObjectKind().SetGroupVersionKind(gvk)
	return o
}

// roundTripKinds are every kind kubeloop serves (api/builtin.go), their
// lists, and the bodies of binding, scale, delete and errors.
func roundTripKinds() []roundTripKind {
	return []roundTripKind{
		pairOf[corev1.Pod, *corev1.Pod, api.Pod]("", "v1", "Pod"),
		pairOf[corev1.PodList, *corev1.PodList, api.PodList]("", "v1", "PodList"),
		pairOf[corev1.ConfigMap, *corev1.ConfigMap, api.ConfigMap]("", "v1", "ConfigMap"),
		pairOf[corev1.ConfigMapList, *corev1.ConfigMapList, api.ConfigMapList]("", "v1", "ConfigMapList"),
		pairOf[corev1.Node, *corev1.Node, api.Node]("", "v1", "Node"),
		pairOf[corev1.NodeList, *corev1.NodeList, api.NodeList]("", "v1", "NodeList"),
		pairOf[corev1.Namespace, *corev1.Namespace, api.Namespace]("", "v1", "Namespace"),
		pairOf[corev1.NamespaceList, *corev1.NamespaceList, api.NamespaceList]("", "v1", "NamespaceList"),
		pairOf[corev1.Event, *corev1.Event, api.Event]("", "v1", "Event"),
		pairOf[corev1.EventList, *corev1.EventList, api.EventList]("", "v1", "EventList"),
		pairOf[appsv1.ReplicaSet, *appsv1.ReplicaSet, api.ReplicaSet]("apps", "v1", "ReplicaSet"),
		pairOf[appsv1.ReplicaSetList, *appsv1.ReplicaSetList, api.ReplicaSetList]("apps", "v1", "ReplicaSetList"),
		pairOf[appsv1.Deployment, *appsv1.Deployment, api.Deployment]("apps", "v1", "Deployment"),
		pairOf[appsv1.DeploymentList, *appsv1.DeploymentList, api.DeploymentList]("apps", "v1", "DeploymentList"),
		pairOf[batchv1.Job, *batchv1.Job, api.Job]("batch", "v1", "Job"),
		pairOf[batchv1.JobList, *batchv1.JobList, api.JobList]("batch", "v1", "JobList"),
		pairOf[corev1.Secret, *corev1.Secret, api.Secret]("", "v1", "Secret"),
		pairOf[corev1.SecretList, *corev1.SecretList, api.SecretList]("", "v1", "SecretList"),
		pairOf[corev1.ServiceAccount, *corev1.ServiceAccount, api.ServiceAccount]("", "v1", "ServiceAccount"),
		pairOf[corev1.ServiceAccountList, *corev1.ServiceAccountList, api.ServiceAccountList]("", "v1", "ServiceAccountList"),
		pairOf[coordinationv1.Lease, *coordinationv1.Lease, api.Lease]("coordination.k8s.io", "v1", "Lease"),
		pairOf[coordinationv1.LeaseList, *coordinationv1.LeaseList, api.LeaseList]("coordination.k8s.io", "v1", "LeaseList"),
		pairOf[rbacv1.Role, *rbacv1.Role, api.Role]("rbac.authorization.k8s.io", "v1", "Role"),
		pairOf[rbacv1.RoleList, *rbacv1.RoleList, api.RoleList]("rbac.authorization.k8s.io", "v1", "RoleList"),
		pairOf[rbacv1.ClusterRole, *rbacv1.ClusterRole, api.ClusterRole]("rbac.authorization.k8s.io", "v1", "ClusterRole"),
		pairOf[rbacv1.ClusterRoleList, *rbacv1.ClusterRoleList, api.ClusterRoleList]("rbac.authorization.k8s.io", "v1", "ClusterRoleList"),
		pairOf[rbacv1.RoleBinding, *rbacv1.RoleBinding, api.RoleBinding]("rbac.authorization.k8s.io", "v1", "RoleBinding"),
		pairOf[rbacv1.RoleBindingList, *rbacv1.RoleBindingList, api.RoleBindingList]("rbac.authorization.k8s.io", "v1", "RoleBindingList"),
		pairOf[rbacv1.ClusterRoleBinding, *rbacv1.ClusterRoleBinding, api.ClusterRoleBinding]("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"),
		pairOf[rbacv1.ClusterRoleBindingList, *rbacv1.ClusterRoleBindingList, api.ClusterRoleBindingList]("rbac.authorization.k8s.io", "v1", "ClusterRoleBindingList"),
		pairOf[authorizationv1.SubjectAccessReview, *authorizationv1.SubjectAccessReview, api.SubjectAccessReview]("authorization.k8s.io", "v1", "SubjectAccessReview"),
		pairOf[authorizationv1.SelfSubjectAccessReview, *authorizationv1.SelfSubjectAccessReview, api.SelfSubjectAccessReview]("authorization.k8s.io", "v1", "SelfSubjectAccessReview"),
		pairOf[authorizationv1.SelfSubjectRulesReview, *authorizationv1.SelfSubjectRulesReview, api.SelfSubjectRulesReview]("authorization.k8s.io", "v1", "SelfSubjectRulesReview"),
		pairOf[corev1.Binding, *corev1.Binding, api.Binding]("", "v1", "Binding"),
		pairOf[autoscalingv1.Scale, *autoscalingv1.Scale, api.Scale]("autoscaling", "v1", "Scale"),
		pairOf[metav1.DeleteOptions, *metav1.DeleteOptions, api.DeleteOptions]("", "v1", "DeleteOptions"),
		pairOf[metav1.Status, *metav1.Status, api.Status]("", "v1", "Status"),
	}
}

// k8sProtobuf is Kubernetes' protobuf serializer, prefix and envelope
// included.
var k8sProtobuf = protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)

func TestProtobufRoundTripsEveryFieldOfEveryKind(t *testing.T) {
	for _, k := range roundTripKinds() {
		t.Run(k.gvk.Kind, func(t *testing.T) { checkProtobufRoundTrip(t, k, k.filled()) })
	}
}

func TestProtobufRoundTripsEmptyObjects(t *testing.T) {
	for _, k := range roundTripKinds() {
		t.Run(k.gvk.Kind, func(t *testing.T) { checkProtobufRoundTrip(t, k, k.empty()) })
	}
}

func checkProtobufRoundTrip(t *testing.T, k roundTripKind, orig gogoObject) {
	var body bytes.Buffer
	require.NoError(t, k8sProtobuf.Encode(orig, &body))
	ours := k.ours()
	tm, err := api.DecodeProtobuf(body.Bytes(), ours)
	require.NoError(t, err, "kubeloop cannot read what Kubernetes writes")
	assert.Equal(t, k.gvk.Kind, tm.Kind)

	got, err := api.EncodeProtobuf(ours)
	require.NoError(t, err)
	back := k.empty()
	_, _, err = k8sProtobuf.Decode(got, nil, back)
	require.NoError(t, err, "Kubernetes cannot read what kubeloop writes")
	back.GetObjectKind().SetGroupVersionKind(k.gvk)
	if !apiequality.Semantic.DeepEqual(orig, back) {
		t.Errorf("Kubernetes reads back a different object (- sent, + read back):\n%s", cmp.Diff(orig, back, quantityByValue))
	}
	if !bytes.Equal(body.Bytes(), got) {
		t.Errorf("kubeloop's bytes differ from Kubernetes' at offset %d of %d (Kubernetes wrote %d)",
			firstDifference(body.Bytes(), got), len(got), body.Len())
	}

	// The bare message too, as a client's Marshal writes it.
	want, err := orig.Marshal()
	require.NoError(t, err)
	bare, err := api.MarshalProto(ours)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, bare), "bare message differs at offset %d", firstDifference(want, bare))
}

func TestJSONRoundTripsEveryFieldOfEveryKind(t *testing.T) {
	for _, k := range roundTripKinds() {
		t.Run(k.gvk.Kind, func(t *testing.T) { checkJSONRoundTrip(t, k, k.filled()) })
	}
}

func TestJSONRoundTripsEmptyObjects(t *testing.T) {
	for _, k := range roundTripKinds() {
		t.Run(k.gvk.Kind, func(t *testing.T) { checkJSONRoundTrip(t, k, k.empty()) })
	}
}

func checkJSONRoundTrip(t *testing.T, k roundTripKind, orig gogoObject) {
	want, err := json.Marshal(orig)
	require.NoError(t, err)
	ours := k.ours()
	unknown, err := decodeOurJSON(want, ours)
	require.NoError(t, err, "kubeloop cannot read what Kubernetes writes")
	assert.Empty(t, unknown, "fields kubeloop's %T does not have", ours)

	got, err := json.Marshal(ours)
	require.NoError(t, err)
	back := k.empty()
	require.NoError(t, json.Unmarshal(got, back), "Kubernetes cannot read what kubeloop writes")
	if !apiequality.Semantic.DeepEqual(orig, back) {
		t.Errorf("Kubernetes reads back a different object (- sent, + read back):\n%s", cmp.Diff(orig, back, quantityByValue))
	}
	// Indented and split into lines, a difference shows as the lines
	// around it.
	if w, g := indentJSON(t, want), indentJSON(t, got); w != g {
		t.Errorf("kubeloop's JSON differs from Kubernetes' (- Kubernetes, + kubeloop):\n%s",
			cmp.Diff(strings.Split(w, "\n"), strings.Split(g, "\n")))
	}
}

// decodeOurJSON decodes strictly where kubeloop can, so that a field it
// lacks is named rather than only missing from the output.
func decodeOurJSON(data []byte, into any) ([]string, error) {
	switch o := into.(type) {
	case api.Object:
		unknown, _, err := api.DecodeStrict(data, o)
		return unknown, err
	case *api.DeleteOptions:
		unknown, _, err := api.DecodeStrictOptions(data, o)
		return unknown, err
	}
	return nil, json.Unmarshal(data, into)
}

func indentJSON(t *testing.T, b []byte) string {
	var out bytes.Buffer
	require.NoError(t, json.Indent(&out, b, "", "  "))
	return out.String()
}

// quantityByValue lets cmp compare quantities, whose fields are unexported.
var quantityByValue = cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })

func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestFillerSetsEveryField guards the filler itself: an object it filled
// has no zero field left anywhere (but its TypeMeta), so the round trips
// above cover every field.
func TestFillerSetsEveryField(t *testing.T) {
	for _, k := range roundTripKinds() {
		zero := zeroFields(reflect.ValueOf(k.filled()).Elem(), k.gvk.Kind)
		assert.Empty(t, zero[:min(len(zero), 10)], "%s, %d zero fields", k.gvk.Kind, len(zero))
	}
}

// zeroFields lists the paths of v's zero values.
func zeroFields(v reflect.Value, path string) []string {
	if v.Type() == reflect.TypeFor[metav1.TypeMeta]() {
		return nil
	}
	if v.IsZero() {
		return []string{path}
	}
	var zero []string
	switch v.Kind() {
	case reflect.Struct:
		switch v.Type() {
		case reflect.TypeFor[metav1.Time](), reflect.TypeFor[metav1.MicroTime](), reflect.TypeFor[resource.Quantity](),
			reflect.TypeFor[intstr.IntOrString]():
			return nil // not zero, and their insides are not fields (or, for IntOrString, one of two)
		}
		for i := range v.NumField() {
			if sf := v.Type().Field(i); sf.IsExported() {
				zero = append(zero, zeroFields(v.Field(i), path+"."+sf.Name)...)
			}
		}
	case reflect.Pointer:
		if e := v.Elem(); e.Kind() == reflect.Struct && e.NumField() == 0 {
			return nil // a set pointer to a struct without fields (a Job's scheduling.basic) is all there is
		}
		zero = zeroFields(v.Elem(), path)
	case reflect.Slice:
		for i := range v.Len() {
			zero = append(zero, zeroFields(v.Index(i), fmt.Sprintf("%s[%d]", path, i))...)
		}
	case reflect.Map:
		for iter := v.MapRange(); iter.Next(); {
			zero = append(zero, zeroFields(iter.Value(), fmt.Sprintf("%s[%v]", path, iter.Key()))...)
		}
	}
	return zero
}
