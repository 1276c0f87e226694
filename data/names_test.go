package data

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckName(t *testing.T) {
	const tail = ": names must be printable text on one line"
	long := strings.Repeat("x", 201)
	tests := []struct {
		name, input, want, reason string
	}{
		{"plain", "BenchmarkJoin/parts=16-8", "", ""},
		{"unicode letters", "BM_ünïcode/64", "", ""},
		{"a literal U+FFFD is a character", "a\ufffdb", "", ""},
		{"starts with ::", "::warning::x", "", "the output side neutralises these; the data layer takes them"},
		{"200 bytes", strings.Repeat("x", 200), "", "the limit itself"},
		{"201 bytes", long, `benchmark name "` + long[:80] + `..." is 201 bytes long: names are limited to 200 bytes`, ""},
		{"LF", "a\nb", `benchmark name "a\nb" holds the control character U+000A at byte 1` + tail, ""},
		{"CR", "a\r::error::x", `benchmark name "a\r::error::x" holds the control character U+000D at byte 1` + tail, "a CR then :: would start a workflow command"},
		{"tab", "\tx", `benchmark name "\tx" holds the control character U+0009 at byte 0` + tail, ""},
		{"ESC", "a\x1b[31m", `benchmark name "a\x1b[31m" holds the control character U+001B at byte 1` + tail, ""},
		{"DEL", "a\x7f", `benchmark name "a\x7f" holds the control character U+007F at byte 1` + tail, ""},
		{"C1 NEL", "a\u0085b", `benchmark name "a\u0085b" holds the control character U+0085 at byte 1` + tail, ""},
		{"line separator", "a\u2028b", `benchmark name "a\u2028b" holds the line separator U+2028 at byte 1` + tail, ""},
		{"paragraph separator", "a\u2029b", `benchmark name "a\u2029b" holds the paragraph separator U+2029 at byte 1` + tail, ""},
		{"not UTF-8", "a\xffb", `benchmark name "a\xffb" holds a byte that is not UTF-8 at byte 1` + tail, ""},
		{"right-to-left override", "a\u202eb", `benchmark name "a\u202eb" holds the bidirectional control U+202E at byte 1` + tail, "reverses the rest of a log line"},
		{"isolate", "a\u2067b", `benchmark name "a\u2067b" holds the bidirectional control U+2067 at byte 1` + tail, ""},
		{"zero-width space", "a\u200bb", `benchmark name "a\u200bb" holds the invisible character U+200B at byte 1` + tail, "prints like ab"},
		{"BOM inside", "a\ufeffb", `benchmark name "a\ufeffb" holds the invisible character U+FEFF at byte 1` + tail, ""},
	}
	for _, tt := range tests {
		err := CheckName("benchmark name", tt.input)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s (%s): CheckName(%q)\n got %q\nwant %q", tt.name, tt.reason, tt.input, got, tt.want)
		}
	}
}

// TestClipWholeRunes: a long name is cut before a character that would
// be split in two, so that a message quotes whole characters (a
// reviewer's 301-byte name of 日 printed "日…日\xe6..."); ASCII is cut at
// 80 bytes, and invalid UTF-8 as it comes.
func TestClipWholeRunes(t *testing.T) {
	cjk := "x" + strings.Repeat("日", 100)
	got := Clip(cjk)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "...") || len(got) > 83 || len(got) < 78 {
		t.Errorf("Clip of a long CJK name = %q (%d bytes): want whole characters, at most 80 bytes and ...", got, len(got))
	}
	if got := Clip(strings.Repeat("a", 100)); got != strings.Repeat("a", 80)+"..." {
		t.Errorf("Clip of 100 a's = %q", got)
	}
	if got := Clip(strings.Repeat("\xff", 100)); got != strings.Repeat("\xff", 80)+"..." {
		t.Errorf("Clip of invalid bytes = %q", got)
	}
	if Clip("short") != "short" {
		t.Error("Clip changed a short name")
	}
}
