package crdserving_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/apiserver/apiservertest"
)

// widgetCRD is a namespaced CRD of group <group>, plural widgets, with a
// schema (bounds, enum, default, required, a list-map), the status and
// scale subresources, printer columns and a selectable field.
func widgetCRD(group string) string {
	return fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"widgets.%[1]s"},
 "spec":{"group":%[1]q,"scope":"Namespaced",
  "names":{"plural":"widgets","singular":"widget","kind":"Widget","shortNames":["wd"],"categories":["all"]},
  "versions":[{"name":"v1","served":true,"storage":true,
   "schema":{"openAPIV3Schema":{"type":"object","properties":{
    "spec":{"type":"object","required":["color"],"properties":{
     "color":{"type":"string","enum":["red","blue"]},
     "replicas":{"type":"integer","minimum":0,"maximum":10,"default":1},
     "size":{"type":"string","maxLength":3},
     "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}}},
     "x-kubernetes-validations":[{"rule":"self.replicas <= 5 || self.color == 'red'","message":"only red widgets scale past 5"}]},
    "status":{"type":"object","properties":{"replicas":{"type":"integer"},"selector":{"type":"string"}}}}}},
   "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas","labelSelectorPath":".status.selector"}},
   "additionalPrinterColumns":[{"name":"Color","type":"string","jsonPath":".spec.color"},{"name":"Replicas","type":"integer","jsonPath":".spec.replicas"},{"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}],
   "selectableFields":[{"jsonPath":".spec.color"}]}]}}`, group)
}

func widget(name, color string, replicas int) string {
	return fmt.Sprintf(`{"apiVersion":"%s","kind":"Widget","metadata":{"name":%q,"labels":{"app":"w"}},"spec":{"color":%q,"replicas":%d}}`,
		"GROUP/v1", name, color, replicas)
}

// createCRD creates a CRD in a group of its own and waits until its
// resources answer; it returns the group.
func createCRD(t *testing.T, body func(group string) string) string {
	t.Helper()
	group := strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")) + ".example.com"
	resp := srv.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "", body(group))
	require.Equal(t, http.StatusCreated, resp.Code, resp.Body)
	name := apiservertest.Get(resp.Obj(t), "metadata", "name").(string)
	waitEstablished(t, name)
	t.Cleanup(func() {
		srv.Do(t, "DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, "", "")
	})
	return group
}

func waitEstablished(t *testing.T, name string) {
	t.Helper()
	require.Eventually(t, func() bool {
		resp := srv.Do(t, "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, "", "")
		if resp.Code != http.StatusOK {
			return false
		}
		return conditionStatus(resp.Obj(t), "Established") == "True"
	}, 10*time.Second, 20*time.Millisecond, "CRD %s never Established", name)
}

func conditionStatus(crd map[string]any, typ string) string {
	s, _ := conditionOf(crd, typ)["status"].(string)
	return s
}

func conditionOf(crd map[string]any, typ string) map[string]any {
	conds, _ := apiservertest.Get(crd, "status", "conditions").([]any)
	for _, c := range conds {
		m := c.(map[string]any)
		if m["type"] == typ {
			return m
		}
	}
	return nil
}

func widgets(group, ns string) string { return "/apis/" + group + "/v1/namespaces/" + ns + "/widgets" }

func withGroup(body, group string) string { return strings.ReplaceAll(body, "GROUP", group) }

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
