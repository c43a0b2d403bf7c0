// Command wormlab makes the theory of wormhole routing executable: it generates
// instances, measures them, colours and solves them, runs online algorithms, builds
// lower-bound constructions, and verifies and draws schedules. See the README.
//
// Each subcommand lives in a file of its own and registers itself in init. Commands
// are thin: they parse flags, call a package, print, and map errors to exit codes.
//
// # Invariants
//
//   - Exit status 0 yes; 1 a negative answer (an illegal schedule, a failed claim, a
//     deadlock, an unsatisfiable horizon); 2 bad usage or bad input, with exactly one
//     line on stderr naming the flag, file, field, message or edge at fault.
//   - A negative answer also prints one line on stderr; help (-h) goes to stdout.
//   - One vocabulary (docs/cli.md): topology specs (mesh:4x4), --timeout for wall
//     time, --json for results, --max-memory for memory; old spellings still work
//     with a one-line deprecation notice (deprecated in util.go).
//   - Flags may follow positional arguments; "-" reads standard input.
//   - Output files are written whole or not at all (internal/atomicfile: a
//     temporary file renamed into place, mode 0666 less the umask), so a failure
//     never leaves half a schedule behind; output paths are checked before the
//     work starts (checkOutput).
//   - Long commands run under interruptContext: Ctrl-C or SIGTERM stops them within
//     a second with what they have.
//   - Every schedule a command writes comes from a package whose tests pass it
//     through verify.Schedule; solve --assignment verifies it before writing.
//
// # Cost
//
// A command costs what the package it calls costs (see each package's doc.go) plus
// reading and writing JSON, linear in the size of the files.
package main
