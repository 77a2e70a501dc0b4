#include "ledger/hash.h"

#include <array>
#include <cstring>

namespace arbiter::ledger {

Hash LeafHash(absl::string_view data) {
  static constexpr char kLeaf = 0x00;
  return Sha256Of({absl::string_view(&kLeaf, 1), data});
}

Hash NodeHash(const Hash& left, const Hash& right) {
  // One contiguous input: one digest update instead of three (the audit
  // hashes a node for every leaf).
  std::array<char, 1 + 2 * sizeof(Hash)> node;
  node[0] = 0x01;
  std::memcpy(node.data() + 1, left.data(), left.size());
  std::memcpy(node.data() + 1 + left.size(), right.data(), right.size());
  return Sha256(absl::string_view(node.data(), node.size()));
}

Hash EmptyRoot() { return Sha256(""); }

bool HashFromBytes(absl::string_view bytes, Hash* out) {
  if (bytes.size() != out->size()) return false;
  std::memcpy(out->data(), bytes.data(), out->size());
  return true;
}

}  // namespace arbiter::ledger
