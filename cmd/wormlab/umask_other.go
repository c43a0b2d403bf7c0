//go:build !unix

package main

// umask is the usual 022 where the system has none to read.
func umask() int { return 0o022 }
