// The Merkle tree against the RFC 6962 / certificate-transparency test
// vectors, and proofs checked exhaustively on small trees.
#include "ledger/merkle.h"

#include <bit>
#include <span>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ledger/hash.h"

namespace arbiter::ledger {
namespace {

std::string Unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// The eight leaves of the standard test tree (RFC 6962 reference tests,
// certificate-transparency merkle_tree_test).
std::vector<Hash> TestLeaves() {
  std::vector<Hash> leaves;
  for (const char* hex : {"", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                          "606162636465666768696a6b6c6d6e6f"}) {
    leaves.push_back(LeafHash(Unhex(hex)));
  }
  return leaves;
}

TEST(MerkleTest, EmptyTreeIsSha256OfNothing) {
  EXPECT_EQ(ToHex(MerkleRoot({})),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(MerkleTest, PublishedRootsForEveryPrefix) {
  // Roots of the trees over the first 1..8 test leaves.
  const char* kRoots[] = {
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
      "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
      "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
      "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
      "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
      "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
  };
  std::vector<Hash> leaves = TestLeaves();
  CompactRange range;
  for (size_t n = 1; n <= leaves.size(); ++n) {
    range.Append(leaves[n - 1]);
    EXPECT_EQ(ToHex(MerkleRoot(std::span(leaves).first(n))), kRoots[n - 1]) << n;
    EXPECT_EQ(ToHex(range.Root()), kRoots[n - 1]) << n;
  }
}

TEST(MerkleTest, PublishedInclusionProofs) {
  std::vector<Hash> leaves = TestLeaves();
  // RFC 6962 reference: leaf 0 in the 8-tree, leaf 5 in the 8-tree.
  auto p0 = InclusionProof(0, leaves);
  ASSERT_TRUE(p0.ok());
  ASSERT_EQ(p0->size(), 3u);
  EXPECT_EQ(ToHex((*p0)[0]), "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7");
  EXPECT_EQ(ToHex((*p0)[1]), "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e");
  EXPECT_EQ(ToHex((*p0)[2]), "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4");
  auto p5 = InclusionProof(5, leaves);
  ASSERT_TRUE(p5.ok());
  ASSERT_EQ(p5->size(), 3u);
  EXPECT_EQ(ToHex((*p5)[0]), "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b");
  EXPECT_EQ(ToHex((*p5)[1]), "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0");
  EXPECT_EQ(ToHex((*p5)[2]), "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7");
}

TEST(MerkleTest, PublishedConsistencyProofs) {
  std::vector<Hash> leaves = TestLeaves();
  auto c1 = ConsistencyProof(1, leaves);
  ASSERT_TRUE(c1.ok());
  ASSERT_EQ(c1->size(), 3u);
  EXPECT_EQ(ToHex((*c1)[0]), "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7");
  auto c6 = ConsistencyProof(6, leaves);
  ASSERT_TRUE(c6.ok());
  ASSERT_EQ(c6->size(), 3u);
  EXPECT_EQ(ToHex((*c6)[0]), "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a");
  EXPECT_EQ(ToHex((*c6)[1]), "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0");
  EXPECT_EQ(ToHex((*c6)[2]), "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7");
}

// Every proof of every tree up to 33 leaves verifies, and breaking any one
// hash, the leaf, the root or the index makes it fail.
TEST(MerkleTest, AllProofsVerifyAndTamperingFails) {
  std::vector<Hash> leaves;
  for (int i = 0; i < 33; ++i) leaves.push_back(LeafHash(std::string(1, static_cast<char>(i))));
  for (uint64_t n = 1; n <= leaves.size(); ++n) {
    std::span<const Hash> tree = std::span<const Hash>(leaves).first(n);
    Hash root = MerkleRoot(tree);
    for (uint64_t i = 0; i < n; ++i) {
      auto proof = InclusionProof(i, tree);
      ASSERT_TRUE(proof.ok());
      EXPECT_TRUE(VerifyInclusion(i, n, tree[i], *proof, root).ok()) << i << "/" << n;
      Hash other = tree[i];
      other[31] ^= 1;
      EXPECT_FALSE(VerifyInclusion(i, n, other, *proof, root).ok());
      EXPECT_FALSE(VerifyInclusion(i, n, tree[i], *proof, other).ok());
      if (n > 1) {
        EXPECT_FALSE(VerifyInclusion((i + 1) % n, n, tree[i], *proof, root).ok());
      }
      for (size_t k = 0; k < proof->size(); ++k) {
        std::vector<Hash> bad = *proof;
        bad[k][0] ^= 1;
        EXPECT_FALSE(VerifyInclusion(i, n, tree[i], bad, root).ok());
      }
    }
    for (uint64_t m = 0; m <= n; ++m) {
      auto proof = ConsistencyProof(m, tree);
      ASSERT_TRUE(proof.ok());
      Hash old_root = MerkleRoot(tree.first(m));
      EXPECT_TRUE(VerifyConsistency(m, n, old_root, root, *proof).ok()) << m << "/" << n;
      if (m > 0 && m < n) {
        Hash wrong = old_root;
        wrong[5] ^= 0x80;
        EXPECT_FALSE(VerifyConsistency(m, n, wrong, root, *proof).ok());
        EXPECT_FALSE(VerifyConsistency(m, n, old_root, wrong, *proof).ok());
        std::vector<Hash> bad = *proof;
        bad.back()[0] ^= 1;
        EXPECT_FALSE(VerifyConsistency(m, n, old_root, root, bad).ok());
        bad = *proof;
        bad.pop_back();
        EXPECT_FALSE(VerifyConsistency(m, n, old_root, root, bad).ok());
      }
    }
  }
}

// RFC 6962 §2.1 read literally (recursion over the leaf list), to check the
// MerkleTree's stored-subtree shortcuts against.
Hash ReferenceRoot(std::span<const Hash> d) {
  if (d.empty()) return EmptyRoot();
  if (d.size() == 1) return d[0];
  const uint64_t k = std::bit_floor(d.size() - 1);
  return NodeHash(ReferenceRoot(d.first(k)), ReferenceRoot(d.subspan(k)));
}

void ReferencePath(uint64_t m, std::span<const Hash> d, std::vector<Hash>* out) {
  if (d.size() <= 1) return;
  const uint64_t k = std::bit_floor(d.size() - 1);
  if (m < k) {
    ReferencePath(m, d.first(k), out);
    out->push_back(ReferenceRoot(d.subspan(k)));
  } else {
    ReferencePath(m - k, d.subspan(k), out);
    out->push_back(ReferenceRoot(d.first(k)));
  }
}

void ReferenceSubProof(uint64_t m, std::span<const Hash> d, bool whole, std::vector<Hash>* out) {
  if (m == d.size()) {
    if (!whole) out->push_back(ReferenceRoot(d));
    return;
  }
  const uint64_t k = std::bit_floor(d.size() - 1);
  if (m <= k) {
    ReferenceSubProof(m, d.first(k), whole, out);
    out->push_back(ReferenceRoot(d.subspan(k)));
  } else {
    ReferenceSubProof(m - k, d.subspan(k), false, out);
    out->push_back(ReferenceRoot(d.first(k)));
  }
}

std::vector<Hash> SeventyLeaves() {
  std::vector<Hash> leaves;
  for (int i = 0; i < 70; ++i) leaves.push_back(LeafHash("leaf " + std::to_string(i)));
  return leaves;
}

// `tree`'s root and every proof in its prefix of `n` leaves are those of
// the definition over that prefix alone.
void ExpectPrefixAsDefined(const MerkleTree& tree, const std::vector<Hash>& leaves, uint64_t n) {
  const std::span<const Hash> prefix = std::span<const Hash>(leaves).first(n);
  EXPECT_EQ(*tree.Root(n), ReferenceRoot(prefix)) << n;
  for (uint64_t i = 0; i < n; ++i) {
    std::vector<Hash> want;
    ReferencePath(i, prefix, &want);
    EXPECT_EQ(*tree.InclusionProof(i, n), want) << i << "/" << n;
  }
  for (uint64_t m = 0; m <= n; ++m) {
    std::vector<Hash> want;
    if (m > 0 && m < n) ReferenceSubProof(m, prefix, true, &want);
    EXPECT_EQ(*tree.ConsistencyProof(m, n), want) << m << "/" << n;
  }
}

// One MerkleTree over 70 leaves answers for every prefix exactly as the
// definition does over that prefix alone.
TEST(MerkleTest, OneTreeAnswersForEveryPrefixAsTheDefinition) {
  const std::vector<Hash> leaves = SeventyLeaves();
  const MerkleTree tree(leaves);
  ASSERT_EQ(tree.size(), 70u);
  for (uint64_t n = 0; n <= leaves.size(); ++n) {
    ExpectPrefixAsDefined(tree, leaves, n);
    EXPECT_EQ(MerkleRoot(std::span<const Hash>(leaves).first(n)), *tree.Root(n)) << n;
  }
  EXPECT_EQ(tree.Root(71).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(tree.InclusionProof(3, 71).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(tree.InclusionProof(10, 10).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(tree.ConsistencyProof(5, 71).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(tree.ConsistencyProof(11, 10).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(*MerkleTree().Root(0), EmptyRoot());
}

// A tree grown leaf by leaf (as the ledger keeps its proof tree) is the
// tree built at once, at every size.
TEST(MerkleTest, AppendingGrowsTheSameTree) {
  const std::vector<Hash> leaves = SeventyLeaves();
  MerkleTree grown;
  for (uint64_t n = 1; n <= leaves.size(); ++n) {
    grown.Append(leaves[n - 1]);
    ASSERT_EQ(grown.size(), n);
    ExpectPrefixAsDefined(grown, leaves, n);
  }
}

}  // namespace
}  // namespace arbiter::ledger
