#include "ledger/merkle.h"

#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"

namespace arbiter::ledger {
namespace {

// The largest power of two strictly less than n (n >= 2).
uint64_t Split(uint64_t n) { return std::bit_floor(n - 1); }

absl::Status Bad(const std::string& why) { return absl::DataLossError(why); }

absl::Status OutOfRange(uint64_t tree_size, uint64_t size) {
  return absl::OutOfRangeError(absl::StrCat("tree size ", tree_size, " exceeds the log's ", size));
}

}  // namespace

Hash MerkleRoot(std::span<const Hash> leaves) {
  CompactRange range;
  for (const Hash& leaf : leaves) range.Append(leaf);
  return range.Root();
}

absl::StatusOr<std::vector<Hash>> InclusionProof(uint64_t index, std::span<const Hash> leaves) {
  return MerkleTree({leaves.begin(), leaves.end()}).InclusionProof(index, leaves.size());
}

absl::StatusOr<std::vector<Hash>> ConsistencyProof(uint64_t old_size,
                                                   std::span<const Hash> leaves) {
  return MerkleTree({leaves.begin(), leaves.end()}).ConsistencyProof(old_size, leaves.size());
}

MerkleTree::MerkleTree(std::vector<Hash> leaves) {
  levels_.push_back(std::move(leaves));
  while (levels_.back().size() >= 2) {
    const std::vector<Hash>& below = levels_.back();
    std::vector<Hash> level(below.size() / 2);
    for (size_t i = 0; i < level.size(); ++i) level[i] = NodeHash(below[2 * i], below[2 * i + 1]);
    levels_.push_back(std::move(level));
  }
}

void MerkleTree::Append(const Hash& leaf) {
  levels_.front().push_back(leaf);
  // Each level that now ends in a complete pair gains their parent.
  for (size_t k = 0; levels_[k].size() % 2 == 0; ++k) {
    if (k + 1 == levels_.size()) {
      // A level sized at once for the leaves reserved (AuditLog reserves
      // the log's): grown by doubling, each upper level was copied over and
      // over, its new pages faulted in each time.
      levels_.emplace_back().reserve(levels_.front().capacity() >> (k + 1));
    }
    const std::vector<Hash>& level = levels_[k];
    levels_[k + 1].push_back(NodeHash(level[level.size() - 2], level.back()));
  }
}

// MTH(D[begin:end]) of RFC 6962 §2.1. The recursion only ever asks for
// ranges whose left part is a perfect subtree aligned to its size, which is
// one stored hash; so the depth, and the hashing, is O(log n).
Hash MerkleTree::Subtree(uint64_t begin, uint64_t end) const {
  const uint64_t n = end - begin;
  if (n == 0) return EmptyRoot();
  if (std::has_single_bit(n) && begin % n == 0) {
    const int k = std::countr_zero(n);
    return levels_[k][begin >> k];
  }
  const uint64_t k = Split(n);
  return NodeHash(Subtree(begin, begin + k), Subtree(begin + k, end));
}

// PATH(m, D[begin:end]) of RFC 6962 §2.1.1.
void MerkleTree::Path(uint64_t m, uint64_t begin, uint64_t end, std::vector<Hash>* out) const {
  const uint64_t n = end - begin;
  if (n <= 1) return;
  const uint64_t k = Split(n);
  if (m < k) {
    Path(m, begin, begin + k, out);
    out->push_back(Subtree(begin + k, end));
  } else {
    Path(m - k, begin + k, end, out);
    out->push_back(Subtree(begin, begin + k));
  }
}

// SUBPROOF(m, D[begin:end], b) of RFC 6962 §2.1.2.
void MerkleTree::SubProof(uint64_t m, uint64_t begin, uint64_t end, bool whole,
                          std::vector<Hash>* out) const {
  const uint64_t n = end - begin;
  if (m == n) {
    if (!whole) out->push_back(Subtree(begin, end));
    return;
  }
  const uint64_t k = Split(n);
  if (m <= k) {
    SubProof(m, begin, begin + k, whole, out);
    out->push_back(Subtree(begin + k, end));
  } else {
    SubProof(m - k, begin + k, end, false, out);
    out->push_back(Subtree(begin, begin + k));
  }
}

absl::StatusOr<std::vector<Hash>> MerkleTree::PerfectSubtrees(int height, uint64_t first,
                                                              uint64_t count) const {
  if (height < 0 || static_cast<size_t>(height) >= levels_.size() ||
      first > levels_[height].size() || count > levels_[height].size() - first) {
    return absl::OutOfRangeError(absl::StrCat("no ", count, " subtrees of height ", height,
                                              " from ", first, " in a tree of size ", size()));
  }
  return std::vector<Hash>(levels_[height].begin() + first,
                           levels_[height].begin() + first + count);
}

absl::StatusOr<Hash> MerkleTree::Root(uint64_t tree_size) const {
  if (tree_size > size()) return OutOfRange(tree_size, size());
  return Subtree(0, tree_size);
}

absl::StatusOr<std::vector<Hash>> MerkleTree::InclusionProof(uint64_t index,
                                                             uint64_t tree_size) const {
  if (tree_size > size()) return OutOfRange(tree_size, size());
  if (index >= tree_size) {
    return absl::OutOfRangeError(
        absl::StrCat("leaf ", index, " is not in a tree of size ", tree_size));
  }
  std::vector<Hash> proof;
  Path(index, 0, tree_size, &proof);
  return proof;
}

absl::StatusOr<std::vector<Hash>> MerkleTree::ConsistencyProof(uint64_t old_size,
                                                               uint64_t new_size) const {
  if (new_size > size()) return OutOfRange(new_size, size());
  if (old_size > new_size) return OutOfRange(old_size, new_size);
  std::vector<Hash> proof;
  if (old_size > 0 && old_size < new_size) SubProof(old_size, 0, new_size, true, &proof);
  return proof;
}

absl::Status VerifyInclusion(uint64_t index, uint64_t tree_size, const Hash& leaf,
                             std::span<const Hash> proof, const Hash& root) {
  if (index >= tree_size) {
    return Bad(absl::StrCat("leaf ", index, " is outside a tree of size ", tree_size));
  }
  uint64_t fn = index;
  uint64_t sn = tree_size - 1;
  Hash r = leaf;
  for (const Hash& p : proof) {
    if (sn == 0) return Bad("inclusion proof is too long");
    if ((fn & 1) == 1 || fn == sn) {
      r = NodeHash(p, r);
      while ((fn & 1) == 0 && fn != 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      r = NodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) return Bad("inclusion proof is too short");
  if (r != root) return Bad("inclusion proof does not lead to the root");
  return absl::OkStatus();
}

absl::Status VerifyConsistency(uint64_t old_size, uint64_t new_size, const Hash& old_root,
                               const Hash& new_root, std::span<const Hash> proof) {
  if (old_size > new_size) return Bad("the old tree is larger than the new one");
  if (old_size == new_size) {
    if (!proof.empty()) return Bad("consistency proof between equal trees must be empty");
    if (old_root != new_root) return Bad("two roots for one tree size");
    return absl::OkStatus();
  }
  if (old_size == 0) {
    if (!proof.empty()) return Bad("consistency proof from the empty tree must be empty");
    return absl::OkStatus();
  }
  if (proof.empty()) return Bad("consistency proof is empty");
  std::vector<Hash> c;
  if (std::has_single_bit(old_size)) c.push_back(old_root);
  c.insert(c.end(), proof.begin(), proof.end());
  uint64_t fn = old_size - 1;
  uint64_t sn = new_size - 1;
  while ((fn & 1) == 1) {
    fn >>= 1;
    sn >>= 1;
  }
  Hash fr = c[0];
  Hash sr = c[0];
  for (size_t i = 1; i < c.size(); ++i) {
    if (sn == 0) return Bad("consistency proof is too long");
    if ((fn & 1) == 1 || fn == sn) {
      fr = NodeHash(c[i], fr);
      sr = NodeHash(c[i], sr);
      while ((fn & 1) == 0 && fn != 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      sr = NodeHash(sr, c[i]);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) return Bad("consistency proof is too short");
  if (fr != old_root) return Bad("consistency proof does not lead to the old root");
  if (sr != new_root) return Bad("consistency proof does not lead to the new root");
  return absl::OkStatus();
}

void CompactRange::Append(const Hash& leaf) {
  peaks_.push_back(leaf);
  ++size_;
  // Each trailing 0 bit of the new size means the two rightmost peaks are
  // perfect subtrees of equal height, which merge into one.
  for (uint64_t s = size_; (s & 1) == 0; s >>= 1) {
    Hash right = peaks_.back();
    peaks_.pop_back();
    peaks_.back() = NodeHash(peaks_.back(), right);
  }
}

Hash CompactRange::Root() const {
  if (peaks_.empty()) return EmptyRoot();
  Hash root = peaks_.back();
  for (size_t i = peaks_.size() - 1; i-- > 0;) root = NodeHash(peaks_[i], root);
  return root;
}

}  // namespace arbiter::ledger
