package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Encoding names the text encoding of an input file, as detected by
// NewTextReader.
type Encoding string

const (
	EncUTF8       Encoding = "utf-8"
	EncUTF8BOM    Encoding = "utf-8 with BOM"
	EncUTF16LEBOM Encoding = "utf-16le with BOM"
	EncUTF16BEBOM Encoding = "utf-16be with BOM"
	EncUTF16LE    Encoding = "utf-16le without BOM"
	EncUTF16BE    Encoding = "utf-16be without BOM"
)

// sniffLen is how many leading bytes decide the encoding and the format.
const sniffLen = 4096

// TextReader yields the text of a result file as UTF-8, whatever encoding it
// was written in: UTF-8 with or without a byte-order mark, UTF-16 LE or BE
// with a BOM, or UTF-16 without a BOM (PowerShell's Tee-Object and `>` write
// UTF-16LE; it is recognised by NUL bytes in every other position). The
// decoding itself is golang.org/x/text's. It streams: memory use does not
// grow with the file.
type TextReader struct {
	Encoding Encoding
	r        *bufio.Reader
	count    *countingReader
	utf16    bool
	file     string
}

// NewTextReader detects the encoding of raw and returns a reader of its
// text. It fails for an empty input and for binary data.
func NewTextReader(file string, raw io.Reader) (*TextReader, error) {
	cr := &countingReader{r: raw}
	br := bufio.NewReaderSize(cr, 64<<10)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	if len(head) == 0 {
		return nil, &SyntaxError{File: file, Msg: "empty file: expected benchmark results"}
	}
	enc, dec := detectEncoding(head)
	t := &TextReader{Encoding: enc, count: cr, file: file}
	switch enc {
	case EncUTF16LE, EncUTF16BE, EncUTF16LEBOM, EncUTF16BEBOM:
		t.utf16 = true
	}
	if !t.utf16 {
		if off := binaryOffset(head); off >= 0 {
			return nil, &SyntaxError{File: file, Msg: fmt.Sprintf("binary data at byte %d: not a text result file", off)}
		}
	}
	var rd io.Reader = br
	if dec != nil {
		rd = transform.NewReader(br, dec)
	}
	t.r = bufio.NewReaderSize(&oddCheck{t: t, r: rd}, 64<<10)
	return t, nil
}

// Read reads decoded UTF-8 text.
func (t *TextReader) Read(p []byte) (int, error) { return t.r.Read(p) }

// Peek returns up to n bytes of decoded text without consuming them.
func (t *TextReader) Peek(n int) []byte {
	b, _ := t.r.Peek(n)
	return b
}

func detectEncoding(head []byte) (Encoding, *encoding.Decoder) {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return EncUTF8BOM, unicode.UTF8BOM.NewDecoder()
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return EncUTF16LEBOM, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return EncUTF16BEBOM, unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
	}
	if enc, ok := bomlessUTF16(head); ok {
		if enc == EncUTF16LE {
			return enc, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()
		}
		return enc, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()
	}
	return EncUTF8, nil
}

// bomlessUTF16 recognises UTF-16 text without a byte-order mark: ASCII text
// in UTF-16LE has a NUL in every odd position, in UTF-16BE in every even
// one. At least 90% of the positions must hold a NUL, and the others none.
func bomlessUTF16(head []byte) (Encoding, bool) {
	n := len(head) &^ 1
	if n < 2 {
		return "", false
	}
	var evenNUL, oddNUL int
	for i := 0; i < n; i += 2 {
		if head[i] == 0 {
			evenNUL++
		}
		if head[i+1] == 0 {
			oddNUL++
		}
	}
	pairs := n / 2
	switch {
	case oddNUL*10 >= pairs*9 && evenNUL == 0:
		return EncUTF16LE, true
	case evenNUL*10 >= pairs*9 && oddNUL == 0:
		return EncUTF16BE, true
	}
	return "", false
}

// binaryOffset returns the offset of the first byte in head that cannot be
// in a text file (a NUL or other C0 control character but tab, CR, LF, FF
// and ESC, or a malformed UTF-8 sequence), or -1.
func binaryOffset(head []byte) int {
	for i := 0; i < len(head); {
		c := head[i]
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b {
			return i
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && size == 1 {
			if len(head)-i < utf8.UTFMax && !utf8.FullRune(head[i:]) {
				return -1 // a sequence cut by the end of the sniffed block
			}
			return i
		}
		i += size
	}
	return -1
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// oddCheck turns the end of a UTF-16 stream with an odd number of bytes
// into an error: such a file was cut in the middle of a character.
type oddCheck struct {
	t *TextReader
	r io.Reader
}

func (o *oddCheck) Read(p []byte) (int, error) {
	n, err := o.r.Read(p)
	if err == io.EOF && o.t.utf16 && o.t.count.n%2 == 1 {
		return n, &SyntaxError{File: o.t.file, Msg: fmt.Sprintf("%s file has an odd number of bytes (%d): it was cut in the middle of a character", o.t.Encoding, o.t.count.n)}
	}
	return n, err
}

// maxLine bounds the length of one line of a text result file.
const maxLine = 1 << 20

// lineScanner reads lines of decoded text, dropping the line end (LF or
// CRLF), and remembers whether the last line ended with a newline.
type lineScanner struct {
	sc        *bufio.Scanner
	line      int
	unclosed  bool // the current line is the last and has no newline
	lineBreak bool
}

func newLineScanner(r io.Reader) *lineScanner {
	ls := &lineScanner{sc: bufio.NewScanner(r)}
	ls.sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	ls.sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			return i + 1, bytes.TrimSuffix(data[:i], []byte{'\r'}), nil
		}
		if atEOF && len(data) > 0 {
			ls.unclosed = true
			return len(data), bytes.TrimSuffix(data, []byte{'\r'}), nil
		}
		return 0, nil, nil
	})
	return ls
}

// Scan advances to the next line.
func (ls *lineScanner) Scan() bool {
	if ls.sc.Scan() {
		ls.line++
		return true
	}
	return false
}

// Text returns the current line without its line end.
func (ls *lineScanner) Text() string { return ls.sc.Text() }

// Err returns the reading error, if any, naming the line that was too long.
func (ls *lineScanner) Err(file string) error {
	err := ls.sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		return &SyntaxError{File: file, Line: ls.line + 1, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
	}
	return err
}
