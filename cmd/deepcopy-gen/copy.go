package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// copyInto writes statements that turn out into a deep copy of in. Both are
// addressable Go expressions of type t, and out already holds either a
// shallow copy of in (after `*out = *in`) or t's zero value (a freshly made
// slice element): so a plain type needs nothing, and a nil in leaves out nil.
//
// Slices and maps shadow in and out with pointers to the current level,
// `in, out := &in.Spec, &out.Spec`, as deepcopy-gen does, so that nested
// levels read the same: (*in)[i], (*out)[i].
func (g *generator) copyInto(w *strings.Builder, out, in string, t ast.Expr, from *typeDecl, where string) {
	s := g.classify(t, from)
	name := s.typeName
	if name == "" && s.typ != nil {
		name = g.typeString(s.typ, s.from)
	}
	switch s.kind {
	case plain:
	case method:
		fmt.Fprintf(w, "%s.DeepCopyInto(%s)\n", in, addr(out))
	case iface:
		fmt.Fprintf(w, "if %s != nil {\n%s = %s.%s()\n}\n", in, out, in, s.method)
	case pointer:
		fmt.Fprintf(w, "if %s != nil {\n%s = new(%s)\n", in, out, name)
		switch g.classify(s.elem, s.from).kind {
		case plain:
			fmt.Fprintf(w, "*%s = *%s\n", out, in)
		case method:
			fmt.Fprintf(w, "%s.DeepCopyInto(%s)\n", in, out)
		default:
			fmt.Fprintf(w, "*%s = *%s\n", out, in)
			g.copyInto(w, "(*"+out+")", "(*"+in+")", s.elem, s.from, where)
		}
		fmt.Fprintf(w, "}\n")
	case container:
		fmt.Fprintf(w, "if %s != nil {\nin, out := %s, %s\n", in, addr(in), addr(out))
		fmt.Fprintf(w, "*out = make(%s, len(*in))\n", name)
		elem := g.classify(s.elem, s.from).kind
		switch {
		case s.isMap && elem == plain:
			fmt.Fprintf(w, "for key, val := range *in {\n(*out)[key] = val\n}\n")
		case s.isMap:
			// Map values are not addressable: copy each into a variable.
			fmt.Fprintf(w, "for key, val := range *in {\noutVal := val\n")
			g.copyInto(w, "outVal", "val", s.elem, s.from, where)
			fmt.Fprintf(w, "(*out)[key] = outVal\n}\n")
		case elem == plain:
			fmt.Fprintf(w, "copy(*out, *in)\n")
		default:
			fmt.Fprintf(w, "for i := range *in {\n")
			g.copyInto(w, "(*out)[i]", "(*in)[i]", s.elem, s.from, where)
			fmt.Fprintf(w, "}\n")
		}
		fmt.Fprintf(w, "}\n")
	case unsupported:
		g.fail("%s: cannot deep-copy %s: %s", where, exprString(t), s.reason)
	}
}

// addr is &e, written without a &* pair: addr("*out") is "out" and
// addr("(*in.Spec)") is "in.Spec".
func addr(e string) string {
	if inner, ok := strings.CutPrefix(e, "(*"); ok && strings.HasSuffix(inner, ")") {
		return strings.TrimSuffix(inner, ")")
	}
	if rest, ok := strings.CutPrefix(e, "*"); ok && token.IsIdentifier(rest) {
		return rest
	}
	return "&" + e
}
