// The public broadcast's view of the log (issue 46.4, broadcast.h), on a
// ledger of its own and a clock the test moves: a game is shown as it
// stood `delay` after the server received its events, to the second; its
// events are numbered "<origin>/<position>" and resume after a restart
// with nothing skipped; an id of another log is refused; and nothing of an
// arbiter's note or a recorder's name leaves it (DOMAIN.md "The public
// broadcast", .github/SECURITY.md).
#include "adjudicator/service/console/broadcast.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/console/json.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/struct.pb.h"
#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "tests/support/temp_dir.h"

namespace arbiter::service::console {
namespace {

using ::arbiter::testing::TempDir;

v1::Event EventOf(const std::string& json) {
  v1::Event e;
  EXPECT_TRUE(FromJson(json, &e).ok()) << json;
  return e;
}

constexpr char kCreated[] =
    R"({"at": "2026-06-02T09:00:00Z", "gameCreated": {"gameId": "g1", "ruleset": "cn-2002", )"
    R"("boardSize": 19, "black": {"name": "Chen Jie", "rank": "6d"}, "white": {"name": )"
    R"("Zhao Min", "rank": "6d"}, "venue": "SAME_SITE", "scheduledStart": "2026-06-02T09:00:00Z", )"
    R"("timeControl": {"mainTime": "3600s", "byoYomi": {"periods": 3, "periodTime": "30s"}}}})";
constexpr char kStarted[] = R"({"at": "2026-06-02T09:00:00Z", "gameStarted": {}})";

class BroadcastTest : public ::testing::Test {
 protected:
  void Open() {
    ledger::LedgerOptions options;
    options.dir = dir_.path();
    options.judge = &judge_;
    absl::StatusOr<std::unique_ptr<ledger::Ledger>> l = ledger::Ledger::Open(options);
    ASSERT_TRUE(l.ok()) << l.status();
    ledger_ = *std::move(l);
  }

  std::unique_ptr<Broadcast> Broadcasting(absl::Duration delay) {
    absl::StatusOr<std::unique_ptr<Broadcast>> b =
        Broadcast::Open(ledger_.get(), {.delay = delay, .now = [this] { return now_; }});
    EXPECT_TRUE(b.ok()) << b.status();
    return b.ok() ? *std::move(b) : nullptr;
  }

  void Append(const std::vector<std::string>& events) {
    std::vector<v1::Event> batch;
    for (const std::string& e : events) batch.push_back(EventOf(e));
    ASSERT_TRUE(ledger_
                    ->AppendAndWait(
                        ledger::AppendRequest::Game("g1", ledger::ExpectedRevision::Any(), batch))
                    .ok());
  }

  // When the server received each position (the ledger's record of it).
  absl::flat_hash_map<uint64_t, absl::Time> Arrivals() {
    absl::flat_hash_map<uint64_t, absl::Time> out;
    absl::StatusOr<std::vector<ledger::Arrival>> a = ledger_->log().Arrivals(0, 1000);
    EXPECT_TRUE(a.ok()) << a.status();
    if (a.ok()) {
      for (const ledger::Arrival& x : *a) out[x.position] = x.received_at;
    }
    return out;
  }

  int MoveNumber(Broadcast& b) {
    absl::StatusOr<PublicGame> g = b.Game("g1");
    return g.ok() ? g->state.move_number() : -1;  // -1: not shown at all
  }

