package main

import "strings"

// description turns the lines of a doc comment (comment markers already
// removed) into the text an OpenAPI description carries. The rules are
// kube-openapi's, so a description reads as it does from a real cluster:
//   - a line "---" ends the description (what follows is for Go readers);
//   - marker lines ("+optional") and one-line TODOs are not prose: dropped;
//   - consecutive lines are one paragraph, joined by single spaces;
//   - an empty line separates paragraphs ("\n\n");
//   - an indented line (a code sample) stands on a line of its own.
func description(lines []string) string {
	var out []byte
	// dropSeparator removes the space or newline the previous line left for
	// a successor that turned out to need a different one.
	dropSeparator := func() {
		if len(out) > 0 {
			out = out[:len(out)-1]
		}
	}
	for _, line := range lines {
		if line == "---" {
			break
		}
		line = strings.TrimRight(line, " \t")
		text := strings.TrimLeft(line, " \t")
		switch {
		case line == "":
			dropSeparator()
			out = append(out, "\n\n"...)
		case strings.HasPrefix(text, "+"), strings.HasPrefix(text, "TODO"):
		case text != line:
			dropSeparator()
			out = append(out, "\n"+line+"\n"...)
		default:
			out = append(out, line+" "...)
		}
	}
	return strings.TrimSpace(string(out))
}
