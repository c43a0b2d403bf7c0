//go:build !unix

package atomicfile

// Umask is the usual 022 where the system has none to read.
func Umask() int { return 0o022 }