  TempDir dir_{"broadcast-test"};
  AdjudicatorJudge judge_;
  std::unique_ptr<ledger::Ledger> ledger_;
  absl::Time now_ = absl::Now();
};

// Played (received) at a3 and a4; with a 15-minute delay the viewers see
// move 1 from a3 + 15m on, not a second before, and move 2 from a4 + 15m.
TEST_F(BroadcastTest, AGameIsShownAsItStoodTheDelayAgoToTheSecond) {
  ASSERT_NO_FATAL_FAILURE(Open());
  Append({kCreated, kStarted,
          R"({"at": "2026-06-02T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})"});
  Append({R"({"at": "2026-06-02T09:00:20Z", "move": {"color": "WHITE", "point": "D4"}})"});
  auto arrived = Arrivals();
  ASSERT_EQ(arrived.size(), 4u) << "the ledger records when each event arrived";
  const absl::Time a3 = arrived[3], a4 = arrived[4];
  ASSERT_LT(a3, a4);
  const absl::Duration delay = absl::Minutes(15);

  now_ = a3 + delay - absl::Seconds(1);
  std::unique_ptr<Broadcast> b = Broadcasting(delay);
  ASSERT_NE(b, nullptr);
  EXPECT_LT(b->released(), 3u);
  EXPECT_LT(MoveNumber(*b), 1) << "move 1 shown a second before its delay ran out";
  ASSERT_TRUE(b->Advance().ok());
  EXPECT_LT(MoveNumber(*b), 1);

  now_ = a3 + delay;
  absl::StatusOr<absl::Time> due = b->Advance();
  ASSERT_TRUE(due.ok()) << due.status();
  EXPECT_EQ(b->released(), 3u);
  EXPECT_EQ(MoveNumber(*b), 1);
  EXPECT_EQ(*due, a4 + delay) << "the next release falls due when move 2's delay runs out";

  now_ = std::max(a3 + delay, a4 + delay - absl::Seconds(1));
  ASSERT_TRUE(b->Advance().ok());
  EXPECT_EQ(MoveNumber(*b), 1) << "move 2 shown before its delay ran out";
  EXPECT_EQ(b->Next(3, 1 << 20).text, "") << "an event of move 2 left before its time";

  now_ = a4 + delay;
  ASSERT_TRUE(b->Advance().ok());
  EXPECT_EQ(b->released(), 4u);
  EXPECT_EQ(MoveNumber(*b), 2);
  const FeedBatch batch = b->Next(3, 1 << 20);
  EXPECT_TRUE(absl::StartsWith(batch.text, absl::StrCat("id: ", b->origin(), "/4\nevent: move\n")))
      << batch.text;
  EXPECT_EQ(batch.next, 4u);
}

// A viewer who saw up to position 2 before the server stopped gets every
// later event from the next server, in position order, none skipped, none
// twice; an id of another log is refused.
TEST_F(BroadcastTest, AViewerResumesAcrossARestartWithNothingSkipped) {
  ASSERT_NO_FATAL_FAILURE(Open());
  Append({kCreated, kStarted,
          R"({"at": "2026-06-02T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})"});
  std::string seen_id;
  now_ = absl::Now();
  {
    std::unique_ptr<Broadcast> b = Broadcasting(absl::ZeroDuration());
    ASSERT_NE(b, nullptr);
    const FeedBatch all = b->Next(0, 1 << 20);
    EXPECT_TRUE(absl::StrContains(all.text, absl::StrCat("id: ", b->origin(), "/1\n")));
    EXPECT_TRUE(absl::StrContains(all.text, absl::StrCat("id: ", b->origin(), "/3\n")));
    seen_id = b->EventId(2);
  }
  ledger_.reset();  // the server stops
  ASSERT_NO_FATAL_FAILURE(Open());
  Append({R"({"at": "2026-06-02T09:00:20Z", "move": {"color": "WHITE", "point": "D4"}})",
          R"({"at": "2026-06-02T09:00:30Z", "move": {"color": "BLACK", "point": "C3"}})"});
  now_ = absl::Now();
  std::unique_ptr<Broadcast> b = Broadcasting(absl::ZeroDuration());
  ASSERT_NE(b, nullptr);
  absl::StatusOr<uint64_t> after = b->ParseEventId(seen_id);
  ASSERT_TRUE(after.ok()) << after.status();
  std::string text;
  uint64_t from = *after;
  for (FeedBatch batch = b->Next(from, 64); !batch.text.empty(); batch = b->Next(from, 64)) {
    text += batch.text;
    from = batch.next;
  }
  std::vector<std::string> ids;
  for (size_t at = text.find("id: "); at != std::string::npos; at = text.find("id: ", at + 1)) {
    ids.push_back(text.substr(at + 4, text.find('\n', at) - at - 4));
  }
  EXPECT_EQ(ids, (std::vector<std::string>{b->EventId(3), b->EventId(4), b->EventId(5)}));
  EXPECT_TRUE(absl::StrContains(text, "\"moveNumber\":3"));

  absl::StatusOr<uint64_t> other = b->ParseEventId("another.example/log/2");
  EXPECT_TRUE(absl::IsInvalidArgument(other.status())) << other.status();
  EXPECT_TRUE(absl::StrContains(other.status().message(), "another log"));
}

// White talks (23.5): the chief arbiter Li Wei decides a warning with a
// note; Black's phone rings. The events carry the recorder's name and
// token, the decision its note; none of it is in what the broadcast gives
// out: the game's JSON, its events, its SGF. (The SGF export of the
// console, for the arbiters, carries the note: the test would see it.)
TEST_F(BroadcastTest, NoNoteAndNoRecordersNameLeaveTheBroadcast) {
  ASSERT_NO_FATAL_FAILURE(Open());
  const std::string actor = R"j("actor": "Li Wei (CHIEF_ARBITER, token 1a2b3c4d)", )j";
  Append({kCreated, kStarted,
          R"({"at": "2026-06-02T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})",
          absl::StrCat(R"({)", actor,
                       R"("at": "2026-06-02T09:01:00Z", "misconduct": {"color": "WHITE", )"
                       R"("kind": "TALK"}})"),
          absl::StrCat(R"({)", actor,
                       R"("at": "2026-06-02T09:02:00Z", "arbiterDecision": {"ruling": 1, )"
                       R"("choice": "WARNING", "note": "NOTE-7f3a the player's excuse"}})"),
          absl::StrCat(R"({)", actor,
                       R"("at": "2026-06-02T09:03:00Z", "phoneRang": {"color": "BLACK"}})")});
  now_ = absl::Now();
  std::unique_ptr<Broadcast> b = Broadcasting(absl::ZeroDuration());
  ASSERT_NE(b, nullptr);
  absl::StatusOr<PublicGame> g = b->Game("g1", /*with_sgf=*/true);
  ASSERT_TRUE(g.ok()) << g.status();
  const FeedBatch events = b->Next(0, 1 << 20);
  ASSERT_FALSE(events.text.empty());
  for (const std::string& out : {PublicGameJson(*g), g->sgf, events.text}) {
    for (const char* secret : {"NOTE-7f3a", "Li Wei", "token", "1a2b3c4d", "CHIEF_ARBITER"}) {
      EXPECT_FALSE(absl::StrContains(out, secret)) << secret << " in:\n" << out;
    }
  }
  EXPECT_TRUE(absl::StrContains(g->sgf, "PB[Chen Jie]")) << g->sgf;
  EXPECT_TRUE(absl::StrContains(g->sgf, ";B[pd]")) << g->sgf;
}

// One Server-Sent Event: its kind, id (empty: none) and data.
struct Sse {
  std::string kind, id, data;
};

std::vector<Sse> EventsOf(const std::string& text) {
  std::vector<Sse> out;
  for (absl::string_view block : absl::StrSplit(text, "\n\n", absl::SkipEmpty())) {
    Sse e;
    for (absl::string_view line : absl::StrSplit(block, '\n')) {
      if (absl::ConsumePrefix(&line, "event: ")) e.kind = std::string(line);
      if (absl::ConsumePrefix(&line, "id: ")) e.id = std::string(line);
      if (absl::ConsumePrefix(&line, "data: ")) e.data = std::string(line);
    }
    out.push_back(e);
  }
  return out;
}

google::protobuf::Struct DataOf(const Sse& e) {
  google::protobuf::Struct s;
  EXPECT_TRUE(FromJson(e.data, &s).ok()) << e.data;
  return s;
}

// A GTP point's place in the rows (row n first), as DOMAIN.md §2 names points.
std::pair<int, int> RowAndColumn(const std::string& point, int n) {
  static constexpr absl::string_view kColumns = "ABCDEFGHJKLMNOPQRST";
  return {n - std::stoi(point.substr(1)), static_cast<int>(kColumns.find(point[0]))};
}

// What a viewer does with an event (DOMAIN.md "The public broadcast"): a
// `board` event replaces the board; a `move` event puts its colour's stone
// on `point` and takes every point of `captured` off.
void ApplyTo(std::vector<std::string>& rows, const Sse& e) {
  const google::protobuf::Struct d = DataOf(e);
  if (e.kind == "board") {
    rows.clear();
    for (const auto& row : d.fields().at("board").list_value().values()) {
      rows.push_back(row.string_value());
    }
    return;
  }
  ASSERT_EQ(e.kind, "move");
  const int n = static_cast<int>(rows.size());
  for (const auto& p : d.fields().at("captured").list_value().values()) {
    auto [r, c] = RowAndColumn(p.string_value(), n);
    rows[r][c] = '.';
  }
  if (d.fields().contains("point")) {
    auto [r, c] = RowAndColumn(d.fields().at("point").string_value(), n);
    rows[r][c] = d.fields().at("color").string_value() == "BLACK" ? 'X' : 'O';
  }
}

// A viewer connects after move 1: it is sent the board of each game (the
// last event with the id of the position released), then a `move` event
// per move: Black takes White's stone on D4 with D3. Each move event is a
// few hundred bytes with the stone, the captures, the move number and the
// clocks in JGOF's fields; the board the viewer builds event by event is the
// broadcast's own after each, and after a displaced stone left where it fell
// (17.5, a `board` event: it changes the board other than by a move) too.
TEST_F(BroadcastTest, AMoveIsSentAsItsStoneAndCapturesAndTheViewersBoardFollows) {
  ASSERT_NO_FATAL_FAILURE(Open());
  Append({kCreated, kStarted,
          R"({"at": "2026-06-02T09:00:10Z", "move": {"color": "BLACK", "point": "Q16"}})"});
  now_ = absl::Now();
  std::unique_ptr<Broadcast> b = Broadcasting(absl::ZeroDuration());
  ASSERT_NE(b, nullptr);
  const FeedBatch snapshot = b->Next(Broadcast::kSnapshot, 1 << 20);
  const std::vector<Sse> first = EventsOf(snapshot.text);
  ASSERT_EQ(first.size(), 1u) << snapshot.text;
  EXPECT_EQ(first[0].kind, "board");
  EXPECT_EQ(first[0].id, b->EventId(3));
  EXPECT_EQ(snapshot.next, 3u);
  std::vector<std::string> rows;
  ApplyTo(rows, first[0]);
  ASSERT_EQ(rows.size(), 19u);

  const std::vector<std::pair<const char*, const char*>> moves = {
      {"WHITE", "D4"}, {"BLACK", "D5"}, {"WHITE", "Q4"},  {"BLACK", "C4"},
      {"WHITE", "Q3"}, {"BLACK", "E4"}, {"WHITE", "R16"}, {"BLACK", "D3"}};
  uint64_t from = snapshot.next;
  for (int k = 0; k < static_cast<int>(moves.size()); ++k) {
    Append({absl::StrCat(R"({"at": "2026-06-02T09:00:)", 20 + k, R"(Z", "move": {"color": ")",
                         moves[k].first, R"(", "point": ")", moves[k].second, R"("}})")});
    now_ = absl::Now();  // received: due with no delay
    ASSERT_TRUE(b->Advance().ok());
    const FeedBatch batch = b->Next(from, 1 << 20);
    from = batch.next;
    const std::vector<Sse> events = EventsOf(batch.text);
    ASSERT_EQ(events.size(), 1u) << batch.text;
    const Sse& e = events[0];
    EXPECT_EQ(e.kind, "move") << e.data;
    EXPECT_LT(e.data.size(), 400u) << "a move event is its stone, not the board: " << e.data;
    const google::protobuf::Struct d = DataOf(e);
    EXPECT_FALSE(d.fields().contains("board")) << e.data;
    EXPECT_EQ(d.fields().at("moveNumber").number_value(), k + 2);
    EXPECT_EQ(d.fields().at("color").string_value(), moves[k].first);
    EXPECT_EQ(d.fields().at("point").string_value(), moves[k].second);
    const auto& clock = d.fields().at("clocks").struct_value().fields().at("black").struct_value();
    for (const char* field : {"main_time", "periods_left", "period_time_left"}) {
      EXPECT_TRUE(clock.fields().contains(field)) << field << " in " << e.data;
    }
    const auto& taken = d.fields().at("captured").list_value();
    const bool capture = k + 1 == static_cast<int>(moves.size());  // D3 takes D4
    ASSERT_EQ(taken.values_size(), capture ? 1 : 0) << e.data;
    if (capture) EXPECT_EQ(taken.values(0).string_value(), "D4");
    ASSERT_NO_FATAL_FAILURE(ApplyTo(rows, e));
    absl::StatusOr<PublicGame> g = b->Game("g1");
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ(rows, std::vector<std::string>(g->state.board().begin(), g->state.board().end()))
        << "after move " << k + 2;
  }
  EXPECT_EQ(rows[15][3], '.') << "D4 taken off by D3";
  const std::vector<Sse> last = EventsOf(b->Next(Broadcast::kSnapshot, 1 << 20).text);
  ASSERT_EQ(last.size(), 1u);
  std::vector<std::string> fresh;
  ApplyTo(fresh, last[0]);
  EXPECT_EQ(rows, fresh) << "the board built move by move is a new viewer's snapshot";

