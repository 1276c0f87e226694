package formats

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
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

// TextReader yields the text of a result file as UTF-8 with LF line ends,
// whatever encoding and line ends it was written in (see lineEnds): UTF-8 with or without a byte-order mark, UTF-16 LE or BE
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
	// bufs are the reader's buffers, and pool where they go back to when
	// the file is closed (nil: they are the garbage collector's).
	bufs *textBufs
	pool *sync.Pool
	lf   *lineEnds
	// raw, when the file was read whole (readWhole) but its text is not
	// plain (see plainText), holds its bytes, which the reader decodes;
	// it goes back to wholeBufs when the file is closed.
	raw *[]byte
	// whole, when whole is set, is the file's entire text (plain text
	// read whole: see openBytes), read from at pos; r and bufs are nil.
	whole   string
	isWhole bool
	pos     int
}

// NewTextReader detects the encoding of raw and returns a reader of its
// text. It fails for an empty input and for binary data.
func NewTextReader(file string, raw io.Reader) (*TextReader, error) {
	return newTextReader(file, raw, -1)
}

// textBufs are the buffers of a TextReader and of its line scanner: the
// raw bytes (in, which Peek sniffs), the line-end filter's chunk (raw),
// the decoded text (out, which Peek sees for format detection) and the
// line scanner's buffer (scan, which grows for a line longer than it).
type textBufs struct {
	in, out *bufio.Reader
	raw     []byte
	text    []byte // the line-end filter's output (lineEnds.buf)
	scan    []byte
}

// Buffer sizes: full ones for a large file or an input of unknown size,
// small ones (sniffLen, the least that Peek needs) for a file shorter
// than sniffLen. Buffers of files are reused from file to file (returned
// by File.Close): 64 KiB buffers made anew for every file made 20,000
// result files of 700 bytes allocate 4 GB (issue 19).
const (
	fullBuf  = 64 << 10
	smallBuf = sniffLen
)

var smallBufs, fullBufs sync.Pool

func newTextBufs(n int) *textBufs {
	return &textBufs{
		in:   bufio.NewReaderSize(nil, n),
		out:  bufio.NewReaderSize(nil, n),
		raw:  make([]byte, max(n/2, smallBuf)),
		scan: make([]byte, n),
	}
}

// getTextBufs returns buffers for an input of size bytes (-1: unknown),
// and the pool they are to go back to (nil for an input of unknown size,
// which has no Close to give them back).
func getTextBufs(size int64) (*textBufs, *sync.Pool) {
	n, pool := fullBuf, &fullBufs
	switch {
	case size < 0:
		return newTextBufs(fullBuf), nil
	case size < smallBuf:
		n, pool = smallBuf, &smallBufs
	}
	if b, ok := pool.Get().(*textBufs); ok {
		return b, pool
	}
	return newTextBufs(n), pool
}

// release gives the reader's buffers back for the next file. The reader
// must not be used after it (it would fail on a nil reader rather than
// read another file's text).
func (t *TextReader) release() {
	if t == nil {
		return
	}
	if t.raw != nil {
		putWholeBuf(t.raw)
		t.raw = nil
	}
	if t.bufs == nil {
		return
	}
	b := t.bufs
	t.bufs, t.r = nil, nil
	if t.pool != nil {
		b.text = t.lf.buf[:0] // as it grew
		b.in.Reset(nil)
		b.out.Reset(nil)
		t.pool.Put(b)
	}
}

