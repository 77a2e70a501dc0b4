// The commit feed's window (ledger/commit_feed.h): what it keeps, what it
// says of a follower before it, and that it never joins what does not join.
#include "ledger/commit_feed.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "ledger/log_source.h"

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

// The database's log, as far as ReadPublished reads it: `entries` is what
// it has committed, ahead of the feed's head when a commit is still being
// handed on.
class DatabaseLog final : public LogSource {
 public:
  explicit DatabaseLog(std::vector<v1::LedgerEntry> entries) : entries_(std::move(entries)) {}
  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadLog(uint64_t after, size_t max) override {
    std::vector<v1::LedgerEntry> out;
    for (const v1::LedgerEntry& e : entries_) {
      if (e.position() > after && out.size() < max) out.push_back(e);
    }
    return out;
  }
  absl::StatusOr<uint64_t> Head() override { return entries_.size(); }
  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadGame(const std::string&, uint64_t,
                                                        size_t) override {
    return Unused();
  }
  absl::StatusOr<std::optional<v1::LedgerEntry>> FindKey(const std::string&,
                                                         const std::string&) override {
    return Unused();
  }
  absl::StatusOr<uint64_t> GameRevision(const std::string&) override { return Unused(); }
  absl::StatusOr<std::vector<GameListing>> ListGames(uint64_t, size_t) override { return Unused(); }
  absl::StatusOr<std::vector<std::string>> ListTournaments() override { return Unused(); }
  absl::StatusOr<std::string> RulesPin(const std::string&) override { return Unused(); }
  absl::StatusOr<std::vector<v1::Checkpoint>> Checkpoints() override { return Unused(); }
  absl::StatusOr<std::vector<Hash>> LeafHashes(uint64_t, uint64_t) override { return Unused(); }
  absl::StatusOr<std::string> RecordedPublicKey() override { return Unused(); }
  absl::StatusOr<std::vector<Arrival>> Arrivals(uint64_t, size_t) override { return Unused(); }

 private:
  static absl::Status Unused() { return absl::UnimplementedError("not read by ReadPublished"); }
  std::vector<v1::LedgerEntry> entries_;
};

std::vector<uint64_t> Published(CommitFeed& feed, LogSource& log, uint64_t after, size_t max) {
  std::vector<uint64_t> out;
  absl::StatusOr<size_t> n = ReadPublished(
      feed, log, after, max, [&](const v1::LedgerEntry& e) { out.push_back(e.position()); });
  EXPECT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(n.value_or(0), out.size());
  return out;
}

// A follower reads from the window, or from the database behind it, but never
// past the feed's head: the database's entries 7 and 8 are committed and not
// yet published (their folds may not be handed on), so a follower reads them
// once their publish has told it to.
TEST(CommitFeedTest, ReadPublishedStopsAtTheFeedsHeadThoughTheDatabaseHoldsMore) {
  DatabaseLog database(Entries(1, 8));
  CommitFeed feed(CommitFeed::Limits{.max_entries = 2, .max_bytes = 1 << 20});
  feed.Publish(6, Entries(1, 6));  // the window keeps 5 and 6
  EXPECT_EQ(Published(feed, database, 0, 100), (std::vector<uint64_t>{1, 2, 3, 4, 5, 6}))
      << "behind the window: from the database, to the feed's head";
  EXPECT_EQ(Published(feed, database, 1, 2), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(Published(feed, database, 4, 100), (std::vector<uint64_t>{5, 6}));
  EXPECT_TRUE(Published(feed, database, 6, 100).empty()) << "7 and 8 are not published yet";

  feed.Publish(8, Entries(7, 8));
  EXPECT_EQ(Published(feed, database, 6, 100), (std::vector<uint64_t>{7, 8}));
  EXPECT_EQ(Published(feed, database, 0, 100), (std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8}));

  CommitFeed opening;  // nothing published yet (a PostgreSQL server before its first read)
  EXPECT_TRUE(Published(opening, database, 0, 100).empty());
}

}  // namespace
}  // namespace arbiter::ledger