  // 17.5: Q16 knocked to Q17, and the players agree it stays there.
  Append({R"({"at": "2026-06-02T09:00:40Z", "stonesDisplaced": {"points": [{"from": "Q16", )"
          R"("to": "Q17"}], "agreement": "STANDS"}})"});
  now_ = absl::Now();
  ASSERT_TRUE(b->Advance().ok());
  const std::vector<Sse> displaced = EventsOf(b->Next(from, 1 << 20).text);
  ASSERT_EQ(displaced.size(), 1u);
  EXPECT_EQ(displaced[0].kind, "board") << displaced[0].data;
  ASSERT_NO_FATAL_FAILURE(ApplyTo(rows, displaced[0]));
  EXPECT_EQ(rows[3][15], '.') << "Q16 is empty";
  EXPECT_EQ(rows[2][15], 'X') << "Black's stone stands on Q17";
}

TEST(BroadcastDelay, FromZeroToSixtyMinutes) {
  EXPECT_EQ(*ParseBroadcastDelay("15m"), absl::Minutes(15));
  EXPECT_EQ(*ParseBroadcastDelay("0s"), absl::ZeroDuration());
  EXPECT_EQ(*ParseBroadcastDelay("60m"), absl::Minutes(60));
  for (const char* bad : {"61m", "-1s", "2h", "soon"}) {
    absl::StatusOr<absl::Duration> d = ParseBroadcastDelay(bad);
    EXPECT_TRUE(absl::IsInvalidArgument(d.status())) << bad;
    EXPECT_TRUE(absl::StrContains(d.status().message(), "0s to 60m")) << d.status();
  }
}

}  // namespace
}  // namespace arbiter::service::console
