// The byte limits of request strings (adjudicator/service/field_bounds.h),
// checked on whole requests as the admission step checks them: every string
// at any depth (events' kinds, a oneof's one member set, repeated fields)
// has its limit, a refusal names the first field over it by its path, and a
// venue's audit bundle is bounded as a whole, not by its strings.
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "adjudicator/service/field_bounds.h"
#include "arbiter/v1/service.pb.h"
#include "gtest/gtest.h"

namespace arbiter::service {
namespace {

v1::AppendEventsRequest TwoEvents() {
  v1::AppendEventsRequest req;
  req.set_game("games/g1");
  v1::Event* pass = req.add_events();
  pass->set_idempotency_key("k1");
  pass->mutable_pass()->set_color(v1::BLACK);
  v1::Event* error = req.add_events();
  error->set_idempotency_key("k2");
  error->mutable_capture_error()->set_color(v1::WHITE);
  for (const char* point : {"Q16", "D4", "C3"}) error->mutable_capture_error()->add_points(point);
  return req;
}

TEST(FieldBoundsTest, StringsWithinTheirLimitsPass) {
  v1::AppendEventsRequest req = TwoEvents();
  // A name may be 256 bytes, a key 128: both at their limit.
  req.mutable_events(1)->mutable_capture_error()->set_points(1, std::string(kMaxNameBytes, 'p'));
  req.mutable_events(0)->set_idempotency_key(std::string(kMaxKeyBytes, 'k'));
  EXPECT_TRUE(CheckRequest(req).ok()) << CheckRequest(req);
}

TEST(FieldBoundsTest, AStringInsideAnEventsKindIsCheckedAndNamedByItsPath) {
  v1::AppendEventsRequest req = TwoEvents();
  req.mutable_events(1)->mutable_capture_error()->set_points(2, std::string(300, 'p'));
  const absl::Status s = CheckRequest(req);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      absl::StartsWith(s.message(), "events[1].captureError.points[2]: 300 bytes, at most 256 "))
      << s;
}

TEST(FieldBoundsTest, EachKindOfStringHasItsOwnLimit) {
  v1::AppendEventsRequest req = TwoEvents();
  req.mutable_events(0)->set_idempotency_key(std::string(kMaxKeyBytes + 1, 'k'));
  absl::Status s = CheckRequest(req);
  EXPECT_TRUE(absl::StartsWith(s.message(), "events[0].idempotencyKey: 129 bytes, at most 128"))
      << s;

  v1::DecideRequest decide;
  decide.set_note(std::string(kMaxTextBytes, 'n'));
  EXPECT_TRUE(CheckRequest(decide).ok());
  decide.set_note(std::string(kMaxTextBytes + 1, 'n'));
  s = CheckRequest(decide);
  EXPECT_TRUE(absl::StartsWith(s.message(), "note: 1025 bytes, at most 1024")) << s;
}

TEST(FieldBoundsTest, TheFirstFieldOverItsLimitIsTheOneNamed) {
  v1::AppendEventsRequest req = TwoEvents();
  req.set_game(std::string(1000, 'g'));
  req.mutable_events(0)->set_idempotency_key(std::string(1000, 'k'));
  const absl::Status s = CheckRequest(req);
  EXPECT_TRUE(absl::StartsWith(s.message(), "game: 1000 bytes")) << s;
}

TEST(FieldBoundsTest, AVenuesAuditBundleIsNotCheckedStringByString) {
  v1::SyncVenueGameRequest req;
  req.mutable_bundle()->set_game_id("g1");
  req.mutable_bundle()->set_rules_pin(std::string(5000, 'r'));
  EXPECT_TRUE(CheckRequest(req).ok());
}

// proto3 keeps an enum number its type does not name as it came (from the
// wire, or as a number in JSON): nothing would refuse it further on, and
// the stored event would hold it.
TEST(FieldBoundsTest, AnEnumNumberItsTypeDoesNotNameIsRefusedByPath) {
  v1::AppendEventsRequest req = TwoEvents();
  req.mutable_events(1)->mutable_stones_displaced()->set_agreement(
      static_cast<v1::StonesDisplaced::Agreement>(9));
  absl::Status s = CheckRequest(req);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "events[1].stonesDisplaced.agreement: 9 is not a value of Agreement "
            "(AGREEMENT_UNSPECIFIED, RESTORE, STANDS, NONE)");

  v1::CreateGameRequest create;
  create.mutable_game()->set_venue(static_cast<v1::GameCreated::Venue>(-3));
  s = CheckRequest(create);
  EXPECT_TRUE(absl::StartsWith(s.message(), "game.venue: -3 is not a value of Venue")) << s;
  create.mutable_game()->set_venue(v1::GameCreated::RAPID);
  create.mutable_game()->mutable_setup()->set_first_to_move(static_cast<v1::Color>(9));
  s = CheckRequest(create);
  EXPECT_TRUE(absl::StartsWith(s.message(), "game.setup.firstToMove: 9 is not a value of Color"))
      << s;
  EXPECT_EQ(CheckEnums(create, "line 1").message().substr(0, 30), "line 1.game.setup.firstToMove:");
  create.mutable_game()->mutable_setup()->set_first_to_move(v1::WHITE);
  EXPECT_TRUE(CheckRequest(create).ok());
}

}  // namespace
}  // namespace arbiter::service
