// Command archive writes one release archive (internal/archive), for
// scripts/release.sh:
//
//	go run ./scripts/archive -time UNIX-SECONDS -o OUT.tar.gz|OUT.zip -x BINARY FILE...
//
// -x names the executable; each file goes into the archive under its base
// name, in the order given.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/qoscal/qoscal/internal/archive"
)

func main() {
	out := flag.String("o", "", "the archive to write, .tar.gz or .zip")
	exe := flag.String("x", "", "the executable")
	unix := flag.Int64("time", -1, "the time of every entry, in seconds since 1970 (the commit's)")
	flag.Parse()
	if *out == "" || *exe == "" || *unix < 0 {
		fmt.Fprintln(os.Stderr, "usage: archive -time UNIX-SECONDS -o OUT.tar.gz|OUT.zip -x BINARY FILE...")
		os.Exit(2)
	}
	files := []archive.File{{Name: filepath.Base(*exe), Path: *exe, Executable: true}}
	for _, f := range flag.Args() {
		files = append(files, archive.File{Name: filepath.Base(f), Path: f})
	}
	if err := archive.Write(*out, files, time.Unix(*unix, 0)); err != nil {
		fmt.Fprintln(os.Stderr, "archive:", err)
		os.Exit(1)
	}
}
