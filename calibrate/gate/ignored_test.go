package gate

import (
	"slices"
	"testing"
)

func TestNoteIgnored(t *testing.T) {
	res := &GateResult{Ignored: []string{"malloc"}}
	unknown := res.NoteIgnored([]string{"xmalloc", "malloc", "nosuch", "xmalloc", "nosuch"}, []string{"xmalloc", "other"})
	if !slices.Equal(res.Ignored, []string{"malloc", "xmalloc"}) {
		t.Errorf("Ignored %v, want malloc and xmalloc (skipped and named), sorted", res.Ignored)
	}
	if !slices.Equal(unknown, []string{"nosuch"}) {
		t.Errorf("unknown %v, want nosuch once", unknown)
	}
}
