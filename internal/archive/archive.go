// Package archive writes the release archives (scripts/release.sh):
// a .tar.gz or a .zip of a few files, byte for byte the same for the same
// files and time on any machine. Every entry has the one time given (the
// release commit's), a fixed mode (0755 for the executable, 0644 for the
// rest), no owner, and the order the files are given in; the gzip header
// has no name and no time. GNU tar can do the same with --mtime, --sort,
// --owner=0 --group=0 --numeric-owner and gzip -n, but zip cannot set the
// times of its entries, and the macOS and Windows tools differ again:
// one Go program makes both formats the same way everywhere.
package archive

import (
	"archive/tar"
	"archive/zip"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// File is one file of an archive: its name in the archive (no folder),
// where it is read from, and whether it is executable.
type File struct {
	Name       string
	Path       string
	Executable bool
}

// Write writes the archive of files to out: a .zip when out ends in .zip,
// else a .tar.gz (out must end in .tar.gz). The file is written aside
// and renamed into place.
func Write(out string, files []File, mtime time.Time) error {
	return WriteLevel(out, files, mtime, flate.BestCompression)
}

// WriteLevel is Write at another compression level (compress/flate's):
// a test's archive made fast, flate.BestSpeed. A release is Write's.
func WriteLevel(out string, files []File, mtime time.Time, level int) error {
	zipped := strings.HasSuffix(out, ".zip")
	if !zipped && !strings.HasSuffix(out, ".tar.gz") {
		return fmt.Errorf("%s: an archive's name ends in .tar.gz or .zip", out)
	}
	for _, f := range files {
		if f.Name == "" || strings.ContainsAny(f.Name, `/\`) || f.Name == "." || f.Name == ".." {
			return fmt.Errorf("%q: an archive's entry is a plain file name", f.Name)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".archive-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if zipped {
		err = writeZip(tmp, files, mtime.UTC(), level)
	} else {
		err = writeTarGz(tmp, files, mtime.UTC(), level)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", out, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}

func mode(f File) int64 {
	if f.Executable {
		return 0o755
	}
	return 0o644
}

func writeTarGz(w io.Writer, files []File, mtime time.Time, level int) error {
	gz, err := gzip.NewWriterLevel(w, level)
	if err != nil {
		return err
	}
	// No name, no time, a fixed OS byte (gzip -n): the header says
	// nothing of the machine.
	gz.Header = gzip.Header{OS: 255}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		b, err := os.ReadFile(f.Path)
		if err != nil {
			return err
		}
		// USTAR: whole seconds and no access or change times, owner 0.
		h := &tar.Header{Typeflag: tar.TypeReg, Name: f.Name, Mode: mode(f), Size: int64(len(b)),
			ModTime: mtime.Truncate(time.Second), Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(b); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, files []File, mtime time.Time, level int) error {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, level)
	})
	for _, f := range files {
		b, err := os.ReadFile(f.Path)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: mtime.Truncate(time.Second)}
		h.SetMode(os.FileMode(mode(f)))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(b); err != nil {
			return err
		}
	}
	return zw.Close()
}
