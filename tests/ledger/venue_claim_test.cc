// A venue's claim on a game (venue_proofs.h) is written in the transaction
// of the game's first events (AppendRequest::venue_key_der), on both backends:
// a sync that loses the race to a local creation of the same game id
// leaves no claim behind. Before, the sync claimed the game first and then
// appended; when its append failed the claim stayed, and every server then
// refused writes to a game that was not the venue's.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ledger/bundle.h"
#include "ledger/ledger.h"
#include "ledger/postgres/pg.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/venue_proofs.h"
#include "ledger/venue_sync.h"
#include "tests/ledger/backend.h"
#include "tests/ledger/toy_judge.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::TempDir;
using testing::Backend;

// A venue's first append of game `id`, claiming the game for `key`.
AppendRequest FromVenue(std::string id, std::vector<v1::Event> events, std::string key) {
  AppendRequest r =
      AppendRequest::Game(std::move(id), ExpectedRevision::Exactly(0), std::move(events));
  r.venue_key_der = std::move(key);
  return r;
}
using testing::BackendName;
using testing::Created;
using testing::OptionsFor;
using testing::Pass;
using testing::Resign;
using testing::ToyJudge;

const std::string kVenueKey = "the public key (DER) of venue A";
const std::string kOtherKey = "the public key (DER) of venue B";

class VenueClaimTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    LedgerOptions o = OptionsFor(GetParam(), dir_.File("federation"), &uri_);
    o.judge = &judge_;
    absl::StatusOr<std::unique_ptr<Ledger>> l = Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    federation_ = *std::move(l);
    location_ = GetParam() == Backend::kPostgres ? uri_ : dir_.File("federation/ledger.db");
    absl::StatusOr<std::unique_ptr<VenueProofs>> p = VenueProofs::Open(location_);
    ASSERT_TRUE(p.ok()) << p.status();
    proofs_ = *std::move(p);
  }

  std::optional<VenueGame> Claim(const std::string& game) {
    absl::StatusOr<std::optional<VenueGame>> held = proofs_->Find(game);
    EXPECT_TRUE(held.ok()) << held.status();
    return held.value_or(std::nullopt);
  }
  size_t Events(const std::string& game) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> held = federation_->log().ReadGame(game, 0, 1000);
    EXPECT_TRUE(held.ok()) << held.status();
    return held.ok() ? held->size() : 0;
  }
  // A claim without events, as a server before this change could leave.
  void InsertBareClaim(const std::string& game, const std::string& key) {
    const std::string sql = "INSERT INTO venue_games(game_id, venue_id, public_key) VALUES('" +
                            game + "', '" + VenueId(key) + "', '" + key + "')";
    if (GetParam() == Backend::kPostgres) {
      absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
      ASSERT_TRUE(conn.ok()) << conn.status();
      absl::Status s = conn->Run(sql);
      ASSERT_TRUE(s.ok()) << s;
    } else {
      absl::StatusOr<Db> db = Db::Open(location_, SQLITE_OPEN_READWRITE);
      ASSERT_TRUE(db.ok()) << db.status();
      absl::Status s = db->Exec(sql);
      ASSERT_TRUE(s.ok()) << s;
    }
  }

  // A venue's record of game "g", ended and signed: its audit bundle.
  absl::StatusOr<v1::AuditBundle> VenueRecord() {
    LedgerOptions o;
    o.dir = venue_dir_.path();
    o.judge = &venue_judge_;
    {
      absl::StatusOr<std::unique_ptr<Ledger>> venue = Ledger::Open(o);
      if (!venue.ok()) return venue.status();
      absl::StatusOr<std::vector<v1::LedgerEntry>> r = (*venue)->AppendAndWait(AppendRequest::Game(
          "g", ExpectedRevision::Exactly(0), {Created("g"), Pass(v1::BLACK), Resign(v1::WHITE)}));
      if (!r.ok()) return r.status();
      if (absl::StatusOr<v1::Checkpoint> c = (*venue)->Checkpoint(); !c.ok()) return c.status();
    }
    absl::StatusOr<LogReader> reader = LogReader::Open(venue_dir_.File("ledger.db"));
    if (!reader.ok()) return reader.status();
    return ExportBundle(*reader, "g");
  }

  TempDir dir_{"arbiter-venue-claim"};
  TempDir venue_dir_{"arbiter-venue-claim-venue"};
  ToyJudge venue_judge_;
  std::string uri_;
  std::string location_;
  ToyJudge judge_;
  std::unique_ptr<Ledger> federation_;
  std::unique_ptr<VenueProofs> proofs_;
};

