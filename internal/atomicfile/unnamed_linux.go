package atomicfile

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// oTmpfile is open's O_TMPFILE: __O_TMPFILE with O_DIRECTORY, whose value
// differs between architectures (the syscall package has no O_TMPFILE).
const oTmpfile = 0o20000000 | syscall.O_DIRECTORY

// atFdcwd and atSymlinkFollow are linkat's AT_FDCWD and AT_SYMLINK_FOLLOW.
const (
	atFdcwd         = -100
	atSymlinkFollow = 0x400
)

// openUnnamed opens a file in dir that has no name (O_TMPFILE, Linux 3.11, on
// ext4, xfs, btrfs, tmpfs): the kernel frees it if the process dies before
// linkUnnamed names it. ok is false where the file system cannot.
func openUnnamed(dir string) (f *os.File, ok bool) {
	f, err := os.OpenFile(dir, oTmpfile|os.O_WRONLY, 0o600)
	return f, err == nil
}

// linkUnnamed gives the unnamed file f the name name, failing if it exists
// (linkat of /proc/self/fd/N with AT_SYMLINK_FOLLOW, as open(2) describes).
func linkUnnamed(f *os.File, name string) error {
	from, err := syscall.BytePtrFromString(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
	if err != nil {
		return err
	}
	to, err := syscall.BytePtrFromString(name)
	if err != nil {
		return err
	}
	cwd := atFdcwd
	_, _, errno := syscall.Syscall6(syscall.SYS_LINKAT, uintptr(cwd), uintptr(unsafe.Pointer(from)),
		uintptr(cwd), uintptr(unsafe.Pointer(to)), atSymlinkFollow, 0)
	if errno != 0 {
		return &os.LinkError{Op: "link", Old: "(unnamed)", New: name, Err: errno}
	}
	return nil
}
