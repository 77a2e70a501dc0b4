// The adjudicator's event log (adjudicator/engine/event_log.h): copies share
// their common events, and each copy that goes on keeps its own, on one
// thread or several.
#include "adjudicator/engine/event_log.h"

#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace arbiter {
namespace {

v1::Event Named(const std::string& name) {
  v1::Event e;
  e.set_idempotency_key(name);
  return e;
}

std::vector<std::string> Names(const EventLog& log) {
  std::vector<std::string> out;
  for (size_t i = 0; i < log.size(); ++i) out.push_back(log[i].idempotency_key());
  return out;
}

std::vector<std::string> Expected(const std::string& prefix, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(absl::StrCat(prefix, i));
  return out;
}

TEST(EventLogTest, KeepsEveryEventInOrderAcrossChunks) {
  EventLog log;
  for (size_t i = 0; i < 3 * EventLog::kChunk + 5; ++i) log.push_back(Named(absl::StrCat("e", i)));
  EXPECT_EQ(Names(log), Expected("e", 3 * EventLog::kChunk + 5));
}

TEST(EventLogTest, CopiesThatGoOnDifferentlyKeepTheirOwnEvents) {
  for (size_t common : {size_t{0}, size_t{1}, EventLog::kChunk - 1, EventLog::kChunk,
                        EventLog::kChunk + 1, 2 * EventLog::kChunk + 7}) {
    SCOPED_TRACE(common);
    EventLog base;
    for (size_t i = 0; i < common; ++i) base.push_back(Named(absl::StrCat("e", i)));
    EventLog a = base;
    EventLog b = base;
    a.push_back(Named("a"));
    b.push_back(Named("b1"));
    b.push_back(Named("b2"));
    // The original, copied from before either went on, goes on too.
    base.push_back(Named("base"));
    std::vector<std::string> want = Expected("e", common);
    auto with = [&want](std::vector<std::string> more) {
      std::vector<std::string> out = want;
      out.insert(out.end(), more.begin(), more.end());
      return out;
    };
    EXPECT_EQ(Names(a), with({"a"}));
    EXPECT_EQ(Names(b), with({"b1", "b2"}));
    EXPECT_EQ(Names(base), with({"base"}));
    // A copy of a copy, after the others wrote past it.
    EventLog c = a;
    c.push_back(Named("c"));
    a.push_back(Named("a2"));
    EXPECT_EQ(Names(c), with({"a", "c"}));
    EXPECT_EQ(Names(a), with({"a", "a2"}));
  }
}

TEST(EventLogTest, CopiesGoOnConcurrentlyOnTheirOwnThreads) {
  EventLog base;
  for (size_t i = 0; i < EventLog::kChunk / 2; ++i) base.push_back(Named(absl::StrCat("e", i)));
  constexpr int kCopies = 4;
  constexpr size_t kEach = 5 * EventLog::kChunk;
  std::vector<EventLog> copies(kCopies, base);
  std::vector<std::thread> threads;
  for (int t = 0; t < kCopies; ++t) {
    threads.emplace_back([&copies, t] {
      for (size_t i = 0; i < kEach; ++i) copies[t].push_back(Named(absl::StrCat("t", t, "-", i)));
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kCopies; ++t) {
    std::vector<std::string> want = Expected("e", EventLog::kChunk / 2);
    for (const std::string& n : Expected(absl::StrCat("t", t, "-"), kEach)) want.push_back(n);
    EXPECT_EQ(Names(copies[t]), want) << t;
  }
  EXPECT_EQ(Names(base), Expected("e", EventLog::kChunk / 2));
}

}  // namespace
}  // namespace arbiter
