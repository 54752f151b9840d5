package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("dir", ".", "the package directory whose doc comments to read")
	out := flag.String("out", "zz_generated.descriptions.go", "the file to write, relative to -dir unless absolute")
	pkg := flag.String("package", "api", "the package clause of the generated file")
	flag.Parse()
	if err := run(*dir, *out, *pkg); err != nil {
		fmt.Fprintln(os.Stderr, "openapi-gen:", err)
		os.Exit(1)
	}
}

func run(dir, out, pkg string) error {
	docs, err := parseDir(dir)
	if err != nil {
		return err
	}
	src, err := render(pkg, docs)
	if err != nil {
		return err
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(dir, out)
	}
	return os.WriteFile(out, src, 0o644)
}
