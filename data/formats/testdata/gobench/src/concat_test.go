package fixture

import (
	"os"
	"strings"
	"testing"
)

// join builds a string of n parts, with + (QOSCAL_FIXTURE_IMPL=plus) or a
// strings.Builder (any other value): two configurations of one suite.
func join(n int) string {
	if os.Getenv("QOSCAL_FIXTURE_IMPL") == "plus" {
		s := ""
		for i := 0; i < n; i++ {
			s += "ab"
		}
		return s
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("ab")
	}
	return b.String()
}

func BenchmarkJoin(b *testing.B) {
	for _, n := range []int{16, 256} {
		b.Run("parts="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = join(n)
			}
		})
	}
}

func BenchmarkUpper(b *testing.B) {
	s := strings.Repeat("qoscal ", 64)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = strings.ToUpper(s)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
