#include "adjudicator/engine/situation_set.h"

#include <random>
#include <set>

#include "gtest/gtest.h"

namespace arbiter {
namespace {

// Far more keys than the initial table holds, so it grows several times.
TEST(SituationSetTest, HoldsWhatWasInsertedAndNothingElse) {
  std::mt19937_64 random(6);
  std::set<uint64_t> inserted;
  SituationSet set;
  EXPECT_FALSE(set.Contains(0));
  for (int i = 0; i < 5000; ++i) {
    const uint64_t key = i % 7 == 0 ? (random() & 0xFFF) : random();  // some collide on low bits
    set.Insert(key);
    set.Insert(key);  // twice is harmless
    inserted.insert(key);
  }
  set.Insert(0);
  inserted.insert(0);
  for (const uint64_t key : inserted) EXPECT_TRUE(set.Contains(key)) << key;
  int absent = 0;
  for (int i = 0; i < 5000; ++i) {
    const uint64_t key = random();
    if (inserted.count(key) == 0) {
      ++absent;
      EXPECT_FALSE(set.Contains(key)) << key;
    }
  }
  EXPECT_GT(absent, 4900);
}

}  // namespace
}  // namespace arbiter
