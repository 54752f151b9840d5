package fieldpath

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func key(kv ...any) PathElement {
	var fs []KeyField
	for i := 0; i < len(kv); i += 2 {
		fs = append(fs, KeyField{Name: kv[i].(string), Value: kv[i+1]})
	}
	return Key(fs...)
}

func TestPathElementSerializesAsKubernetesWritesIt(t *testing.T) {
	for _, tc := range []struct {
		pe   PathElement
		want string
		str  string
	}{
		{Field("image"), "f:image", ".image"},
		{key("name", "c"), `k:{"name":"c"}`, `[name="c"]`},
		// key fields sort by name whatever order they were given in
		{key("protocol", "TCP", "containerPort", json.Number("80")), `k:{"containerPort":80,"protocol":"TCP"}`, `[containerPort=80,protocol="TCP"]`},
		{Value("x"), `v:"x"`, `[="x"]`},
		{Value(json.Number("3")), `v:3`, `[=3]`},
		{Value("<a&b>"), `v:"\u003ca\u0026b\u003e"`, `[="<a&b>"]`},
		{Index(0), "i:0", "[0]"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			got, err := tc.pe.serialize()
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.str, tc.pe.String())
			back, err := ParsePathElement(got)
			require.NoError(t, err)
			assert.True(t, tc.pe.Equals(back), "round trip of %s gave %s", got, back)
		})
	}
}

func TestParsePathElementRejectsMalformedKeys(t *testing.T) {
	for _, s := range []string{"", "f", "fx", "x:y", `k:[1]`, `v:"x`, "i:a", `k:{"a":1}x`} {
		_, err := ParsePathElement(s)
		assert.Error(t, err, s)
	}
}

func TestCompareOrdersFieldsKeysValuesIndexes(t *testing.T) {
	ordered := []PathElement{
		Field("a"), Field("b"),
		key("name", "a"), key("name", "b"), key("name", "b", "x", "1"),
		Value(json.Number("2")), Value(json.Number("10")), Value("a"), Value(false), Value(true), Value(nil),
		Index(0), Index(2),
	}
	for i := range ordered {
		for j := range ordered {
			want := compareInts(int64(i), int64(j))
			assert.Equal(t, want, ordered[i].Compare(ordered[j]), "%s vs %s", ordered[i], ordered[j])
		}
	}
}

func examplePodSet() *Set {
	return NewSet(
		MakePath("metadata", "labels", "app"),
		MakePath("spec", "containers", key("name", "c")),
		MakePath("spec", "containers", key("name", "c"), "image"),
	)
}

