package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

func TestZZProf(t *testing.T) {
	a := os.Getenv("PROF_ARGS")
	if a == "" {
		t.Skip()
	}
	for i := 0; i < 10; i++ {
		run(strings.Fields(strings.ReplaceAll(a, "{i}", fmt.Sprint(i))), strings.NewReader(""), io.Discard, io.Discard)
	}
}
