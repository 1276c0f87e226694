package measure

import (
	"runtime"
	"strings"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/load"
)

// Fingerprint describes the machine: the processor's model and the
// logical processors qoscal may use, the system and its kernel, and under
// GitHub Actions the runner's image ($ImageOS, $ImageVersion; the
// runner's name, $RUNNER_NAME, is qoscal.json's runner_name). What the
// system does not tell is left empty. getenv reads the environment.
func Fingerprint(getenv func(string) string) *load.Environment {
	e := &load.Environment{
		CPUs:         runtime.NumCPU(),
		OS:           runtime.GOOS,
		Arch:         runtime.GOARCH,
		ImageOS:      oneLine(getenv("ImageOS")),
		ImageVersion: oneLine(getenv("ImageVersion")),
	}
	e.CPUModel, e.Kernel = systemInfo(getenv)
	e.CPUModel, e.Kernel = oneLine(e.CPUModel), oneLine(e.Kernel)
	return e
}

// oneLine keeps the printable part of the first line of s: what the
// system says goes into qoscal.json as a name (data.CheckName).
func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if data.CheckName("x", s) != nil {
		return ""
	}
	return s
}
