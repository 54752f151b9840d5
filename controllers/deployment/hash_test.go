package deployment

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubeloop/api"
)

func sortBy(s sort.Interface) { sort.Sort(s) }

func webTemplate(image string) *api.PodTemplateSpec {
	return &api.PodTemplateSpec{
		ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: image}}},
	}
}

func TestComputeHashIsStableAndSafe(t *testing.T) {
	h := ComputeHash(webTemplate("nginx:1"), nil)
	assert.Equal(t, h, ComputeHash(webTemplate("nginx:1"), nil), "same template, same hash")
	assert.NotEqual(t, h, ComputeHash(webTemplate("nginx:2"), nil))
	for _, r := range h {
		assert.True(t, strings.ContainsRune(safeEncodeAlphabet, r), "%q in %q", r, h)
	}
	assert.LessOrEqual(t, len(h), 10, "a uint32 has at most 10 digits")
}

func TestCollisionCountChangesTheHash(t *testing.T) {
	zero, one := int32(0), int32(1)
	base := ComputeHash(webTemplate("nginx:1"), nil)
	assert.NotEqual(t, base, ComputeHash(webTemplate("nginx:1"), &zero), "a collision count of 0 is still hashed")
	assert.NotEqual(t, ComputeHash(webTemplate("nginx:1"), &zero), ComputeHash(webTemplate("nginx:1"), &one))
}

func TestSafeEncodeStringMapsDigits(t *testing.T) {
	// '0' is 48, 48 % 27 = 21 → '4'; '9' is 57 → 3 → 'f'.
	assert.Equal(t, "4f", safeEncodeString("09"))
}

func TestDumpWritesSpewsFormatWithKubernetesTypeNames(t *testing.T) {
	var b strings.Builder
	grace := int64(30)
	tpl := webTemplate("nginx:1")
	tpl.Spec.TerminationGracePeriodSeconds = &grace
	tpl.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: "100m"}
	dumpForHash(&b, tpl)
	out := b.String()
	for _, want := range []string{
		"(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) GenerateName:(string) ",
		"UID:(types.UID) ",
		"Labels:(map[string]string)map[app:web] Annotations:(map[string]string)<nil>",
		"TerminationGracePeriodSeconds:(*int64)30 ",
		"ActiveDeadlineSeconds:(*int64)<nil> ",
		"Containers:([]v1.Container)[{Name:(string)web Image:(string)nginx:1 ",
		"Requests:(v1.ResourceList)map[cpu:{i:(resource.int64Amount){value:(int64)100 scale:(resource.Scale)-3} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)100m Format:(resource.Format)DecimalSI}]",
	} {
		assert.Contains(t, out, want)
	}
}

func TestQuantityParseMatchesKubernetesFastPath(t *testing.T) {
	cases := []struct {
		in            string
		value         int64
		scale         int32
		format, saved string
	}{
		{"100m", 100, -3, "DecimalSI", "100m"},
		{"1", 1, 0, "DecimalSI", "1"},
		{"0", 0, 0, "DecimalSI", "0"},
		{"1000", 1000, 0, "DecimalSI", ""},
		{"1.5", 15, -1, "DecimalSI", ""},
		{"128Mi", 128 << 20, 0, "BinarySI", ""},
		{"1Gi", 1 << 30, 0, "BinarySI", "1Gi"},
		{"2k", 2, 3, "DecimalSI", "2k"},
		{"1e3", 1, 3, "DecimalExponent", "1e3"},
		{"-2", -2, 0, "DecimalSI", "-2"},
	}
	for _, c := range cases {
		v, s, f, saved, ok := parseQuantityForHash(c.in)
		if assert.True(t, ok, c.in) {
			assert.Equal(t, []any{c.value, c.scale, c.format, c.saved}, []any{v, s, f, saved}, c.in)
		}
	}
	_, _, _, _, ok := parseQuantityForHash("0.5Mi")
	assert.False(t, ok, "a binary fraction leaves the int64 path")
}
