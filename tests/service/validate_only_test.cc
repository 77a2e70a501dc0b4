// AppendEventsRequest.validate_only and DecideRequest.validate_only (issue
// 29.3): a dry run through the path of a real append, answering the events,
// rulings and result that would be recorded, storing nothing: the game's
// events, revision, result and pending rulings stay as they were, and the
// idempotency key it carried is still free.
#include <memory>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

using ::google::protobuf::util::MessageDifferencer;

grpc::Status DryRun(v1::Arbiter::Stub& stub, const std::string& game,
                    const std::vector<v1::Event>& events, v1::AppendEventsResponse* out,
                    std::optional<uint64_t> expected = std::nullopt) {
  return Append(stub, game, events, out, expected, /*validate_only=*/true);
}

v1::ListEventsResponse Events(v1::Arbiter::Stub& stub, const std::string& game) {
  grpc::ClientContext ctx;
  v1::ListEventsRequest req;
  req.set_game("games/" + game);
  req.set_page_size(1000);
  v1::ListEventsResponse out;
  const grpc::Status s = stub.ListEvents(&ctx, req, &out);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return out;
}

// phone-twice: the second ringing phone loses Black the game (23.7).
class ValidateOnlyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    events_ = ReadEvents(Scenario("phone-twice"), game_);
    ASSERT_EQ(events_.size(), 8u);
    last_ = Keyed(events_.back(), "second-ring");
    events_.pop_back();
    v1::AppendEventsResponse out;
    const grpc::Status s = Append(*stub_, game_, events_, &out);
    ASSERT_TRUE(s.ok()) << s.error_message();
    ASSERT_EQ(out.revision(), 7u);
  }

  std::unique_ptr<v1::Arbiter::Stub> stub_ = Stub();
  std::string game_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::vector<v1::Event> events_;
  v1::Event last_;
};

TEST_F(ValidateOnlyTest, AnswersTheRulingsAndStoresNothing) {
  const v1::ListEventsResponse before = Events(*stub_, game_);
  v1::AppendEventsResponse dry;
  const grpc::Status s = DryRun(*stub_, game_, {last_}, &dry, 7);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(dry.events_size(), 1);
  EXPECT_EQ(dry.revision(), 8u);
  EXPECT_EQ(dry.events(0).revision(), 8u);
  ASSERT_EQ(dry.events(0).rulings_size(), 1);
  EXPECT_EQ(dry.events(0).rulings(0).clause(), "cn-2002/23.7");
  ASSERT_EQ(dry.events(0).rulings(0).sanctions_size(), 1);
  EXPECT_EQ(dry.events(0).rulings(0).sanctions(0), v1::LOSS);
  EXPECT_EQ(dry.result().outcome(), v1::Result::WHITE_WINS);

  // Nothing stored: the same events, no result, the same revision.
  EXPECT_TRUE(MessageDifferencer::Equals(Events(*stub_, game_), before));
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub_, game_, &game).ok());
  EXPECT_EQ(game.revision(), 7u);
  EXPECT_FALSE(game.has_result());

  // The key is still free, and the real append records what the dry run said.
  v1::AppendEventsResponse real;
  const grpc::Status r = Append(*stub_, game_, {last_}, &real, 7);
  ASSERT_TRUE(r.ok()) << r.error_message();
  EXPECT_TRUE(MessageDifferencer::Equals(real, dry)) << real.DebugString() << "\n"
                                                     << dry.DebugString();
}

TEST_F(ValidateOnlyTest, RefusedAsTheRealAppendIs) {
  v1::AppendEventsResponse out;
  // The stream moved on: ABORTED, naming the revision.
  grpc::Status s = DryRun(*stub_, game_, {last_}, &out, 3);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED) << s.error_message();
  // An occupied point: the engine's refusal.
  v1::Event occupied = MoveAt(absl::FromUnixSeconds(1777626100), v1::BLACK, "Q16");
  s = DryRun(*stub_, game_, {occupied}, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  const grpc::Status real = Append(*stub_, game_, {occupied}, &out);
  EXPECT_EQ(real.error_code(), s.error_code());
  EXPECT_EQ(real.error_message(), s.error_message());
  // Dated three hours ahead of the clock and not a replay: the clock guard.
  v1::Event ahead = last_;
  ToProto(absl::Now() + absl::Hours(3), ahead.mutable_at());
  s = DryRun(*stub_, game_, {ahead}, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_NE(s.error_message().find("ahead of the server's clock"), std::string::npos);
  EXPECT_EQ(Events(*stub_, game_).events_size(), 7);
}

TEST_F(ValidateOnlyTest, RetryOfRecordedEventsIsAnsweredWithThem) {
  v1::AppendEventsResponse real;
  ASSERT_TRUE(Append(*stub_, game_, {last_}, &real).ok());
  v1::AppendEventsResponse dry;
  const grpc::Status s = DryRun(*stub_, game_, {last_}, &dry);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(MessageDifferencer::Equals(real, dry));
  // Other content under the same key: ALREADY_EXISTS, as for a real append.
  v1::Event other = last_;
  other.mutable_phone_rang()->set_color(v1::WHITE);
  EXPECT_EQ(DryRun(*stub_, game_, {other}, &dry).error_code(), grpc::StatusCode::ALREADY_EXISTS);
}

// A dry-run decision: the ruling it would bring, the pending one left pending.
TEST(ValidateOnlyDecide, LeavesThePendingRuling) {
  std::unique_ptr<v1::Arbiter::Stub> stub = Stub();
  const std::string id = "dry-decide";
  const absl::Time t = T0();
  v1::Event fault = At(t + absl::Seconds(20));
  v1::ClockMalfunction* m = fault.mutable_clock_malfunction();
  m->mutable_error_per_hour()->set_seconds(30);
  m->mutable_black_used()->set_seconds(10);
  m->mutable_white_used()->set_seconds(10);
  v1::Event created = Created(id, t);
  created.mutable_game_created()->mutable_time_control()->mutable_main_time()->set_seconds(3600);
  v1::AppendEventsResponse out;
  grpc::Status s =
      Append(*stub, id,
             {created, Started(t), MoveAt(t + absl::Seconds(10), v1::BLACK, "Q16"), fault}, &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(out.events(3).rulings_size(), 1);
  ASSERT_TRUE(out.events(3).rulings(0).pending());
  ASSERT_GT(out.events(3).rulings(0).options_size(), 0);
  const std::string choice = out.events(3).rulings(0).options(0).id();

  v1::DecideRequest decide;
  decide.set_game("games/" + id);
  decide.set_ruling(out.events(3).rulings(0).number());
  decide.set_choice(choice);
  ToProto(t + absl::Seconds(30), decide.mutable_at());
  decide.set_validate_only(true);
  grpc::ClientContext ctx;
  v1::AppendEventsResponse dry;
  s = stub->Decide(&ctx, decide, &dry);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(dry.events_size(), 1);
  ASSERT_GT(dry.events(0).rulings_size(), 0);
  EXPECT_EQ(dry.events(0).rulings(0).resolves(), decide.ruling());
  EXPECT_EQ(dry.events(0).rulings(0).choice(), choice);

  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, id, &game).ok());
  EXPECT_EQ(game.revision(), 4u);
  ASSERT_EQ(game.pending_rulings_size(), 1);
  EXPECT_EQ(game.pending_rulings(0).number(), decide.ruling());
}

}  // namespace
}  // namespace arbiter::testing