TEST_P(VenueClaimTest, AVenuesFirstAppendClaimsTheGameWithItsEvents) {
  auto r = federation_->AppendAndWait(FromVenue("g", {Created("g"), Pass(v1::BLACK)}, kVenueKey));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->size(), 2u);
  std::optional<VenueGame> claim = Claim("g");
  ASSERT_TRUE(claim.has_value());
  EXPECT_EQ(claim->public_key_der, kVenueKey);
  EXPECT_EQ(claim->venue_id, VenueId(kVenueKey));
  // The rest of the game is an ordinary append.
  EXPECT_TRUE(
      federation_
          ->AppendAndWait(AppendRequest::Game("g", ExpectedRevision::Exactly(2), {Pass(v1::WHITE)}))
          .ok());
}

TEST_P(VenueClaimTest, AGameThatHoldsEventsIsNeverClaimed) {
  ASSERT_TRUE(federation_
                  ->AppendAndWait(
                      AppendRequest::Game("g", ExpectedRevision::Exactly(0), {Created("g", "k1")}))
                  .ok());
  // Not even by a batch that repeats recorded events (which Append would
  // answer as a retry).
  for (const std::vector<v1::Event>& batch :
       {std::vector<v1::Event>{Created("g", "k1")},
        std::vector<v1::Event>{Created("g"), Pass(v1::BLACK)}}) {
    auto r = federation_->AppendAndWait(FromVenue("g", batch, kVenueKey));
    EXPECT_TRUE(absl::IsAborted(r.status()) || absl::IsAlreadyExists(r.status())) << r.status();
  }
  EXPECT_FALSE(Claim("g").has_value());
  EXPECT_EQ(Events("g"), 1u);
}

TEST_P(VenueClaimTest, AGameAnotherVenueClaimedIsRefusedAndNothingIsWritten) {
  InsertBareClaim("g", kOtherKey);
  auto r = federation_->AppendAndWait(FromVenue("g", {Created("g")}, kVenueKey));
  EXPECT_TRUE(absl::IsAlreadyExists(r.status())) << r.status();
  EXPECT_EQ(Events("g"), 0u);
  EXPECT_EQ(Claim("g")->public_key_der, kOtherKey);
  // The venue that holds the bare claim writes its first events under it.
  EXPECT_TRUE(federation_->AppendAndWait(FromVenue("g", {Created("g")}, kOtherKey)).ok());
  EXPECT_EQ(Events("g"), 1u);
}

TEST_P(VenueClaimTest, ASyncThatLosesTheRaceToALocalCreationLeavesNoClaim) {
  absl::StatusOr<v1::AuditBundle> bundle = VenueRecord();
  ASSERT_TRUE(bundle.ok()) << bundle.status();

  // A local arbiter creates "g" after the sync found the federation's
  // stream empty, before its first append: the sync's own re-adjudication
  // lets it in the first time it opens the game.
  ToyJudge raced;
  raced.before_open = [this] {
    EXPECT_TRUE(federation_
                    ->AppendAndWait(AppendRequest::Game("g", ExpectedRevision::Exactly(0),
                                                        {Created("g", "local")}))
                    .ok());
  };
  VenueSyncOptions options;
  options.judge = &raced;
  absl::StatusOr<VenueSyncResult> synced = SyncVenueGame(*bundle, *federation_, *proofs_, options);
  EXPECT_TRUE(absl::IsAlreadyExists(synced.status())) << synced.status();  // "g" exists
  EXPECT_EQ(raced.before_open, nullptr) << "the race was not run";

  // The game is the local one, unclaimed, and goes on.
  EXPECT_FALSE(Claim("g").has_value());
  EXPECT_EQ(Events("g"), 1u);
  EXPECT_TRUE(
      federation_
          ->AppendAndWait(AppendRequest::Game("g", ExpectedRevision::Exactly(1), {Pass(v1::BLACK)}))
          .ok());
  // A rerun of the sync finds the federation's own game and says so.
  ToyJudge plain;
  options.judge = &plain;
  absl::StatusOr<VenueSyncResult> rerun = SyncVenueGame(*bundle, *federation_, *proofs_, options);
  EXPECT_TRUE(absl::IsAlreadyExists(rerun.status())) << rerun.status();
  EXPECT_FALSE(Claim("g").has_value());
}

TEST_P(VenueClaimTest, AnUnracedSyncClaimsTheGameWithItsEvents) {
  absl::StatusOr<v1::AuditBundle> bundle = VenueRecord();
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  VenueSyncOptions options;
  options.judge = &judge_;
  options.batch = 2;  // the claim rides on the first of two appends
  absl::StatusOr<VenueSyncResult> synced = SyncVenueGame(*bundle, *federation_, *proofs_, options);
  ASSERT_TRUE(synced.ok()) << synced.status();
  EXPECT_EQ(synced->appended, 3u);
  ASSERT_TRUE(Claim("g").has_value());
  EXPECT_EQ(Claim("g")->public_key_der, bundle->public_key());
  EXPECT_EQ(Events("g"), 3u);
}

INSTANTIATE_TEST_SUITE_P(Backends, VenueClaimTest, ::testing::ValuesIn(testing::kAllBackends),
                         BackendName);

}  // namespace
}  // namespace arbiter::ledger
