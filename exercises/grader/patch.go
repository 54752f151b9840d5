package grader

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FilePatch is the part of a unified diff that changes one file.
type FilePatch struct {
	// Path is the file, relative to the directory the diff was made in
	// (the module root), without git's a/ and b/ prefixes.
	Path  string
	Hunks []Hunk
}

// Hunk is one @@ block: OldStart is the 1-based line it starts at in the
// original, Lines keep their ' ', '-' or '+' prefix.
type Hunk struct {
	OldStart int
	Lines    []string
}

// ParsePatch splits a unified diff (git diff or diff -u) into the text
// before it and the changes per file. Only what a planted bug needs is
// understood: modified files, no renames, creations or binary changes.
func ParsePatch(text string) (header string, files []FilePatch, err error) {
	lines := strings.Split(text, "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "diff --git ") && !strings.HasPrefix(lines[i], "--- ") {
		i++
	}
	header = strings.Join(lines[:i], "\n")
	var cur *FilePatch
	for ; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "diff --git "), strings.HasPrefix(line, "index "):
		case strings.HasPrefix(line, "--- "):
			if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
				return "", nil, fmt.Errorf("line %d: %q is not followed by a +++ line", i+1, line)
			}
			oldPath, newPath := diffPath(line[4:]), diffPath(lines[i+1][4:])
			if oldPath != newPath || oldPath == "/dev/null" {
				return "", nil, fmt.Errorf("line %d: only changes to existing files are supported (%s → %s)", i+1, oldPath, newPath)
			}
			files = append(files, FilePatch{Path: oldPath})
			cur = &files[len(files)-1]
			i++
		case strings.HasPrefix(line, "@@ "):
			if cur == nil {
				return "", nil, fmt.Errorf("line %d: hunk before any file header", i+1)
			}
			start, err := hunkStart(line)
			if err != nil {
				return "", nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			cur.Hunks = append(cur.Hunks, Hunk{OldStart: start})
		case cur != nil && len(cur.Hunks) > 0 && line != "" && strings.ContainsRune(" -+", rune(line[0])):
			h := &cur.Hunks[len(cur.Hunks)-1]
			h.Lines = append(h.Lines, line)
		case strings.HasPrefix(line, `\ No newline at end of file`):
		case line == "" && i == len(lines)-1:
			// the newline that ends the file
		case line == "":
			// diff -u writes an empty context line as " ", but editors
			// strip trailing blanks: take it as context.
			if cur != nil && len(cur.Hunks) > 0 {
				h := &cur.Hunks[len(cur.Hunks)-1]
				h.Lines = append(h.Lines, " ")
			}
		default:
			return "", nil, fmt.Errorf("line %d: unexpected %q in a diff", i+1, line)
		}
	}
	if len(files) == 0 {
		return "", nil, fmt.Errorf("no diff found")
	}
	for _, f := range files {
		if len(f.Hunks) == 0 {
			return "", nil, fmt.Errorf("%s: no hunks", f.Path)
		}
	}
	return header, files, nil
}

// diffPath drops git's a/ or b/ prefix and any tab-separated timestamp.
func diffPath(p string) string {
	if i := strings.IndexByte(p, '\t'); i >= 0 {
		p = p[:i]
	}
	if strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") {
		p = p[2:]
	}
	return p
}

// hunkStart reads the old start line of "@@ -12,7 +12,6 @@ ...".
func hunkStart(line string) (int, error) {
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return 0, fmt.Errorf("malformed hunk header %q", line)
	}
	n, err := strconv.Atoi(strings.SplitN(f[1][1:], ",", 2)[0])
	if err != nil {
		return 0, fmt.Errorf("malformed hunk header %q", line)
	}
	return n, nil
}

// Apply applies the hunks to the file's content. Each hunk's old lines must
// appear exactly; the nearest occurrence to the line the hunk names is
// used, so a patch survives edits elsewhere in the file, as with patch's
// offsets, but never applies to text it was not made for (no fuzz).
func (fp FilePatch) Apply(content string) (string, error) {
	lines := strings.Split(content, "\n")
	offset := 0
	for n, h := range fp.Hunks {
		var old, new []string
		for _, l := range h.Lines {
			body := l[1:]
			switch l[0] {
			case ' ':
				old, new = append(old, body), append(new, body)
			case '-':
				old = append(old, body)
			case '+':
				new = append(new, body)
			}
		}
		at := findBlock(lines, old, h.OldStart-1+offset)
		if at < 0 {
			return "", fmt.Errorf("%s: hunk %d (line %d) does not apply: its lines are not in the file", fp.Path, n+1, h.OldStart)
		}
		lines = append(lines[:at], append(append([]string(nil), new...), lines[at+len(old):]...)...)
		offset = at + len(new) - (h.OldStart - 1)
	}
	return strings.Join(lines, "\n"), nil
}

// findBlock returns the index where block occurs in lines closest to want,
// or -1.
func findBlock(lines, block []string, want int) int {
	best := -1
	for at := 0; at+len(block) <= len(lines); at++ {
		if !equalAt(lines, block, at) {
			continue
		}
		if best < 0 || abs(at-want) < abs(best-want) {
			best = at
		}
	}
	return best
}

func equalAt(lines, block []string, at int) bool {
	for i, b := range block {
		if lines[at+i] != b {
			return false
		}
	}
	return true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Overlay writes the patched files of a bug under dir and returns the path
// of a go build -overlay file that substitutes them for the originals under
// moduleRoot. Nothing in the repository changes.
func (b Bug) Overlay(moduleRoot, dir string) (string, error) {
	replace, err := b.patchFiles(moduleRoot, dir)
	if err != nil {
		return "", err
	}
	return writeOverlay(dir, replace)
}

// patchFiles writes the patched files of b under dir and returns the
// overlay's replacements: original path to patched copy.
func (b Bug) patchFiles(moduleRoot, dir string) (map[string]string, error) {
	replace := map[string]string{}
	for i, fp := range b.Files {
		orig := filepath.Join(moduleRoot, filepath.FromSlash(fp.Path))
		content, err := os.ReadFile(orig)
		if err != nil {
			return nil, fmt.Errorf("bug %s: %w", b.Name, err)
		}
		patched, err := fp.Apply(string(content))
		if err != nil {
			return nil, fmt.Errorf("bug %s: %w", b.Name, err)
		}
		tmp := filepath.Join(dir, fmt.Sprintf("%d-%s", i, filepath.Base(orig)))
		if err := os.WriteFile(tmp, []byte(patched), 0o644); err != nil {
			return nil, err
		}
		replace[orig] = tmp
	}
	return replace, nil
}

func writeOverlay(dir string, replace map[string]string) (string, error) {
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "overlay.json")
	return p, os.WriteFile(p, data, 0o644)
}
