package data

import (
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// Reading the run folders of a folder of run folders is mostly system
// calls and parsing, file by file, folder by folder: readFoldersAhead
// spreads it over a few goroutines that read folders ahead of the loop
// that takes them, in order (issue 19). Everything the loop does with a
// folder (warnings, the parsers' notes, errors, yielding the run) still
// happens in the loop, in the folders' order, so what a load says and
// returns is the same with or without them.

// aheadWorkers is how many goroutines read run folders ahead: as many as
// there are processors, up to 2 (an ingest stores on one core while it
// reads on the rest); 0 reads every folder in the loop itself.
var aheadWorkers = min(runtime.GOMAXPROCS(0), 2)

// aheadLive counts the workers running, for the tests: none may outlive
// the load that started it.
var aheadLive atomic.Int32

// aheadMin is the fewest run folders worth starting goroutines for.
var aheadMin = 16

// aheadBlock is how many consecutive folders a worker reads as one
// block, handed on at once, rather than one by one.
const aheadBlock = 32

// aheadDepth is how many blocks each worker reads beyond the one the loop
// waits for.
const aheadDepth = 2

// folderRead is what reading one run folder found: how many of the
// variants' files are present and which are missing, and, when all are
// present, the run (or the error reading it) and the notes its parsers
// made.
type folderRead struct {
	present int
	missing []string
	run     Run
	err     error
	notes   []fileNote
	panic   any
}

// readFolder reads the run folder name of p, as loadPath did in its loop.
func readFolder(p, name string, opt *LoadOptions) folderRead {
	dir := filepath.Join(p, name)
	present, missing, ff := statFiles(dir, opt)
	f := folderRead{present: present, missing: missing}
	if present > 0 && len(missing) == 0 {
		f.run, f.err = loadRunFolder(dir, name, opt, ff)
	}
	return f
}

// foldersAhead hands on the run folders of p in order, read by workers
// ahead of the caller, or by next itself.
type foldersAhead struct {
	p       string
	folders []string
	i       int                 // the next folder next hands on
	block   []folderRead        // the block that folder i is in
	out     []chan []folderRead // worker k reads blocks k, k+W, k+2W, ...
	done    chan struct{}
	wg      sync.WaitGroup
	stopped bool
}

// readFoldersAhead starts reading the run folders (names in p) ahead,
// when there are enough of them. The caller must take them in order with
// next, and call stop when done (early or not).
func readFoldersAhead(p string, folders []string, opt *LoadOptions) *foldersAhead {
	a := &foldersAhead{p: p, folders: folders}
	w := aheadWorkers
	if w < 1 || len(folders) < aheadMin {
		return a
	}
	opt.variants() // cached before the workers copy opt
	a.done = make(chan struct{})
	a.out = make([]chan []folderRead, w)
	for k := range w {
		a.out[k] = make(chan []folderRead, aheadDepth)
		// Each worker reads with its own copy of the options: its own
		// names to intern, its own size hint, its notes held back.
		wopt := *opt
		wopt.names, wopt.notes, wopt.Warn = map[string]string{}, nil, nil
		a.wg.Add(1)
		aheadLive.Add(1)
		go func() {
			defer a.wg.Done()
			defer aheadLive.Add(-1)
			for start := k * aheadBlock; start < len(folders); start += w * aheadBlock {
				block := make([]folderRead, 0, aheadBlock)
				for _, name := range folders[start:min(start+aheadBlock, len(folders))] {
					f := readFolderHeld(p, name, &wopt)
					block = append(block, f)
					if f.panic != nil {
						break
					}
				}
				select {
				case a.out[k] <- block:
				case <-a.done:
					return
				}
			}
		}()
	}
	return a
}

// readFolderHeld is readFolder with the notes held back in the result, and
// a panic passed on in it rather than raised in the worker.
func readFolderHeld(p, name string, opt *LoadOptions) (f folderRead) {
	var notes []fileNote
	opt.held = &notes
	defer func() {
		opt.held = nil
		if r := recover(); r != nil {
			f = folderRead{panic: r}
		}
	}()
	f = readFolder(p, name, opt)
	f.notes = notes
	return f
}

// next returns the next run folder, read, its notes said through opt.
func (a *foldersAhead) next(opt *LoadOptions) folderRead {
	j := a.i
	a.i++
	if a.out == nil {
		return readFolder(a.p, a.folders[j], opt)
	}
	if j%aheadBlock == 0 {
		a.block = <-a.out[j/aheadBlock%len(a.out)]
	}
	f := a.block[j%aheadBlock]
	a.block[j%aheadBlock] = folderRead{} // not kept alive by the block
	if f.panic != nil {
		a.stop()
		panic(f.panic)
	}
	for _, n := range f.notes {
		opt.note(n.file, n.note)
	}
	return f
}

// stop ends the reading ahead, and waits until the workers have returned.
func (a *foldersAhead) stop() {
	if a.out == nil || a.stopped {
		return
	}
	a.stopped = true
	close(a.done)
	a.wg.Wait()
}
