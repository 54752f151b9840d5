package runtime

import (
	"math"
	"path"
	"strconv"
	"strings"
	"time"
)

// exitPlan is how a fake container's process ends: after running for
// after, with code.
type exitPlan struct {
	after time.Duration
	code  int32
}

// maxSleep bounds what a script may sleep in total; beyond it (or beyond
// what a time.Duration holds) the container simply runs forever.
const maxSleep = 100 * 365 * 24 * time.Hour

// planFromCommand reads a container's argv (command, then args) as the
// fake runtime's tiny shell and says how the process ends. ok is false when
// argv is outside the subset: such a container runs until it is stopped,
// as every container of the fake did before it understood commands.
//
// The subset, documented for users in kubelet/doc.go:
//
//	argv:     sh -c SCRIPT [ARG0 ...]   (also bash, ash, dash; any directory)
//	          | COMMAND                 (a bare sleep, true or false)
//	SCRIPT:   LIST { (";" | newline) LIST } [";" | newline]
//	LIST:     COMMAND { "&&" COMMAND }
//	COMMAND:  sleep N... | exit [N] | true | false
//
// sleep's N is seconds, decimals allowed, optionally suffixed s, m, h or d
// (busybox and GNU sleep add several operands up). A script is understood
// only if every command in it is in the subset, even one that would never
// run. It runs as sh would: "&&" skips the rest of its list after a
// non-zero status, exit ends the script, and the script's code is the last
// command's status.
func planFromCommand(argv []string) (exitPlan, bool) {
	if len(argv) == 0 {
		return exitPlan{}, false
	}
	switch path.Base(argv[0]) {
	case "sh", "bash", "ash", "dash":
		if len(argv) < 3 || argv[1] != "-c" {
			return exitPlan{}, false
		}
		lists, ok := parseScript(argv[2])
		if !ok {
			return exitPlan{}, false
		}
		return runScript(lists)
	case "sleep", "true", "false":
		if !validCommand(argv) {
			return exitPlan{}, false
		}
		return runScript([][][]string{{argv}})
	}
	return exitPlan{}, false
}

// parseScript splits a script into lists of commands of words, checking
// that each command is in the subset. Quotes, variables, pipes, "||",
// redirections and every other shell feature make it fail.
func parseScript(script string) ([][][]string, bool) {
	var lists [][][]string
	var list [][]string
	var cmd []string
	word := -1 // start of the current word, or -1
	endWord := func(i int) {
		if word >= 0 {
			cmd = append(cmd, script[word:i])
			word = -1
		}
	}
	// endCommand closes the current command; an empty one is a syntax error.
	endCommand := func() bool {
		if len(cmd) == 0 || !validCommand(cmd) {
			return false
		}
		list, cmd = append(list, cmd), nil
		return true
	}
	for i := 0; i < len(script); i++ {
		switch c := script[i]; {
		case c == ' ' || c == '\t':
			endWord(i)
		case c == ';' || c == '\n':
			endWord(i)
			if len(cmd) == 0 && len(list) == 0 && c == '\n' {
				continue // blank lines are fine, stray semicolons are not
			}
			if !endCommand() {
				return nil, false
			}
			lists, list = append(lists, list), nil
		case c == '&' && i+1 < len(script) && script[i+1] == '&':
			endWord(i)
			if !endCommand() {
				return nil, false
			}
			i++
		case isWordByte(c):
			if word < 0 {
				word = i
			}
		default:
			return nil, false
		}
	}
	endWord(len(script))
	if len(cmd) > 0 {
		if !endCommand() {
			return nil, false
		}
	} else if len(list) > 0 {
		return nil, false // a dangling "&&"
	}
	if len(list) > 0 {
		lists = append(lists, list)
	}
	return lists, true
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '.' || c == '/' || c == '-' || c == '_'
}

func validCommand(cmd []string) bool {
	switch path.Base(cmd[0]) {
	case "true", "false":
		return len(cmd) == 1
	case "exit":
		if len(cmd) == 1 {
			return true
		}
		_, ok := exitCode(cmd[1])
		return len(cmd) == 2 && ok
	case "sleep":
		_, ok := sleepDuration(cmd[1:])
		return ok
	}
	return false
}

// runScript runs parsed lists: the time spent sleeping is the process's
// run time, the status when it stops its exit code.
func runScript(lists [][][]string) (exitPlan, bool) {
	var elapsed time.Duration
	var status int32
	for _, list := range lists {
		for _, cmd := range list {
			switch path.Base(cmd[0]) {
			case "true":
				status = 0
			case "false":
				status = 1
			case "exit":
				if len(cmd) == 2 {
					status, _ = exitCode(cmd[1])
				}
				return exitPlan{after: elapsed, code: status}, true
			case "sleep":
				d, ok := sleepDuration(cmd[1:])
				if !ok || d > maxSleep-elapsed {
					return exitPlan{}, false
				}
				elapsed += d
				status = 0
			default:
				return exitPlan{}, false
			}
			if status != 0 {
				break // "&&": the rest of this list is skipped
			}
		}
	}
	return exitPlan{after: elapsed, code: status}, true
}

// exitCode parses exit's operand; like sh, only its low 8 bits survive.
func exitCode(s string) (int32, bool) {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n % 256), true
}

// sleepDuration adds up sleep's operands ("2", "0.5", "1m").
func sleepDuration(args []string) (time.Duration, bool) {
	if len(args) == 0 {
		return 0, false
	}
	var total time.Duration
	for _, a := range args {
		unit := time.Second
		switch {
		case strings.HasSuffix(a, "s"):
			a = a[:len(a)-1]
		case strings.HasSuffix(a, "m"):
			a, unit = a[:len(a)-1], time.Minute
		case strings.HasSuffix(a, "h"):
			a, unit = a[:len(a)-1], time.Hour
		case strings.HasSuffix(a, "d"):
			a, unit = a[:len(a)-1], 24*time.Hour
		}
		// Only plain decimals: ParseFloat alone would also take "inf",
		// "1e3" and hexadecimal.
		if a == "" || strings.Trim(a, "0123456789.") != "" || strings.Count(a, ".") > 1 || a == "." {
			return 0, false
		}
		f, err := strconv.ParseFloat(a, 64)
		if err != nil || f*float64(unit) > float64(maxSleep) || math.IsNaN(f) {
			return 0, false
		}
		total += time.Duration(f * float64(unit))
		if total > maxSleep {
			return 0, false
		}
	}
	return total, true
}
