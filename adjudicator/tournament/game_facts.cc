#include "adjudicator/tournament/game_facts.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"

namespace arbiter::tournament {

void CountWarnings(const google::protobuf::RepeatedPtrField<v1::Ruling>& rulings,
                   GameFacts* facts) {
  // 16.3-16.4: an overturned ruling stays in the history, its sanctions
  // lifted; the decision that overturned it names it in `supersedes`.
  absl::flat_hash_set<uint32_t> superseded;
  for (const v1::Ruling& r : rulings) {
    if (r.supersedes() != 0 && !r.pending()) superseded.insert(r.supersedes());
  }
  for (const v1::Ruling& r : rulings) {
    if (r.pending() || superseded.contains(r.number())) continue;
    if (std::find(r.sanctions().begin(), r.sanctions().end(), v1::WARNING) == r.sanctions().end())
      continue;
    if (r.against() == v1::Ruling::BLACK || r.against() == v1::Ruling::BOTH)
      ++facts->warnings_black;
    if (r.against() == v1::Ruling::WHITE || r.against() == v1::Ruling::BOTH)
      ++facts->warnings_white;
  }
}

}  // namespace arbiter::tournament
