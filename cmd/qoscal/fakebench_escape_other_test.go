//go:build !unix

package main

import "errors"

func escape(pidFile string) error { return errors.New("no setsid on this system") }
