// Command kubectl-lite is a small kubectl for reading (package
// kubeloop/kubectl-lite/cmd): go run ./kubectl-lite get pods -A
package main

import (
	"context"
	"os"
	"os/signal"

	"kubeloop/kubectl-lite/cmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cmd.Run(ctx, os.Args[1:], cmd.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
	stop()
	os.Exit(code)
}
