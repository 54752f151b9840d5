package conformance

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crontabCRD is the CRD of Kubernetes' own "Extend the Kubernetes API with
// CustomResourceDefinitions" page, with a printer column and the status
// and scale subresources and a category added.
const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec:
                type: string
                description: When the job runs, in cron syntax.
              image:
                type: string
              replicas:
                type: integer
                minimum: 1
                maximum: 10
            required: ["cronSpec"]
          status:
            type: object
            properties:
              replicas:
                type: integer
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
    categories:
    - schedules
`

const crontab = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 1
`

// TestKubectlCustomResources is the whole life of a CRD with the real
// kubectl: apply the CRD, wait for it, use the kind like a built-in one,
// delete the CRD.
func TestKubectlCustomResources(t *testing.T) {
	bin := requireKubectls(t)[0]
	ns := newNamespace(t)
	k := &kubectl{t: t, bin: bin, namespace: ns}
	assert.Contains(t, k.ok("apply", "-f", writeFile(t, "crd.yaml", crontabCRD)), "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created")
	t.Cleanup(func() { k.run("delete", "crd", "crontabs.stable.example.com", "--wait=false") })
	k.ok("wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=30s")
	// The CRD's own columns, as kube-apiserver v1.37 prints them.
	assert.Regexp(t, `^NAME\s+SCOPE\s+VERSIONS\s+CREATED AT\ncrontabs.stable.example.com\s+Namespaced\s+v1\(storage\)\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$`,
		k.ok("get", "crd", "crontabs.stable.example.com"))
	assert.Regexp(t, `(?m)^crontabs.stable.example.com\s+Namespaced\s+v1\(storage\)\s+\S+\s+stable.example.com\s+CronTab\s+ct\s+true$`,
		k.ok("get", "crd", "crontabs.stable.example.com", "-o", "wide"))
	assert.Regexp(t, `(?m)^crontabs\s+ct\s+stable.example.com/v1\s+true\s+CronTab$`, k.ok("api-resources", "--api-group=stable.example.com"))

	cr := writeFile(t, "cr.yaml", crontab)
	assert.Contains(t, k.ok("apply", "-f", cr), "crontab.stable.example.com/my-new-cron-object created")
	assert.Contains(t, k.ok("apply", "-f", cr), "crontab.stable.example.com/my-new-cron-object unchanged")
	assert.Contains(t, k.ok("apply", "-f", writeFile(t, "cr2.yaml", strings.Replace(crontab, "replicas: 1", "replicas: 2", 1))),
		"crontab.stable.example.com/my-new-cron-object configured")

	get := k.ok("get", "ct")
	assert.Regexp(t, `(?m)^NAME\s+SPEC\s+REPLICAS$`, get)
	assert.Regexp(t, `(?m)^my-new-cron-object\s+\* \* \* \* \*/5\s+2$`, get)
	assert.Contains(t, k.ok("get", "crontabs.stable.example.com", "my-new-cron-object", "-o", "jsonpath={.spec.image}"), "my-awesome-cron-image")
	assert.Contains(t, k.ok("get", "schedules", "-o", "name"), "crontab.stable.example.com/my-new-cron-object", "the category, from discovery")

	assert.Contains(t, k.ok("label", "ct", "my-new-cron-object", "tier=batch"), "labeled")
	assert.Contains(t, k.ok("get", "ct", "-l", "tier=batch", "-o", "name"), "crontab.stable.example.com/my-new-cron-object")
	assert.Contains(t, k.ok("patch", "ct", "my-new-cron-object", "--type=merge", "-p", `{"spec":{"image":"other"}}`), "patched")
	// kubectl edit: the "editor" is a script that rewrites the image in the
	// YAML kubectl hands it; kubectl then patches the difference.
	editor := writeFile(t, "editor.sh", "#!/bin/sh\nsed -i 's/image: other/image: edited/' \"$1\"\n")
	require.NoError(t, os.Chmod(editor, 0o755))
	ke := &kubectl{t: t, bin: bin, namespace: ns, env: []string{"KUBE_EDITOR=" + editor, "EDITOR=" + editor}}
	assert.Contains(t, ke.ok("edit", "ct", "my-new-cron-object"), "crontab.stable.example.com/my-new-cron-object edited")
	assert.Equal(t, "edited", k.ok("get", "ct", "my-new-cron-object", "-o", "jsonpath={.spec.image}"))
	assert.Equal(t, "2", k.ok("get", "ct", "my-new-cron-object", "-o", "jsonpath={.spec.replicas}"), "the rest is kept")
	assert.Contains(t, k.ok("scale", "ct", "my-new-cron-object", "--replicas=3"), "scaled")
	assert.Equal(t, "3", k.ok("get", "ct", "my-new-cron-object", "-o", "jsonpath={.spec.replicas}"))
	desc := k.ok("describe", "ct", "my-new-cron-object")
	assert.Contains(t, desc, "Kind:         CronTab")
	assert.Contains(t, desc, "Cron Spec:")

	explain := k.ok("explain", "crontabs.spec")
	assert.Contains(t, explain, "KIND:       CronTab")
	assert.Contains(t, explain, "cronSpec\t<string> -required-")
	assert.Contains(t, explain, "When the job runs, in cron syntax.")
	assert.Contains(t, k.ok("explain", "crontabs.spec.replicas", "--output=plaintext-openapiv2"), "replicas")

	bad := k.stdin(strings.Replace(crontab, "replicas: 1", "replicas: 50", 1), "apply", "-f", "-")
	require.Equal(t, 1, bad.code, bad.out())
	assert.Contains(t, bad.stderr, `spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10`)

	assert.Contains(t, k.ok("delete", "ct", "my-new-cron-object"), `crontab.stable.example.com "my-new-cron-object" deleted`)
	assert.Contains(t, k.ok("delete", "crd", "crontabs.stable.example.com"), `deleted`)
	require.Eventually(t, func() bool {
		return k.run("get", "crd", "crontabs.stable.example.com").code != 0
	}, 30*time.Second, 100*time.Millisecond)
}