func TestToJSONWritesDotForMembersWithChildren(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  *Set
		want string
	}{
		{"empty", NewSet(), `{}`},
		{"brief example", examplePodSet(), `{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{}}}}}`},
		{"member before children in compare order", NewSet(
			MakePath("spec", "ports", key("port", json.Number("80"), "protocol", "TCP"), "port"),
			MakePath("spec", "ports", key("port", json.Number("80"), "protocol", "TCP")),
			MakePath("spec", "finalizers", Value("b")),
			MakePath("spec", "finalizers", Value("a")),
			MakePath("spec", "a"),
		), `{"f:spec":{"f:a":{},"f:finalizers":{"v:\"a\"":{},"v:\"b\"":{}},"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}}}}`},
		{"labels member and parent", NewSet(MakePath("metadata", "labels"), MakePath("metadata", "labels", "app")),
			`{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.set.ToJSON()
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
			back, err := FromJSON(got)
			require.NoError(t, err)
			assert.True(t, tc.set.Equals(back), "round trip:\n%s", back)
		})
	}
}

func TestFromJSONRejectsNonObjects(t *testing.T) {
	for _, in := range []string{`[]`, `{"f:a":1}`, `{"q:a":{}}`, `{"f:a":{"f:b":"x"}}`, `{`} {
		_, err := FromJSON([]byte(in))
		assert.Error(t, err, in)
	}
}

func TestSetOperations(t *testing.T) {
	a := NewSet(MakePath("a"), MakePath("b", "c"), MakePath("b", "d"), MakePath("l", key("name", "x")), MakePath("l", key("name", "x"), "v"))
	b := NewSet(MakePath("b", "c"), MakePath("e"), MakePath("l", key("name", "x")))
	for _, tc := range []struct {
		name string
		got  *Set
		want []Path
	}{
		{"union", a.Union(b), []Path{MakePath("a"), MakePath("e"), MakePath("b", "c"), MakePath("b", "d"), MakePath("l", key("name", "x")), MakePath("l", key("name", "x"), "v")}},
		{"intersection", a.Intersection(b), []Path{MakePath("b", "c"), MakePath("l", key("name", "x"))}},
		{"difference keeps children of removed member", a.Difference(b), []Path{MakePath("a"), MakePath("b", "d"), MakePath("l", key("name", "x"), "v")}},
		{"recursive difference drops them", a.RecursiveDifference(b), []Path{MakePath("a"), MakePath("b", "d")}},
		{"leaves", a.Leaves(), []Path{MakePath("a"), MakePath("b", "c"), MakePath("b", "d"), MakePath("l", key("name", "x"), "v")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.True(t, NewSet(tc.want...).Equals(tc.got), "got:\n%s", tc.got)
			assert.Equal(t, len(tc.want), tc.got.Size())
		})
	}
}

func TestHas(t *testing.T) {
	s := examplePodSet()
	assert.True(t, s.Has(MakePath("metadata", "labels", "app")))
	assert.True(t, s.Has(MakePath("spec", "containers", key("name", "c"))))
	assert.False(t, s.Has(MakePath("spec", "containers")), "a parent is not a member")
	assert.False(t, s.Has(MakePath("spec")))
	assert.False(t, s.Has(nil))
	assert.False(t, s.Has(MakePath("spec", "containers", key("name", "d"))))
}

func TestDifferenceToEmptyIsEmpty(t *testing.T) {
	s := examplePodSet()
	d := s.Difference(s.Copy())
	assert.True(t, d.Empty())
	got, err := d.ToJSON()
	require.NoError(t, err)
	assert.Equal(t, "{}", string(got))
}

// Overlaps, TouchedBy and CoveredBy answer what Intersection,
// RecursiveDifference and Difference would, without building the set.
func TestOverlapsAndTouchedByAgreeWithTheOperations(t *testing.T) {
	spec, image := MakePath("spec"), MakePath("spec", "containers", key("name", "c"), "image")
	env := MakePath("spec", "containers", key("name", "c"), "env")
	sets := []*Set{NewSet(), NewSet(spec), NewSet(image), NewSet(env), NewSet(image, env), NewSet(spec, image),
		NewSet(MakePath("status")), NewSet(MakePath("spec", "containers"))}
	for i, s := range sets {
		for j, o := range sets {
			assert.Equal(t, !s.Intersection(o).Empty(), s.Overlaps(o), "%d overlaps %d", i, j)
			assert.Equal(t, !s.RecursiveDifference(o).Equals(s), s.TouchedBy(o), "%d touched by %d", i, j)
			for k, p := range sets {
				assert.Equal(t, s.Difference(o).Difference(p).Empty(), s.CoveredBy(o, p), "%d covered by %d and %d", i, j, k)
			}
		}
	}
}

// Results share parts of their operands (set_share.go); building on a
// result never changes the operands.
func TestSharedSetsAreNotChangedByLaterOperations(t *testing.T) {
	c := key("name", "c")
	a := NewSet(MakePath("spec", "containers", c), MakePath("spec", "containers", c, "image"), MakePath("metadata", "labels", "app"))
	b := NewSet(MakePath("spec", "containers", c, "image"), MakePath("status"))
	wantA, wantB := a.String(), b.String()
	results := []*Set{a.Union(b), b.Union(a), a.Difference(b), a.Difference(NewSet()), a.RecursiveDifference(b), a.Intersection(b)}
	for _, r := range results {
		r = r.Union(NewSet(MakePath("spec", "containers", c, "env")))
		r.Difference(a).Union(b)
	}
	assert.Equal(t, wantA, a.String())
	assert.Equal(t, wantB, b.String())
	assert.Equal(t, ".metadata.labels.app\n.spec.containers[name=\"c\"]\n", a.Difference(b).String())
	assert.Same(t, a, a.Difference(NewSet()), "nothing taken away: the set itself")
}

// A union builds new levels only along the paths it adds: adding what
// the set has is the set itself, adding a label leaves spec shared.
func TestUnionSharesWhatItDoesNotAddTo(t *testing.T) {
	s := examplePodSet()
	assert.Same(t, s, s.Union(s.Copy()), "nothing added")
	assert.Same(t, s, s.Union(NewSet(MakePath("spec", "containers", key("name", "c")))), "a member it has")
	u := s.Union(NewSet(MakePath("metadata", "labels", "version")))
	assert.True(t, u.Has(MakePath("metadata", "labels", "version")))
	assert.Same(t, s.descend(Field("spec")), u.descend(Field("spec")), "spec is untouched")
	assert.True(t, u.Difference(NewSet(MakePath("metadata", "labels", "version"))).Equals(s))
}

func TestAppendKeyWritesWhatWriteKeyWrites(t *testing.T) {
	for _, pe := range []PathElement{
		Field("image"), Field("a<b"), Field(`q"uote`), Field("é"), Field("back\\slash"), Field("tab\t"),
		key("name", "c"), key("containerPort", json.Number("8080"), "protocol", "TCP"), key("name", "a&b"),
		key("ok", true), key("n", json.Number("-1.5e3")), key("x", nil), key("z", []any{"list"}),
		Value("x"), Value(json.Number("3")), Value(false), Value("<a>"), Value(map[string]any{"m": "1"}), Index(4),
	} {
		var want, got bytes.Buffer
		require.NoError(t, writeKey(&want, pe))
		require.NoError(t, appendKey(&got, pe))
		assert.Equal(t, want.String(), got.String())
	}
}
