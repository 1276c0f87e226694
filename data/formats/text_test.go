package formats

import (
	"slices"
	"testing"
)

// TestHeadLines: format detection sees the lines of a file's start split
// at CRLF, LF and a lone CR, without the empty ones, as the parsers do.
func TestHeadLines(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\r\nb\rc\n\nd\n", []string{"a", "b", "c", "d"}},
		{"\r\n\r\n x \r", []string{" x "}},
	} {
		var got []string
		headLines([]byte(tt.in), func(l []byte) bool { got = append(got, string(l)); return true })
		if !slices.Equal(got, tt.want) {
			t.Errorf("headLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	n := 0
	headLines([]byte("a\nb\nc"), func([]byte) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("headLines went on after fn returned false: %d calls", n)
	}
}
