#include "ledger/hash.h"

#include <cstring>

namespace arbiter::ledger {

Hash LeafHash(absl::string_view data) {
  static constexpr char kLeaf = 0x00;
  return Sha256Of({absl::string_view(&kLeaf, 1), data});
}

Hash NodeHash(const Hash& left, const Hash& right) {
  static constexpr char kNode = 0x01;
  return Sha256Of({absl::string_view(&kNode, 1), AsBytes(left), AsBytes(right)});
}

Hash EmptyRoot() { return Sha256(""); }

bool HashFromBytes(absl::string_view bytes, Hash* out) {
  if (bytes.size() != out->size()) return false;
  std::memcpy(out->data(), bytes.data(), out->size());
  return true;
}

}  // namespace arbiter::ledger
