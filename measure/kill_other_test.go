//go:build !unix

package measure

import "testing"

func checkKilled(t *testing.T, pidFile string) {}
