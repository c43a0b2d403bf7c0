package model

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestModelDocIsCurrent checks that docs/MODEL.md, the copy of the binding model page
// shipped with the repository, is the page the project is built against (the shared
// MODEL.md next to the repository, when it is there).
func TestModelDocIsCurrent(t *testing.T) {
	binding, err := os.ReadFile("../../shared/MODEL.md")
	if err != nil {
		t.Skip("no shared/MODEL.md beside the repository")
	}
	copied, err := os.ReadFile("../docs/MODEL.md")
	require.NoError(t, err)
	require.Equal(t, string(binding), string(copied), "docs/MODEL.md differs from shared/MODEL.md: copy it again")
}
