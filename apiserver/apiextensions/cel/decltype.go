package cel

import (
	"sort"
	"strings"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	"kubeloop/apiserver/apiextensions/schema"
)

// The request-size bounds Kubernetes derives unknown sizes from
// (k8s.io/apiserver/pkg/apis/cel/config.go, pkg/cel/limits.go): a value
// can be no bigger than the largest request.
const (
	maxRequestSizeBytes = int64(3 * 1024 * 1024)
	minStringSize       = 2
	minBoolSize         = 4
	minNumberSize       = 1
	maxDurationSizeJSON = 32
	maxDatetimeSizeJSON = 32
	minDurationSizeJSON = 3
	jsonDateSize        = 12
	minDatetimeSizeJSON = 21
)

// declType is the CEL view of one schema node: its CEL type, the JSON
// fields of an object, the element of a list or map, and the sizes the
// cost estimator needs: the most elements (characters of a string, items
// of a list, entries of a map) and the fewest bytes a serialized value
// takes.
type declType struct {
	cel               *celgo.Type
	fields            map[string]*declField // by escaped name; objects only
	elem              *declType             // list items, map values
	maxElements       int64
	minSerializedSize int64
	// format is the string format the value is converted for: "byte",
	// "duration", "date", "date-time" or "".
	format string
	schema *schema.Structural
}

// declField is one field of an object type.
type declField struct {
	jsonName string // the property's name in the object
	typ      *declType
}

// declBuilder collects the object types of one schema, named by their
// path from the root's name ("selfType1.spec.template"), as Kubernetes'
// MaybeAssignTypeName names them; list items add "@idx", map values
// "@prop".
type declBuilder struct {
	// objects are the object types built, by name, for the type provider.
	objects map[string]*declType
}

// build is SchemaDeclType (k8s.io/apiserver/pkg/cel/common/schemas.go): nil
// for a node CEL cannot see (no type, or preserving unknown fields without
// one), which its parent then leaves out.
func (b *declBuilder) build(s *schema.Structural, isResourceRoot bool, name string) *declType {
	if s == nil {
		return nil
	}
	if s.XIntOrString {
		d := &declType{cel: celgo.DynType, minSerializedSize: 1, schema: s}
		if s.ValueValidation != nil && s.ValueValidation.MaxLength != nil {
			d.maxElements = zeroIfNegative(*s.ValueValidation.MaxLength) * 4
		} else {
			d.maxElements = maxRequestSizeBytes - 2
		}
		return d
	}
	if isResourceRoot {
		s = withTypeAndObjectMeta(s)
	}
	vv := s.ValueValidation
	if vv == nil {
		vv = &schema.ValueValidation{}
	}
	switch s.Type {
	case "array":
		if s.Items == nil {
			return nil
		}
		items := b.build(s.Items, s.Items.XEmbeddedResource, name+".@idx")
		if items == nil {
			return nil
		}
		maxItems := (maxRequestSizeBytes - 2) / (items.minSerializedSize + 1)
		if vv.MaxItems != nil {
			maxItems = zeroIfNegative(*vv.MaxItems)
		}
		return &declType{cel: celgo.ListType(items.cel), elem: items, maxElements: maxItems, minSerializedSize: 2, schema: s}
	case "object":
		if ap := s.AdditionalProperties; ap != nil && ap.Structural != nil {
			values := b.build(ap.Structural, ap.Structural.XEmbeddedResource, name+".@prop")
			if values == nil {
				return nil
			}
			maxProps := (maxRequestSizeBytes - 2) / (values.minSerializedSize + 6)
			if vv.MaxProperties != nil {
				maxProps = zeroIfNegative(*vv.MaxProperties)
			}
			return &declType{cel: celgo.MapType(celgo.StringType, values.cel), elem: values, maxElements: maxProps, minSerializedSize: 2, schema: s}
		}
		d := &declType{cel: types.NewObjectType(name), fields: map[string]*declField{}, minSerializedSize: 2, schema: s}
		required := map[string]bool{}
		for _, r := range vv.Required {
			required[r] = true
		}
		for _, prop := range sortedKeys(s.Properties) {
			ps := s.Properties[prop]
			escaped, escapable := Escape(prop)
			ft := b.build(&ps, ps.XEmbeddedResource, name+"."+escaped)
			if ft == nil {
				continue
			}
			if escapable {
				d.fields[escaped] = &declField{jsonName: prop, typ: ft}
			}
			if required[prop] && ps.Default == nil {
				d.minSerializedSize += int64(len(prop)) + ft.minSerializedSize + 4
			}
		}
		b.objects[name] = d
		return d
	case "string":
		switch vv.Format {
		case "byte":
			d := &declType{cel: celgo.BytesType, format: "byte", minSerializedSize: minStringSize, maxElements: maxRequestSizeBytes - 2, schema: s}
			if vv.MaxLength != nil {
				d.maxElements = zeroIfNegative(*vv.MaxLength)
			}
			return d
		case "duration":
			return &declType{cel: celgo.DurationType, format: "duration", minSerializedSize: minDurationSizeJSON, maxElements: maxDurationSizeJSON, schema: s}
		case "date":
			return &declType{cel: celgo.TimestampType, format: "date", minSerializedSize: jsonDateSize, maxElements: jsonDateSize, schema: s}
		case "date-time":
			return &declType{cel: celgo.TimestampType, format: "date-time", minSerializedSize: minDatetimeSizeJSON, maxElements: maxDatetimeSizeJSON, schema: s}
		}
		d := &declType{cel: celgo.StringType, minSerializedSize: minStringSize, schema: s}
		switch {
		case vv.MaxLength != nil:
			d.maxElements = zeroIfNegative(*vv.MaxLength) * 4
		case len(vv.Enum) > 0:
			for _, e := range vv.Enum {
				if es, ok := e.(string); ok && int64(len(es)) > d.maxElements {
					d.maxElements = int64(len(es))
				}
			}
		default:
			d.maxElements = maxRequestSizeBytes - 2
		}
		return d
	case "boolean":
		return &declType{cel: celgo.BoolType, minSerializedSize: minBoolSize, schema: s}
	case "number":
		return &declType{cel: celgo.DoubleType, minSerializedSize: minNumberSize, schema: s}
	case "integer":
		return &declType{cel: celgo.IntType, minSerializedSize: minNumberSize, schema: s}
	}
	return nil
}

