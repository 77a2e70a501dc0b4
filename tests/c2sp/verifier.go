// A tlog client written only against Go's golang.org/x/mod/sumdb/note and
// sumdb/tlog (Debian's golang-golang-x-mod-dev), which checks an `arbiter
// serve --http` as any C2SP tool would: nothing here knows arbiter.
//
//	verifier -url http://HOST:PORT -vkey FILE [-position P -leaf HEX]
//	         [-state FILE] [-min-size N] [-tamper]
//
// It opens /checkpoint with the verifier key (note.Open), reads the tree's
// hashes through tlog.TileHashReader (which checks every tile it reads
// against the signed root) and recomputes the root (tlog.TreeHash); with
// -position, it reads that entry from its bundle, checks its record hash is
// -leaf and proves it included (tlog.ProveRecord / CheckRecord); with
// -state, it proves the checkpoint kept there consistent with this one
// (tlog.ProveTree / CheckTree), then keeps this one there. -tamper flips a
// byte of every hash tile it reads (a lying server): the checks must fail.
// Exit 0 when every check passes, 1 when one fails, 2 on bad usage.
//
// Witness cosignatures (tlog-cosignature) would be one more verifier in the
// note.VerifierList given to note.Open (see openCheckpoint).
//
// Built with GO111MODULE=off GOPATH=/usr/share/gocode (tests/c2sp/CMakeLists.txt).
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

var client = &http.Client{Timeout: 10 * time.Second}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "verifier: "+format+"\n", args...)
	os.Exit(1)
}

func get(url string) ([]byte, error) {
	resp, err := client.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s: %s", url, resp.Status, strings.TrimSpace(string(body)))
	}
	return body, nil
}

// The C2SP tlog-tiles path of a tile (not Go's sumdb path, which names
// the tile height): tile/<L>/<N>[.p/<W>], entries at level -1.
func tilePath(t tlog.Tile) string {
	n := fmt.Sprintf("%03d", t.N%1000)
	for rest := t.N / 1000; rest > 0; rest /= 1000 {
		n = fmt.Sprintf("x%03d/%s", rest%1000, n)
	}
	level := strconv.Itoa(t.L)
	if t.L == -1 {
		level = "entries"
	}
	p := "tile/" + level + "/" + n
	if t.W != 1<<uint(t.H) {
		p += ".p/" + strconv.Itoa(t.W)
	}
	return p
}

type httpTiles struct {
	base   string
	tamper bool
}

func (r *httpTiles) Height() int { return 8 }

func (r *httpTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		data, err := get(r.base + "/" + tilePath(t))
		if err != nil {
			return nil, err
		}
		if r.tamper && len(data) > 0 {
			data[len(data)/2] ^= 0x01
		}
		out[i] = data
	}
	return out, nil
}

func (r *httpTiles) SaveTiles([]tlog.Tile, [][]byte) {}

// A checkpoint body (tlog-checkpoint): origin, size, base64 root.
func parseCheckpoint(text, origin string) (tlog.Tree, error) {
	lines := strings.SplitN(text, "\n", 4)
	if len(lines) < 4 || lines[0] != origin {
		return tlog.Tree{}, fmt.Errorf("not a checkpoint of %q: %q", origin, text)
	}
	n, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || n < 0 || strconv.FormatInt(n, 10) != lines[1] {
		return tlog.Tree{}, fmt.Errorf("bad tree size %q", lines[1])
	}
	h, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(h) != tlog.HashSize {
		return tlog.Tree{}, fmt.Errorf("bad root %q", lines[2])
	}
	var t tlog.Tree
	t.N = n
	copy(t.Hash[:], h)
	return t, nil
}

func openCheckpoint(msg []byte, verifier note.Verifier) (tlog.Tree, error) {
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		return tlog.Tree{}, err
	}
	return parseCheckpoint(n.Text, verifier.Name())
}

