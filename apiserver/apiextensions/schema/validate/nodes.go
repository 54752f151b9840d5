package validate

import (
	"fmt"
	"regexp"

	"kubeloop/apiserver/apiextensions/schema"
)

// Validator checks custom resources against one structural schema. It is
// built once per CRD version — the schema's tree of nodes with their
// patterns compiled — and is safe for concurrent use: nothing in it
// changes after New.
type Validator struct {
	root   *schema.Structural
	rootNd *node
	// embedded and lists: whether the schema has an embedded resource or a
	// set or map list anywhere, so that ValidateCustomResource walks the
	// object for them only when they can be there (resource.go).
	embedded, lists bool
}

// New builds the validator of s. A pattern that does not compile is an
// error here; CRD validation reports it first, with its field path.
func New(s *schema.Structural) (*Validator, error) {
	b := &nodeBuilder{patterns: map[string]*regexp.Regexp{}}
	root := b.structural(s)
	if b.err != nil {
		return nil, b.err
	}
	return &Validator{root: s, rootNd: root, embedded: s.Any(func(n *schema.Structural) bool { return n.XEmbeddedResource }),
		lists: s.Any(func(n *schema.Structural) bool { return n.XListType != nil && *n.XListType != "atomic" })}, nil
}

// node is what one walk step validates against: a structural node (its
// type and children), or only value validations (a junctor branch, whose
// children are branches too).
type node struct {
	typ      []string // allowed types; empty means any
	nullable bool
	format   string
	// numberFormat is an integer's or number's format (int32, float, ...),
	// which bounds its range.
	numberFormat string
	vv           *schema.ValueValidation
	pattern      *regexp.Regexp // vv.Pattern, compiled
	items        *node
	properties   map[string]*node
	// additional is the schema of properties not in properties (nil: none
	// validated); additionalForbidden means additionalProperties: false.
	additional          *node
	additionalForbidden bool
	// The junctors' branches.
	allOf, anyOf, oneOf []*node
	not                 *node
}

// nodeBuilder turns a schema into nodes, compiling each pattern once.
type nodeBuilder struct {
	patterns map[string]*regexp.Regexp
	err      error
}

func (b *nodeBuilder) structural(s *schema.Structural) *node {
	if s == nil {
		return nil
	}
	n := &node{nullable: s.Nullable}
	switch {
	case s.XIntOrString:
		n.typ = []string{"integer", "string"}
	case s.Type != "":
		n.typ = []string{s.Type}
	}
	if s.ValueValidation != nil {
		n.format = supportedFormat(s.Type, s.ValueValidation.Format)
		if s.Type == "integer" || s.Type == "number" {
			n.numberFormat = s.ValueValidation.Format
		}
	}
	b.valueValidation(n, s.ValueValidation)
	n.items = b.structural(s.Items)
	if len(s.Properties) > 0 {
		n.properties = make(map[string]*node, len(s.Properties))
		for k, p := range s.Properties {
			n.properties[k] = b.structural(&p)
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		n.additionalForbidden = !ap.Bool && ap.Structural == nil
		n.additional = b.structural(ap.Structural)
	}
	return n
}

func (b *nodeBuilder) nested(v *schema.NestedValueValidation) *node {
	if v == nil {
		return nil
	}
	// A branch has no type of its own, except the int-or-string idiom's
	// {type: integer} / {type: string}, which is kept so that the branch
	// can fail.
	n := &node{format: supportedFormat(v.ForbiddenGenerics.Type, v.Format)}
	if t := v.ForbiddenGenerics.Type; t != "" {
		n.typ = []string{t}
	}
	b.valueValidation(n, &v.ValueValidation)
	n.items = b.nested(v.Items)
	if len(v.Properties) > 0 {
		n.properties = make(map[string]*node, len(v.Properties))
		for k, p := range v.Properties {
			n.properties[k] = b.nested(&p)
		}
	}
	n.additional = b.nested(v.AdditionalProperties)
	return n
}

// valueValidation sets n's value validations: vv itself (never nil in a
// node), its compiled pattern and its junctors' branches.
func (b *nodeBuilder) valueValidation(n *node, vv *schema.ValueValidation) {
	if vv == nil {
		vv = &schema.ValueValidation{}
	}
	n.vv = vv
	if vv.Pattern != "" {
		re, ok := b.patterns[vv.Pattern]
		if !ok {
			var err error
			if re, err = regexp.Compile(vv.Pattern); err != nil && b.err == nil {
				b.err = fmt.Errorf("pattern %q: %w", vv.Pattern, err)
			}
			b.patterns[vv.Pattern] = re
		}
		n.pattern = re
	}
	branches := func(list []schema.NestedValueValidation) []*node {
		out := make([]*node, len(list))
		for i := range list {
			out[i] = b.nested(&list[i])
		}
		return out
	}
	n.allOf, n.anyOf, n.oneOf = branches(vv.AllOf), branches(vv.AnyOf), branches(vv.OneOf)
	n.not = b.nested(vv.Not)
}
