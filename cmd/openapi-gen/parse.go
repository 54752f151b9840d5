package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// typeDoc is what the table records for one Go type: its own description
// and its fields' descriptions in declaration order. Types and fields
// without a comment are left out.
type typeDoc struct {
	name        string
	description string
	fields      []fieldDoc
}

type fieldDoc struct {
	name        string // the Go field name; an embedded field's type name
	description string
}

// parseDir reads the doc comments of every exported type of the package in
// dir, sorted by type name. Test files and generated files (zz_generated.*,
// this tool's own output among them) are skipped.
func parseDir(dir string) ([]typeDoc, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var docs []typeDoc
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "zz_generated.") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		docs = append(docs, fileDocs(f)...)
	}
	sort.Slice(docs, func(i, j int) bool { return docs[i].name < docs[j].name })
	for i := 1; i < len(docs); i++ {
		if docs[i].name == docs[i-1].name {
			return nil, fmt.Errorf("type %s declared twice", docs[i].name)
		}
	}
	return docs, nil
}

// fileDocs collects the exported type declarations of one file.
func fileDocs(f *ast.File) []typeDoc {
	var docs []typeDoc
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if !ts.Name.IsExported() {
				continue
			}
			// A lone "type X ..." carries its comment on the declaration;
			// inside "type ( ... )" each spec has its own.
			comment := ts.Doc
			if comment == nil && !gd.Lparen.IsValid() {
				comment = gd.Doc
			}
			d := typeDoc{name: ts.Name.Name, description: commentText(comment)}
			if st, ok := ts.Type.(*ast.StructType); ok {
				d.fields = structFieldDocs(st)
			}
			if d.description != "" || len(d.fields) > 0 {
				docs = append(docs, d)
			}
		}
	}
	return docs
}

func structFieldDocs(st *ast.StructType) []fieldDoc {
	var fields []fieldDoc
	for _, f := range st.Fields.List {
		text := commentText(f.Doc)
		if text == "" {
			continue
		}
		names := f.Names
		if len(names) == 0 { // embedded: reflect names the field after its type
			names = []*ast.Ident{embeddedName(f.Type)}
		}
		for _, n := range names {
			if n != nil && n.IsExported() {
				fields = append(fields, fieldDoc{name: n.Name, description: text})
			}
		}
	}
	return fields
}

// embeddedName is the field name Go gives an embedded type: T, *T, pkg.T
// and T[A] are all named T.
func embeddedName(e ast.Expr) *ast.Ident {
	switch t := e.(type) {
	case *ast.Ident:
		return t
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.IndexExpr:
		return embeddedName(t.X)
	case *ast.IndexListExpr:
		return embeddedName(t.X)
	}
	return nil
}

// commentText is the description of a comment group: its lines without
// the comment markers, cleaned up by description.
func commentText(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	return description(strings.Split(g.Text(), "\n"))
}