func sortedKeys(m map[string]schema.Structural) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func zeroIfNegative(v int64) int64 { return max(v, 0) }

// withTypeAndObjectMeta gives a resource's root (or an embedded
// resource) the fields every object has, as CEL sees them: kind,
// apiVersion, and of metadata only name and generateName — the rest of
// metadata is the apiserver's, not the schema's.
func withTypeAndObjectMeta(s *schema.Structural) *schema.Structural {
	str := schema.Structural{Generic: schema.Generic{Type: "string"}}
	out := *s
	out.Properties = make(map[string]schema.Structural, len(s.Properties)+3)
	for k, v := range s.Properties {
		out.Properties[k] = v
	}
	out.Properties["kind"] = str
	out.Properties["apiVersion"] = str
	out.Properties["metadata"] = schema.Structural{
		Generic:    schema.Generic{Type: "object"},
		Properties: map[string]schema.Structural{"name": str, "generateName": str},
	}
	return &out
}

// celReserved are the identifiers CEL reserves; a property with one of
// these names is reached as __name__.
var celReserved = map[string]bool{
	"true": true, "false": true, "null": true, "in": true,
	"as": true, "break": true, "const": true, "continue": true, "else": true,
	"for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true,
	"var": true, "void": true, "while": true,
}

// Escape is the CEL name of a property: reserved words become __word__,
// and "__", ".", "-" and "/" become __underscores__, __dot__, __dash__
// and __slash__. A name with any other character, or starting with a
// digit, cannot be used in CEL (false). Kubernetes:
// k8s.io/apiserver/pkg/cel/escaping.go (Escape).
func Escape(ident string) (string, bool) {
	if ident == "" || (ident[0] >= '0' && ident[0] <= '9') {
		return "", false
	}
	if celReserved[ident] {
		return "__" + ident + "__", true
	}
	var b strings.Builder
	for i := 0; i < len(ident); i++ {
		c := ident[i]
		switch {
		case c == '_' && i+1 < len(ident) && ident[i+1] == '_':
			b.WriteString("__underscores__")
			i++
		case c == '.':
			b.WriteString("__dot__")
		case c == '-':
			b.WriteString("__dash__")
		case c == '/':
			b.WriteString("__slash__")
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			return "", false
		}
	}
	return b.String(), true
}
