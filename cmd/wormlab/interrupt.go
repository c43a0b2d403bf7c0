package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// interruptContext returns a context that is cancelled on SIGINT (Ctrl-C) or SIGTERM,
// and the function that stops listening. Long commands run under it and, when it is
// cancelled, write what they have (the best schedule, the trials done, the points
// finished) before they exit.
func interruptContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
