// Command grade runs the graders of kubeloop's exercises and prints a score
// table: for each exercise, how many of its grader's tests pass. It is what
// `make grade` runs.
//
//	go run ./exercises/grade                 # every exercise, the student's code
//	go run ./exercises/grade -ex 4           # one exercise (also -ex 04-workqueue, -ex "4 5")
//	go run ./exercises/grade -format json    # for autograders
//	go run ./exercises/grade -tags solution  # the references (instructors)
//	go run ./exercises/grade -ex 4 -bug done-forgets-dirty   # a planted bug
//	go run ./exercises/grade -ex 4 -v        # with the failing tests' output
//
// The exit status is 0 when every exercise could be graded, whatever the
// score; 2 when grading itself failed (no go command, a bad flag).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"kubeloop/exercises/grader"
)

func main() {
	ex := flag.String("ex", "", "exercises to grade: numbers, directories or names, separated by spaces or commas (default all)")
	format := flag.String("format", "table", "output: table or json")
	tags := flag.String("tags", "exercise", `build tag to grade: "exercise" (your code) or "solution" (the reference)`)
	bug := flag.String("bug", "", "grade the reference with this planted bug (bugs/NAME.patch) applied; needs one -ex")
	parallel := flag.Int("p", 2, "graders run at once")
	race := flag.Bool("race", false, "run the graders with -race")
	timeout := flag.Duration("timeout", 3*time.Minute, "go test -timeout of each grader")
	verbose := flag.Bool("v", false, "print the output of the tests that do not pass")
	flag.Parse()
	if err := run(*ex, *format, *tags, *bug, *parallel, *race, *timeout, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "grade:", err)
		os.Exit(2)
	}
}

func run(selection, format, tags, bugName string, parallel int, race bool, timeout time.Duration, verbose bool) error {
	if format != "table" && format != "json" {
		return fmt.Errorf("-format %q: want table or json", format)
	}
	root, err := grader.ModuleRoot(".")
	if err != nil {
		return err
	}
	goBin, err := grader.GoCommand()
	if err != nil {
		return err
	}
	all, err := grader.Discover(root + "/exercises")
	if err != nil {
		return err
	}
	exs, err := grader.Select(all, selection)
	if err != nil {
		return err
	}
	variant := grader.Variant{Tags: tags}
	if bugName != "" {
		if len(exs) != 1 {
			return fmt.Errorf("-bug needs exactly one exercise (-ex)")
		}
		b, ok := exs[0].Bug(bugName)
		if !ok {
			var names []string
			for _, b := range exs[0].Bugs {
				names = append(names, b.Name)
			}
			return fmt.Errorf("%s has no planted bug %q (has %v)", exs[0].Dir, bugName, names)
		}
		variant = grader.WithBug(b)
	}
	var jobs []grader.Job
	for _, ex := range exs {
		jobs = append(jobs, grader.Job{Exercise: ex, Variant: variant})
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rn := grader.Runner{Go: goBin, ModuleRoot: root, Race: race, Timeout: timeout}
	if format == "table" {
		fmt.Fprintf(os.Stderr, "grading %d exercise(s) with -tags %s ...\n", len(jobs), variant.Tags)
	}
	results, errs := rn.RunAll(ctx, jobs, parallel, func(r grader.Result, err error) {
		if format == "table" && err == nil {
			fmt.Fprintf(os.Stderr, "  %s: %d/%d\n", r.Exercise.Dir, r.Passed, r.Total())
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	if format == "json" {
		return grader.WriteJSON(os.Stdout, results)
	}
	fmt.Println()
	return grader.WriteTable(os.Stdout, results, verbose)
}