// newTextReader is NewTextReader for an input of size bytes (-1: unknown).
func newTextReader(file string, raw io.Reader, size int64) (*TextReader, error) {
	cr := &countingReader{r: raw}
	bufs, pool := getTextBufs(size)
	giveBack := func() {
		if pool != nil {
			bufs.in.Reset(nil)
			pool.Put(bufs)
		}
	}
	br := bufs.in
	br.Reset(cr)
	head, err := br.Peek(sniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		giveBack()
		return nil, err
	}
	if len(head) == 0 {
		giveBack()
		return nil, &SyntaxError{File: file, Msg: "empty file: expected benchmark results"}
	}
	enc, dec := detectEncoding(head)
	t := &TextReader{Encoding: enc, count: cr, file: file, bufs: bufs, pool: pool}
	switch enc {
	case EncUTF16LE, EncUTF16BE, EncUTF16LEBOM, EncUTF16BEBOM:
		t.utf16 = true
	}
	if !t.utf16 {
		if off := binaryOffset(head); off >= 0 {
			giveBack()
			return nil, &SyntaxError{File: file, Msg: fmt.Sprintf("binary data at byte %d: not a text result file", off)}
		}
	}
	var rd io.Reader = br
	if dec != nil {
		rd = newDecoder(br, dec)
	}
	lf := &lineEnds{r: &oddCheck{t: t, r: rd}, file: file, utf16: t.utf16, enc: enc, line: 1, raw: bufs.raw, buf: bufs.text}
	t.lf = lf
	if enc == EncUTF8BOM {
		lf.off = 3
	}
	t.r = bufs.out
	t.r.Reset(lf)
	return t, nil
}

// Read reads decoded UTF-8 text.
func (t *TextReader) Read(p []byte) (int, error) {
	if t.isWhole {
		if t.pos >= len(t.whole) {
			return 0, io.EOF
		}
		n := copy(p, t.whole[t.pos:])
		t.pos += n
		return n, nil
	}
	return t.r.Read(p)
}

// Peek returns up to n bytes of decoded text without consuming them.
func (t *TextReader) Peek(n int) []byte {
	if t.isWhole {
		return []byte(t.whole[t.pos:min(t.pos+n, len(t.whole))])
	}
	if n > t.r.Size() {
		// A buffer that holds n bytes, in front of the one there, which
		// it reads from: only format detection asks for more than a
		// buffer holds (DetectLimit), for a file with much text before
		// its first result.
		t.r = bufio.NewReaderSize(t.r, n)
	}
	b, _ := t.r.Peek(n)
	return b
}

// wholeMax is the size up to which a result file is read whole, with one
// read into a buffer of wholeBufs, rather than streamed through the
// TextReader's buffers (issue 19: each small file took three reads, two
// buffered readers and a scanner). No line of such a file can be longer
// than maxLine.
const wholeMax = fullBuf

// wholeBufs are the buffers that files are read whole into: each holds
// wholeMax+1 bytes, so that a read of a file that grew since its stat is
// not short.
var wholeBufs = sync.Pool{New: func() any { b := make([]byte, 0, wholeMax+1); return &b }}

// putWholeBuf gives a buffer back to wholeBufs, unless it was grown for a
// file that grew beyond wholeMax since its stat.
func putWholeBuf(b *[]byte) {
	if cap(*b) == wholeMax+1 {
		*b = (*b)[:0]
		wholeBufs.Put(b)
	}
}

// readAll reads a file that a stat found to hold size bytes (at most
// wholeMax) whole with read, into a buffer of wholeBufs. It stops at the
// end of the input (a read of 0 bytes) or, to spare that last read, at a
// read shorter than asked for that leaves exactly size bytes: a short
// read of a regular file ends at its end, and size says it is the whole.
func readAll(size int64, read func([]byte) (int, error)) (*[]byte, error) {
	buf := wholeBufs.Get().(*[]byte)
	b := (*buf)[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew since its stat
		}
		want := cap(b) - len(b)
		n, err := read(b[len(b):cap(b)])
		if n > 0 {
			b = b[:len(b)+n]
		}
		if err == io.EOF || (err == nil && n == 0) {
			break
		}
		if err != nil {
			*buf = b
			putWholeBuf(buf)
			return nil, err
		}
		if n < want && int64(len(b)) == size {
			break
		}
	}
	*buf = b
	return buf, nil
}

