package topology

import (
	"fmt"
	"os"

	"github.com/wormlab/wormlab/model"
)

// maxNetFileBytes bounds what the file: and anynet: kinds read (1 GiB, the most
// model reads of an instance): a network from /dev/zero or a pipe that never
// closes is refused once that much has come, not read until the process is killed.
const maxNetFileBytes = 1 << 30

// readNetFile reads the file at path whole, at most maxNetFileBytes; errors
// name the file.
func readNetFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := model.ReadWithin(f, maxNetFileBytes, "a network file")
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return data, nil
}
