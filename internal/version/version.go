// Package version says which qoscal this is: the release's tag, set when
// the release is built, or, off a release, 0.0.0-dev and the commit the
// binary was built from, which Go records in the binary (debug.ReadBuildInfo).
// The command prints it (qoscal --version), and the files qoscal writes
// record it, so that a file names the qoscal that wrote it.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// tag and commit are set by the release build (scripts/release.sh):
//
//	go build -ldflags "-X github.com/qoscal/qoscal/internal/version.tag=v1.2.3
//	  -X github.com/qoscal/qoscal/internal/version.commit=COMMIT"
//
// Empty in any other build.
var tag, commit string

// Info is what a binary knows of its version.
type Info struct {
	// Version is the release's tag (v1.2.3), the module's version when
	// built by 'go install github.com/qoscal/qoscal/cmd/qoscal@v1.2.3', or
	// 0.0.0-dev+COMMIT (the first 12 hexadecimal digits of the commit,
	// .dirty after them when the checkout had changes), or 0.0.0-dev when
	// the commit is not known (a test binary).
	Version string
	// Commit is the full commit hash, "" when not known.
	Commit string
	// Go is the Go that built the binary (go1.26.8).
	Go string
}

// Get returns the running binary's version.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return resolve(tag, commit, bi)
}

// String is Get().Version: what a file records as the qoscal that
// wrote it.
func String() string { return Get().Version }

// resolve computes Info from the values the linker set and the build
// information (nil when the binary has none).
func resolve(tag, commit string, bi *debug.BuildInfo) Info {
	in := Info{Version: tag, Commit: commit, Go: runtime.Version()}
	var modified bool
	if bi != nil {
		if bi.GoVersion != "" {
			in.Go = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if in.Commit == "" {
					in.Commit = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if in.Version != "" {
		return in
	}
	// go install PATH@v1.2.3 records the module's version; a build in a
	// checkout records (since Go 1.24) a pseudo-version off a tag, which
	// names no release: only a plain vX.Y.Z is taken.
	if bi != nil && release(bi.Main.Version) {
		in.Version = bi.Main.Version
		return in
	}
	in.Version = "0.0.0-dev"
	if in.Commit != "" {
		c := in.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		in.Version += "+" + c
		if modified {
			in.Version += ".dirty"
		}
	}
	return in
}

// release reports whether v is a release's version, vMAJOR.MINOR.PATCH
// and nothing after it (no pre-release, no build metadata).
func release(v string) bool {
	parts := strings.Split(strings.TrimPrefix(v, "v"), ".")
	if !strings.HasPrefix(v, "v") || len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" || (len(p) > 1 && p[0] == '0') {
			return false
		}
	}
	return true
}