// plainText reports whether b, a whole file, is plain UTF-8 text, and
// returns it as a TextReader would decode it: b itself, or b with every
// line end turned into LF in place (CRLF, or a lone CR: see lineEnds).
// Plain is UTF-8 without a byte-order mark, and without a NUL or other
// control character but tab, LF, CR, FF and ESC (so not UTF-16 either);
// for such bytes the TextReader's decoding and line-end layers would
// change nothing but the line ends. Any other file (empty, with a BOM,
// UTF-16, binary, malformed UTF-8) is not plain: it takes the general
// path, which says what is wrong with it.
func plainText(b []byte) ([]byte, bool) {
	if len(b) == 0 || bytes.HasPrefix(b, utf8BOM) {
		return nil, false
	}
	// Eight bytes at a time: a word of printable ASCII (0x20 to 0x7F)
	// alone is passed over; any other is classed byte by byte (a quarter
	// of the words of a result file, which hold its line ends).
	var seen uint8
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if printableWord(binary.LittleEndian.Uint64(b[i:])) {
			continue
		}
		for _, c := range b[i : i+8] {
			seen |= textClass[c]
		}
	}
	for _, c := range b[i:] {
		seen |= textClass[c]
	}
	if seen&classBad != 0 || (seen&classHigh != 0 && !utf8.Valid(b)) {
		return nil, false
	}
	if seen&classCR == 0 {
		return b, true
	}
	// CRLF and a lone CR each end one line: each becomes one LF. The text
	// only shrinks, so it is written over b.
	out := b[:0]
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' {
			c = '\n'
			if i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
		}
		out = append(out, c)
	}
	return out, true
}

// printableWord reports whether the eight bytes of w are all printable
// ASCII (0x20 to 0x7F). The first term finds a byte below 0x20 among
// bytes below 0x80 (the classic test for a zero byte, shifted); the
// second a byte of 0x80 or above.
func printableWord(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (w-0x20*ones)&^w&highs == 0 && w&highs == 0
}

// The classes of bytes for plainText, as bits of textClass.
const (
	classCR   = 1 << iota // CR, a line end to turn into LF
	classHigh             // 0x80 or above: part of a UTF-8 sequence, if valid
	classBad              // any other control character: not plain text
)

// textClass classes every byte value: 0 for printable ASCII, tab, LF, FF
// and ESC (which lineEnds passes on as they are).
var textClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 0x80:
			t[c] = classHigh
		case c == '\r':
			t[c] = classCR
		case c >= 0x20, c == '\t', c == '\n', c == '\f', c == 0x1b:
		default:
			t[c] = classBad
		}
	}
	return t
}()

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

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

// decoder decodes the text in a bufio.Reader with a golang.org/x/text
// transformer (the UTF-16 decoders), from the reader's buffer straight
// into the caller's: unlike transform.Reader, which it replaces, it
// allocates no buffers of its own (8 KiB a file).
type decoder struct {
	in   *bufio.Reader
	t    transform.Transformer
	err  error // what ends the stream: io.EOF, the input's or the transformer's error
	done bool
}

func newDecoder(in *bufio.Reader, t transform.Transformer) *decoder {
	t.Reset()
	return &decoder{in: in, t: t}
}

