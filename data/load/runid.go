package load

import "path/filepath"

// DefaultRunID names a run given no --run: the Actions run
// (GITHUB_RUN_ID, and GITHUB_RUN_ATTEMPT after a dash, as getenv gives
// them) under GitHub Actions, else name (the run folder's name, see
// SpecFolder).
func DefaultRunID(getenv func(string) string, name string) string {
	if id := getenv("GITHUB_RUN_ID"); id != "" {
		if a := getenv("GITHUB_RUN_ATTEMPT"); a != "" {
			return id + "-" + a
		}
		return id
	}
	return name
}

// SpecFolder names a run given by its files ("NAME=FILE" or "FILE", the
// candidate's) after the folder that holds the file; "run" when it has
// none (a file at the root, or a spec that does not parse).
func SpecFolder(spec string) string {
	s, err := ParseVariantSpec(spec)
	if err == nil {
		if abs, err := filepath.Abs(s.File); err == nil {
			if dir := filepath.Base(filepath.Dir(abs)); dir != "" && dir != "." && dir != string(filepath.Separator) {
				return dir
			}
		}
	}
	return "run"
}
