package version

import (
	"runtime/debug"
	"testing"
)

func TestResolve(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	vcs := func(mainVersion string, modified bool) *debug.BuildInfo {
		m := "false"
		if modified {
			m = "true"
		}
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/qoscal/qoscal", Version: mainVersion},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: m}}}
	}
	for _, c := range []struct {
		reason      string
		tag, commit string
		bi          *debug.BuildInfo
		want        Info
	}{
		{"a release build: the tag and commit set by the linker win", "v1.2.3", "feedface", vcs("(devel)", false),
			Info{"v1.2.3", "feedface", "go1.26.8"}},
		{"a release build without a commit set: the one Go recorded", "v1.2.3", "", vcs("(devel)", false),
			Info{"v1.2.3", rev, "go1.26.8"}},
		{"go install @v1.2.3: the module's version", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}},
			Info{"v1.2.3", "", "go1.26.8"}},
		{"a build off a tag: a pseudo-version names no release", "", "", vcs("v0.1.1-0.20261207195300-0123456789ab", false),
			Info{"0.0.0-dev+0123456789ab", rev, "go1.26.8"}},
		{"a build in a checkout with changes", "", "", vcs("(devel)", true),
			Info{"0.0.0-dev+0123456789ab.dirty", rev, "go1.26.8"}},
		{"a dirty build at a tag is no release", "", "", vcs("v1.2.3+dirty", true),
			Info{"0.0.0-dev+0123456789ab.dirty", rev, "go1.26.8"}},
		{"no build information (a test binary)", "", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			Info{"0.0.0-dev", "", "go1.26.8"}},
	} {
		if got := resolve(c.tag, c.commit, c.bi); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.reason, got, c.want)
		}
	}
	if got := resolve("", "", nil); got.Version != "0.0.0-dev" || got.Go == "" {
		t.Errorf("no build information at all: got %+v", got)
	}
}

func TestRelease(t *testing.T) {
	for v, want := range map[string]bool{
		"v1.2.3": true, "v0.1.0": true, "v10.20.30": true,
		"1.2.3": false, "v1.2": false, "v1.2.3-rc.1": false, "v1.2.3+dirty": false, "v01.2.3": false,
		"(devel)": false, "": false, "v1..3": false,
	} {
		if got := release(v); got != want {
			t.Errorf("release(%q) = %v, want %v", v, got, want)
		}
	}
}
