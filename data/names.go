package data

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxNameLen bounds the length in bytes of a name: a benchmark or variant
// name, a run id, a unit, a label key or value. 200 bytes holds the
// longest real names seen (Go sub-benchmark names with several key=value
// levels run to about 120) and keeps a table cell on a screen.
const MaxNameLen = 200

// CheckName checks a name where it enters qoscal (a result file, a CSV
// cell, a flag). Names reach plain text, Markdown and CI logs unescaped,
// and a line break in one could start a line of its own there (GitHub
// Actions runs a log line that starts with "::" as a workflow command), so
// a name must be valid UTF-8 without control characters (C0, DEL, C1: tab,
// CR, LF, ESC among them) and without Unicode line or paragraph separators
// (U+2028, U+2029), and at most MaxNameLen bytes long. kind says what the
// name is ("benchmark name", "run id", ...), for the message.
// Bidirectional controls (which reverse the rest of a log line) and
// zero-width characters (which make two names print alike) are refused
// too. An empty name passes: whether one may be empty is for the caller
// to say.
func CheckName(kind, s string) error {
	if len(s) > MaxNameLen {
		return fmt.Errorf("%s %q is %d bytes long: names are limited to %d bytes", kind, Clip(s), len(s), MaxNameLen)
	}
	if printableASCII(s) {
		return nil
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		var what string
		switch {
		case r == utf8.RuneError && size == 1:
			what = "a byte that is not UTF-8"
		case unicode.IsControl(r):
			what = fmt.Sprintf("the control character %U", r)
		case unicode.Is(unicode.Zl, r):
			what = fmt.Sprintf("the line separator %U", r)
		case unicode.Is(unicode.Zp, r):
			what = fmt.Sprintf("the paragraph separator %U", r)
		case unicode.Is(unicode.Bidi_Control, r):
			// U+202A–U+202E, U+2066–U+2069, U+061C, U+200E/F: they
			// reorder the rest of a CI log line or a Markdown paragraph.
			what = fmt.Sprintf("the bidirectional control %U", r)
		case r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF:
			// Invisible: two names that print alike would differ.
			what = fmt.Sprintf("the invisible character %U", r)
		default:
			i += size
			continue
		}
		return fmt.Errorf("%s %q holds %s at byte %d: names must be printable text on one line", kind, Clip(s), what, i)
	}
	return nil
}

// printableASCII reports whether s is printable ASCII (0x20 to 0x7E), as
// nearly every name is: such a name needs no rune-by-rune check.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7E {
			return false
		}
	}
	return true
}

// Clip shortens text read from an input (a name, a cell, a line) for an
// error message: its first 80 bytes, less a character that would be cut
// in two (a message quoting "日日\xe6" shows bytes, not the name), and
// "..." when there was more.
func Clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > max-utf8.UTFMax && cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
