package sample

// Widget is a thing
// on two lines.
//
// A second paragraph, with an example:
//
//	{"kind": "Widget"}
//
// +k8s:deepcopy-gen=true
// ---
// Everything after the line above is for Go readers only.
type Widget struct {
	Meta `json:",inline"`
	// Size in "units".
	// +optional
	Size int32 `json:"size,omitempty"`
	// TODO: drop this field
	// Color is the color.
	Color, Shade string
	// unexported fields are no part of the wire
	secret       string
	Undocumented string
}

// Meta is embedded.
type Meta struct{}

type (
	// Small is a named scalar.
	Small int

	// WidgetList is a list of widgets.
	WidgetList = List[Widget]
)

// List is generic.
type List[T any] struct {
	// Items are the items.
	Items []T
	// Inner is embedded generically.
	*Inner[T]
}

type Inner[T any] struct{ x T }

// hidden is not exported.
type hidden struct{}

type Bare struct{}
