// The Merkle proofs an audit and a bundle need. `arbiter verify` proves
// consistency between every pair of successive checkpoints (one per game's
// end and periodic ones), `arbiter export --bundle` proves inclusion of every
// event of the game. Each proof computed from the bare leaves is O(n), which
// made both quadratic in the size of the log; MerkleTree stores every
// perfect subtree once. Run: build/bin/merkle_bench
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "ledger/hash.h"
#include "ledger/merkle.h"

namespace arbiter::ledger {
namespace {

constexpr uint64_t kEventsPerCheckpoint = 250;  // a game's length, about

std::vector<Hash> Leaves(uint64_t n) {
  std::vector<Hash> leaves;
  leaves.reserve(n);
  for (uint64_t i = 0; i < n; ++i) leaves.push_back(LeafHash("event " + std::to_string(i)));
  return leaves;
}

// What the audit does after walking the log: one MerkleTree, then a
// consistency proof per checkpoint pair.
void BM_AuditConsistencyProofs(benchmark::State& state) {
  const std::vector<Hash> leaves = Leaves(state.range(0));
  for (auto _ : state) {
    const MerkleTree tree(leaves);
    for (uint64_t b = 2 * kEventsPerCheckpoint; b <= tree.size(); b += kEventsPerCheckpoint) {
      benchmark::DoNotOptimize(tree.ConsistencyProof(b - kEventsPerCheckpoint, b));
    }
  }
  state.counters["proofs"] = static_cast<double>(leaves.size() / kEventsPerCheckpoint - 1);
}
BENCHMARK(BM_AuditConsistencyProofs)->Arg(25'000)->Arg(250'000)->Unit(benchmark::kMillisecond);

// The same proofs each computed from the leaves (the audit before
// MerkleTree).
void BM_AuditConsistencyProofsFromLeaves(benchmark::State& state) {
  const std::vector<Hash> leaves = Leaves(state.range(0));
  const std::span<const Hash> all(leaves);
  for (auto _ : state) {
    for (uint64_t b = 2 * kEventsPerCheckpoint; b <= all.size(); b += kEventsPerCheckpoint) {
      benchmark::DoNotOptimize(ConsistencyProof(b - kEventsPerCheckpoint, all.first(b)));
    }
  }
}
BENCHMARK(BM_AuditConsistencyProofsFromLeaves)->Arg(25'000)->Unit(benchmark::kMillisecond);

// A bundle: inclusion proofs of one game's events against the latest
// checkpoint.
void BM_BundleInclusionProofs(benchmark::State& state) {
  const std::vector<Hash> leaves = Leaves(state.range(0));
  for (auto _ : state) {
    const MerkleTree tree(leaves);
    for (uint64_t i = tree.size() - kEventsPerCheckpoint; i < tree.size(); ++i) {
      benchmark::DoNotOptimize(tree.InclusionProof(i, tree.size()));
    }
  }
}
BENCHMARK(BM_BundleInclusionProofs)->Arg(25'000)->Arg(250'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace arbiter::ledger

BENCHMARK_MAIN();