func (d *decoder) Read(p []byte) (int, error) {
	for !d.done {
		// Peek of the buffer's size returns fewer bytes only with an
		// error: io.EOF at the end of the input, or a failure to read.
		src, rerr := d.in.Peek(d.in.Size())
		nDst, nSrc, err := d.t.Transform(p, src, rerr == io.EOF)
		d.in.Discard(nSrc)
		switch {
		case err == nil && rerr == nil:
			// Every byte read was decoded; read more.
		case err == nil:
			d.done, d.err = true, rerr
		case err == transform.ErrShortDst && (nDst > 0 || nSrc > 0):
			// p is full: the rest on the next call.
		case err == transform.ErrShortSrc && rerr == nil && nSrc > 0:
			// An incomplete character at the end of the buffer: it is at
			// the start of the buffer after the next Peek.
		default:
			// The input's error wins over the transformer's, unless it is
			// the end of the input or none.
			d.done, d.err = true, err
			if rerr != nil && rerr != io.EOF {
				d.err = rerr
			}
		}
		if nDst > 0 {
			return nDst, nil
		}
	}
	return 0, d.err
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

// lineEnds turns every line end of decoded text into LF, and refuses
// binary data anywhere in the text (the first sniffLen bytes are checked
// by NewTextReader already, with the same rule: see binaryOffset).
//
// Line ends: CRLF, LF and a lone CR each end one line. A lone CR is what
// old Mac tools end lines with, and what progress meters print to go back
// to the start of the line ("progress: 10%\rprogress: 100%\rlarson: ...
// (5514093 ops/sec)"). A terminal shows the text after the last CR over
// what came before; reading every CR-separated segment as a line of its own
// keeps that last segment whole (a result line printed after a progress
// meter is read), and a file whose lines end in CR alone is read one line
// per line, with line numbers that count those lines. CRLF stays one line
// end. (The one thing the rule gives up: a result line overwritten by a
// later segment is still read, though a terminal would no longer show it.)
type lineEnds struct {
	r      io.Reader
	file   string
	enc    Encoding
	utf16  bool
	raw    []byte // at least utf8.UTFMax+1 bytes
	pend   int    // bytes of an incomplete UTF-8 sequence kept at the start of raw
	out    []byte // processed text not yet read
	buf    []byte
	lastCR bool
	line   int   // the line being read, 1-based
	off    int64 // byte offset in the file of raw[0] (UTF-8 only)
	err    error
}

func (l *lineEnds) Read(p []byte) (int, error) {
	for len(l.out) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		l.fill()
	}
	n := copy(p, l.out)
	l.out = l.out[n:]
	return n, nil
}

// fill reads a chunk of decoded text and processes it into l.out.
func (l *lineEnds) fill() {
	n, err := l.r.Read(l.raw[l.pend:])
	n += l.pend
	l.pend = 0
	chunk := l.raw[:n]
	// Keep an incomplete UTF-8 sequence at the end for the next chunk.
	keep := 0
	if err == nil {
		for i := len(chunk) - 1; i >= 0 && i >= len(chunk)-utf8.UTFMax; i-- {
			if c := chunk[i]; c >= 0xC0 {
				if !utf8.FullRune(chunk[i:]) {
					keep = len(chunk) - i
				}
				break
			} else if c < 0x80 {
				break
			}
		}
	}
	body := chunk[:len(chunk)-keep]
	out := l.buf[:0]
	for i := 0; i < len(body); {
		// Words of printable ASCII are passed on together, as they are
		// (nine bytes of a CSV file's ten; byte by byte this layer took a
		// tenth of an ingest from one CSV file).
		j := i
		for j+8 <= len(body) && printableWord(binary.LittleEndian.Uint64(body[j:])) {
			j += 8
		}
		if j > i {
			out = append(out, body[i:j]...)
			l.lastCR = false
			i = j
			continue
		}
		c := body[i]
		switch {
		case c == '\r':
			out = append(out, '\n')
			l.line++
			l.lastCR = true
			i++
			continue
		case c == '\n':
			if !l.lastCR {
				out = append(out, '\n')
				l.line++
			}
		case c >= 0x20 && c < utf8.RuneSelf, c == '\t', c == '\f', c == 0x1b:
			out = append(out, c)
		case c < 0x20:
			l.binary(int64(i))
			l.out = out
			return
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 && !(err != nil && !utf8.FullRune(body[i:])) {
				l.binary(int64(i))
				l.out = out
				return
			}
			out = append(out, body[i:i+size]...)
			l.lastCR = false
			i += size
			continue
		}
		l.lastCR = false
		i++
	}
	l.buf = out
	l.out = out
	l.off += int64(len(body))
	if keep > 0 {
		copy(l.raw[:], chunk[len(body):])
		l.pend = keep
	}
	if err != nil {
		l.err = err
	}
}