// The record bytes at index i, from its (full or partial) entry bundle.
func readEntry(base string, i, size int64) ([]byte, error) {
	t := tlog.Tile{H: 8, L: -1, N: i / 256, W: 256}
	if end := (i/256 + 1) * 256; end > size {
		t.W = int(size - i/256*256)
	}
	data, err := get(base + "/" + tilePath(t))
	if err != nil {
		return nil, err
	}
	for k := int64(0); len(data) >= 2; k++ {
		l := int(data[0])<<8 | int(data[1])
		if len(data) < 2+l {
			break
		}
		if k == i%256 {
			return data[2 : 2+l], nil
		}
		data = data[2+l:]
	}
	return nil, fmt.Errorf("entry %d is not in its bundle %s", i, tilePath(t))
}

func main() {
	base := flag.String("url", "", "the log's prefix, http://HOST:PORT")
	vkeyFile := flag.String("vkey", "", "the log's verifier key file (ledger.vkey)")
	position := flag.Int64("position", 0, "an event's 1-based position to prove included")
	leaf := flag.String("leaf", "", "with -position: the hex SHA-256 record hash expected there")
	state := flag.String("state", "", "a file keeping the last checkpoint seen, for consistency")
	minSize := flag.Int64("min-size", 0, "wait (up to 20 s) for a checkpoint of at least this size")
	tamper := flag.Bool("tamper", false, "flip a byte of every hash tile read")
	flag.Parse()
	if *base == "" || *vkeyFile == "" || flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	vkey, err := os.ReadFile(*vkeyFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		fmt.Fprintln(os.Stderr, "verifier key:", err)
		os.Exit(2)
	}

	var msg []byte
	var tree tlog.Tree
	for deadline := time.Now().Add(20 * time.Second); ; {
		if msg, err = get(*base + "/checkpoint"); err != nil {
			fail("%v", err)
		}
		if tree, err = openCheckpoint(msg, verifier); err != nil {
			fail("checkpoint does not verify: %v", err)
		}
		if tree.N >= *minSize || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if tree.N < *minSize {
		fail("the checkpoint covers %d events, not %d", tree.N, *minSize)
	}
	fmt.Printf("checkpoint %s size %d root %s: signature verified\n", verifier.Name(), tree.N, tree.Hash)

	reader := tlog.TileHashReader(tree, &httpTiles{base: *base, tamper: *tamper})
	root, err := tlog.TreeHash(tree.N, reader)
	if err != nil {
		fail("tiles: %v", err)
	}
	if root != tree.Hash {
		fail("tiles hash to %s, not the signed root %s", root, tree.Hash)
	}
	fmt.Printf("tiles hash to the signed root\n")

	if *position > 0 {
		i := *position - 1
		if i >= tree.N {
			fail("position %d is beyond the checkpoint (size %d)", *position, tree.N)
		}
		record, err := readEntry(*base, i, tree.N)
		if err != nil {
			fail("%v", err)
		}
		h := tlog.RecordHash(record)
		if want, err := hex.DecodeString(*leaf); *leaf != "" && (err != nil || !bytes.Equal(want, h[:])) {
			fail("the entry at %d hashes to %s, not the expected %s", *position, hex.EncodeToString(h[:]), *leaf)
		}
		proof, err := tlog.ProveRecord(tree.N, i, reader)
		if err != nil {
			fail("inclusion proof: %v", err)
		}
		if err := tlog.CheckRecord(proof, tree.N, tree.Hash, i, h); err != nil {
			fail("inclusion of %d: %v", *position, err)
		}
		fmt.Printf("event %d (%d bytes) is included\n", *position, len(record))
	}

	if *state != "" {
		if old, err := os.ReadFile(*state); err == nil {
			prev, err := openCheckpoint(old, verifier)
			if err != nil {
				fail("the kept checkpoint: %v", err)
			}
			if prev.N > tree.N {
				fail("the log shrank from %d to %d", prev.N, tree.N)
			}
			proof, err := tlog.ProveTree(tree.N, prev.N, reader)
			if err != nil {
				fail("consistency proof: %v", err)
			}
			if err := tlog.CheckTree(proof, tree.N, tree.Hash, prev.N, prev.Hash); err != nil {
				fail("not consistent with the checkpoint of size %d: %v", prev.N, err)
			}
			fmt.Printf("consistent with the earlier checkpoint of size %d\n", prev.N)
		}
		if err := os.WriteFile(*state, msg, 0o644); err != nil {
			fail("%v", err)
		}
	}
}
