//go:build !linux

package model

import "io"

// mapText maps nothing off Linux: the caller reads the text (readAll).
func mapText(r io.Reader) (text []byte, unmap func(), ok bool) { return nil, nil, false }
