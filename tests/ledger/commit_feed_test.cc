// The commit feed's window (ledger/commit_feed.h): what it keeps, what it
// says of a follower before it, and that it never joins what does not join.
#include "ledger/commit_feed.h"

#include <vector>

#include "gtest/gtest.h"

namespace arbiter::ledger {
namespace {

v1::LedgerEntry Entry(uint64_t position, size_t bytes = 10) {
  v1::LedgerEntry e;
  e.set_position(position);
  e.set_game_id("g");
  e.set_revision(position);
  e.set_event(std::string(bytes, 'e'));
  return e;
}

std::vector<v1::LedgerEntry> Entries(uint64_t from, uint64_t to, size_t bytes = 10) {
  std::vector<v1::LedgerEntry> out;
  for (uint64_t p = from; p <= to; ++p) out.push_back(Entry(p, bytes));
  return out;
}

std::vector<uint64_t> Positions(const CommitFeed::Slice& s) {
  std::vector<uint64_t> out;
  for (const auto& e : s.entries) out.push_back(e->position());
  return out;
}

TEST(CommitFeedTest, KeepsTheNewestEntriesByCountAndBytes) {
  CommitFeed feed(CommitFeed::Limits{.max_entries = 5, .max_bytes = 1 << 20});
  feed.Publish(10, {});  // the head at opening: nothing kept, followers after 10 are in it
  EXPECT_EQ(feed.first(), 11u);
  EXPECT_TRUE(feed.Read(10, 100).in_window);
  EXPECT_FALSE(feed.Read(9, 100).in_window);

  // Out of order, with an idempotent replay's old entry: sorted, the old one left out.
  std::vector<v1::LedgerEntry> batch = Entries(11, 13);
  std::swap(batch[0], batch[2]);
  batch.push_back(Entry(4));
  feed.Publish(13, batch);
  EXPECT_EQ(Positions(feed.Read(10, 100)), (std::vector<uint64_t>{11, 12, 13}));
  EXPECT_EQ(Positions(feed.Read(11, 1)), (std::vector<uint64_t>{12}));
  EXPECT_TRUE(feed.Read(13, 100).entries.empty());
  EXPECT_TRUE(feed.Read(99, 100).in_window);  // beyond the head: waits there

  feed.Publish(17, Entries(14, 17));  // 7 entries: the oldest 2 go
  EXPECT_EQ(feed.first(), 13u);
  EXPECT_FALSE(feed.Read(11, 100).in_window);
  EXPECT_EQ(Positions(feed.Read(12, 100)), (std::vector<uint64_t>{13, 14, 15, 16, 17}));

  CommitFeed small(CommitFeed::Limits{.max_entries = 100, .max_bytes = 100});
  small.Publish(3, Entries(1, 3, 40));  // about 45 bytes each: only 2 fit
  EXPECT_EQ(small.first(), 2u);
}

TEST(CommitFeedTest, ACommitThatDoesNotJoinRestartsTheWindow) {
  CommitFeed feed;
  feed.Publish(3, Entries(1, 3));
  // Another process's commits seen only as a head (a shared ledger).
  feed.Publish(6, {});
  EXPECT_EQ(feed.first(), 7u);
  EXPECT_FALSE(feed.Read(3, 100).in_window)
      << "4..6 are not in the feed: read them from the database";
  // A batch with a hole in it is not taken either.
  std::vector<v1::LedgerEntry> holed = Entries(7, 9);
  holed.erase(holed.begin() + 1);
  feed.Publish(9, holed);
  EXPECT_EQ(feed.first(), 10u);
  EXPECT_TRUE(feed.Read(9, 100).entries.empty());
  // An older head changes nothing.
  feed.Publish(5, Entries(5, 5));
  EXPECT_EQ(feed.head(), 9u);
}

TEST(CommitFeedTest, BytesAfterIsWhatAFollowerHasYetToBeSent) {
  CommitFeed feed;
  feed.Publish(4, Entries(1, 4, 100));
  const size_t each = Entry(1, 100).ByteSizeLong();
  EXPECT_EQ(feed.BytesAfter(4), 0u);
  EXPECT_EQ(feed.BytesAfter(3), each);
  EXPECT_EQ(feed.BytesAfter(0), 4 * each);
  feed.Publish(6, {});
  EXPECT_EQ(feed.BytesAfter(4), SIZE_MAX) << "before the window";
}

TEST(CommitFeedTest, ListenersHearEachCommitAndTheClose) {
  CommitFeed feed;
  std::vector<uint64_t> heard;
  const int id = feed.AddListener([&](uint64_t head) { heard.push_back(head); });
  feed.Publish(2, Entries(1, 2));
  feed.Publish(2, {});  // no new head: no news
  feed.Close();
  EXPECT_EQ(heard, (std::vector<uint64_t>{2, 2}));
  EXPECT_TRUE(feed.Read(2, 10).closed);
  feed.RemoveListener(id);
  feed.Publish(3, Entries(3, 3));  // closed: ignored
  EXPECT_EQ(heard.size(), 2u);
  EXPECT_EQ(feed.head(), 2u);
}

TEST(CommitFeedTest, ListenersHearANewerCheckpointEvenAtTheSameHead) {
  CommitFeed feed;
  std::vector<uint64_t> heard;
  feed.AddListener([&](uint64_t head) { heard.push_back(head); });
  feed.Publish(3, Entries(1, 3));
  EXPECT_EQ(feed.checkpointed(), 0u);
  feed.PublishCheckpoint(3);  // signed with no entry: same head, still news
  feed.PublishCheckpoint(2);  // older: not news
  feed.PublishCheckpoint(3);  // the same: not news
  EXPECT_EQ(heard, (std::vector<uint64_t>{3, 3}));
  EXPECT_EQ(feed.checkpointed(), 3u);
  feed.Close();
  feed.PublishCheckpoint(4);  // closed: ignored
  EXPECT_EQ(feed.checkpointed(), 3u);
}

}  // namespace
}  // namespace arbiter::ledger
