package store

import (
	"errors"
	"iter"
	"sync/atomic"
	"testing"
)

// count yields 0, 1, … n-1, then err (if any), and counts the items it has
// been asked for in asked.
func count(n int, err error, asked *atomic.Int64) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		for i := range n {
			asked.Add(1)
			if !yield(i, nil) {
				return
			}
		}
		if err != nil {
			yield(0, err)
		}
	}
}

// TestPrefetchOrder: every item comes through, in order, then the error,
// then the end; stop after the end returns.
func TestPrefetchOrder(t *testing.T) {
	var asked atomic.Int64
	boom := errors.New("boom")
	next, stop := Prefetch(count(1000, boom, &asked), 8)
	defer stop()
	for want := range 1000 {
		v, err, ok := next()
		if !ok || err != nil || v != want {
			t.Fatalf("item %d: %d, %v, %v", want, v, err, ok)
		}
	}
	if _, err, ok := next(); !ok || err != boom {
		t.Fatalf("after the items: %v, %v; want the error", err, ok)
	}
	if _, _, ok := next(); ok {
		t.Fatal("an item after the end")
	}
}

// TestPrefetchStop: stop ends the reading early; once it returns, seq has
// returned (asked no longer grows), and it reads at most depth items (and
// the one being handed on) beyond what was taken.
func TestPrefetchStop(t *testing.T) {
	var asked atomic.Int64
	next, stop := Prefetch(count(1_000_000, nil, &asked), 4)
	for range 10 {
		next()
	}
	stop()
	stop() // a second stop is harmless
	n := asked.Load()
	if n < 10 || n > 10+4+2 {
		t.Errorf("seq was asked for %d items, want 10 to 16", n)
	}
	if asked.Load() != n {
		t.Error("seq went on after stop returned")
	}
}

// TestPrefetchPanic: a panic in seq reaches the caller of next.
func TestPrefetchPanic(t *testing.T) {
	seq := func(yield func(int, error) bool) {
		yield(1, nil)
		panic("parser bug")
	}
	next, stop := Prefetch(iter.Seq2[int, error](seq), 2)
	defer stop()
	if v, _, ok := next(); !ok || v != 1 {
		t.Fatalf("first item %d, %v", v, ok)
	}
	defer func() {
		if p := recover(); p != "parser bug" {
			t.Errorf("recovered %v, want the panic of seq", p)
		}
	}()
	next()
	t.Error("next returned after seq panicked")
}
