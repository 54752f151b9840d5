package sharing

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type deltaMeta struct {
	Name   string
	Labels map[string]string
	When   time.Time
}

type deltaObject struct {
	Meta   deltaMeta
	Items  []leaf
	Raw    []byte
	Ptr    *leaf
	Iface  any
	Flag   bool
	Number int64
}

func deltaSample() *deltaObject {
	return &deltaObject{
		Meta:  deltaMeta{Name: "x", Labels: map[string]string{"a": "b"}, When: time.Unix(100, 0)},
		Items: []leaf{{Name: "a", Count: one()}}, Raw: []byte("raw"), Ptr: &leaf{Name: "p"},
		Iface: "any", Flag: true, Number: 7,
	}
}

func TestDeltaAppliedToTheNewerVersionGivesTheOlderBack(t *testing.T) {
	older := deltaSample()
	newer := deltaSample()
	newer.Meta.Name = "y"
	newer.Meta.When = time.Unix(200, 0)
	newer.Items = append(newer.Items, leaf{Name: "added"})
	newer.Iface = nil
	newer.Flag = false
	var s Sharer
	s.Share(newer, older)
	want := deltaSample()

	d := s.Diff(older, newer)
	require.NotNil(t, d)
	got := d.Apply(newer)

	require.True(t, reflect.DeepEqual(want, got), "Apply gives a copy deeply equal to the older version: %+v", got)
	require.NotSame(t, older, got, "a new object, not the older one")
	require.Same(t, newer.Ptr, got.(*deltaObject).Ptr, "a part the versions share comes from the newer one")
	require.Equal(t, "y", newer.Meta.Name, "the newer version is only read")
}

func TestDeltaHoldsOnlyTheFieldsThatDiffer(t *testing.T) {
	older := deltaSample()
	newer := deltaSample()
	newer.Meta.Name = "y"
	var s Sharer
	s.Share(newer, older)

	d := s.Diff(older, newer)

	require.Equal(t, 1, d.Len(), "only the name differs once Share made the equal parts the same")
	require.True(t, reflect.DeepEqual(older, d.Apply(newer)))
}

func TestDeltaKeepsNilAndEmptyApart(t *testing.T) {
	older, newer := deltaSample(), deltaSample()
	older.Items, older.Meta.Labels = nil, nil
	newer.Items, newer.Meta.Labels = []leaf{}, map[string]string{}
	var s Sharer

	got := s.Diff(older, newer).Apply(newer).(*deltaObject)

	require.Nil(t, got.Items)
	require.Nil(t, got.Meta.Labels)
}

func TestDiffOfDifferentTypesOrAnOpaqueTypeIsNil(t *testing.T) {
	var s Sharer
	require.Nil(t, s.Diff(deltaSample(), sample("x")), "different types")
	require.Nil(t, s.Diff(&object{}, &object{}), "a type with an unexported field")
	require.Nil(t, s.Diff(deltaSample(), nil))
}