// binary stops the stream with an error for binary data at offset i of
// the current chunk.
func (l *lineEnds) binary(i int64) {
	if l.utf16 {
		l.err = &SyntaxError{File: l.file, Line: l.line, Msg: fmt.Sprintf("binary data (a NUL or other control character) in %s text: not a text result file", l.enc)}
		return
	}
	l.err = &SyntaxError{File: l.file, Line: l.line, Msg: fmt.Sprintf("binary data at byte %d: not a text result file", l.off+i)}
}

// maxLine bounds the length of one line of a text result file, and so
// the memory its reading takes: result lines are short (under 200 bytes;
// a CSV row with many labels a few KiB), and a line longer than 1 MiB is
// not a benchmark suite's output.
const maxLine = 1 << 20

// lineTooLong is the error for line of file, longer than maxLine.
func lineTooLong(file string, line int) error {
	return &SyntaxError{File: file, Line: line, Msg: fmt.Sprintf("line longer than %d bytes (1 MiB), the limit for a line of a text result file: expected the lines a benchmark suite prints", maxLine)}
}

// lineScanner reads lines of a TextReader's text, dropping the line end
// (LF: the TextReader has turned CR and CRLF into LF), and remembers whether the last line ended with a newline.
type lineScanner struct {
	sc *bufio.Scanner
	// text, when whole is set, is the rest of a TextReader's whole text
	// (see openBytes), which Scan splits into lines itself, each line a
	// substring of it (cur), rather than through sc, which copied them.
	text     string
	cur      string
	whole    bool
	line     int
	unclosed bool // the current line is the last and has no newline
}

func newLineScanner(r io.Reader) *lineScanner {
	if t, ok := r.(*TextReader); ok && t.isWhole {
		ls := &lineScanner{text: t.whole[t.pos:], whole: true}
		t.pos = len(t.whole)
		return ls
	}
	ls := &lineScanner{sc: bufio.NewScanner(r)}
	// The scanner grows its buffer, up to maxLine, for a longer line.
	if t, ok := r.(*TextReader); ok && t.bufs != nil {
		ls.sc.Buffer(t.bufs.scan[:0], maxLine)
	} else {
		ls.sc.Buffer(make([]byte, 0, fullBuf), maxLine)
	}
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
	if ls.whole {
		// As the split function of sc: a line ends at LF; the last,
		// unclosed, at the end of the text; no line after a last LF.
		if len(ls.text) == 0 {
			return false
		}
		line := ls.text
		if i := strings.IndexByte(ls.text, '\n'); i >= 0 {
			line, ls.text = ls.text[:i], ls.text[i+1:]
		} else {
			ls.unclosed, ls.text = true, ""
		}
		ls.cur = strings.TrimSuffix(line, "\r")
		ls.line++
		return true
	}
	if ls.sc.Scan() {
		ls.line++
		return true
	}
	return false
}

// Text returns the current line without its line end.
func (ls *lineScanner) Text() string {
	if ls.whole {
		return ls.cur
	}
	return ls.sc.Text()
}

// appendText appends the current line, without its line end, to dst.
func (ls *lineScanner) appendText(dst []byte) []byte {
	if ls.whole {
		return append(dst, ls.cur...)
	}
	return append(dst, ls.sc.Bytes()...)
}

// Err returns the reading error, if any, naming the line that was too long.
func (ls *lineScanner) Err(file string) error {
	if ls.whole {
		return nil
	}
	err := ls.sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		return lineTooLong(file, ls.line+1)
	}
	return err
}

// headLines calls fn with each non-empty line of head, the start of a
// file's text, split at every line end (CRLF, LF or a lone CR: see
// lineEnds), until fn returns false. Format detection uses it: it copies
// nothing.
func headLines(head []byte, fn func(line []byte) bool) {
	for len(head) > 0 {
		i := bytes.IndexAny(head, "\r\n")
		if i < 0 {
			fn(head)
			return
		}
		if i > 0 && !fn(head[:i]) {
			return
		}
		head = head[i+1:]
	}
}
