package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("dir", ".", "the directory of the package to generate for")
	output := flag.String("o", "zz_generated.deepcopy.go", "the output file's name, inside -dir")
	flag.Parse()
	src, err := generate(*dir, *output)
	if err != nil {
		fmt.Fprintf(os.Stderr, "deepcopy-gen: %s\n", err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(*dir, *output), src, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "deepcopy-gen: %s\n", err)
		os.Exit(1)
	}
}
