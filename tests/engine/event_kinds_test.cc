// The table of event kinds (adjudicator/engine/adjudicator_kinds.cc): every
// kind of `Event.kind` has its row, so a kind added to events.proto without
// one fails here; and a row's checks hold as the contract says (DOMAIN.md
// §3): what may follow a result, play refused while adjourned, the chief
// arbiter's kinds refused to an arbiter.
#include <string>

#include "google/protobuf/descriptor.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

TEST(EventKindsTest, EveryKindOfTheProtoHasARow) {
  const google::protobuf::OneofDescriptor* kind = v1::Event::descriptor()->FindOneofByName("kind");
  ASSERT_NE(kind, nullptr);
  ASSERT_GT(kind->field_count(), 30);
  for (int i = 0; i < kind->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* field = kind->field(i);
    EXPECT_TRUE(Adjudicator::Handles(static_cast<v1::Event::KindCase>(field->number())))
        << field->name() << " has no row in the table of event kinds";
  }
  EXPECT_FALSE(Adjudicator::Handles(v1::Event::KIND_NOT_SET));
}

TEST(EventKindsTest, AnEventWithoutAKindIsRefused) {
  Game g("cn-2002");
  const absl::Status s = g.Apply(Ev(0, R"("actor": "x")"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "the event has no kind");
}

TEST(EventKindsTest, TheChiefArbitersKindsAreRefusedToAnArbiter) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(60, Of("phoneRang", "BLACK")).ok());
  v1::Event fix = Ev(120, R"("eventVoided": {"event": 3, "reason": "misheard"})");
  fix.set_authority(v1::ARBITER);
  absl::Status s = g.Apply(fix);
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(s.message(), "eventVoided: voiding an event is the chief arbiter's correction");
  v1::Event cancel = Ev(120, R"("gameCancelled": {"reason": "wrong pair"})");
  cancel.set_authority(v1::ARBITER);
  s = g.Apply(cancel);
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(s.message(), "gameCancelled: cancelling a game is the chief arbiter's correction");
  // The same events under the chief arbiter's authority, or none (offline).
  fix.set_authority(v1::CHIEF_ARBITER);
  EXPECT_TRUE(g.Apply(fix).ok());
  cancel.clear_authority();
  EXPECT_TRUE(g.Apply(cancel).ok());
}

TEST(EventKindsTest, AfterAResultOnlyTheRecordsProceduresAndCheatingFollow) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(60, Of("resign", "WHITE")).ok());
  for (const std::string& refused :
       {Of("phoneRang", "BLACK"), Of("pass", "BLACK"), std::string(R"("adjourned": {})"),
        std::string(R"("misconduct": {"color": "BLACK", "kind": "DISTURBANCE"})")}) {
    const absl::Status s = g.Apply(120, refused);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << refused;
    EXPECT_NE(s.message().find("the result is final (B+R)"), std::string::npos) << s;
  }
  EXPECT_TRUE(g.Apply(180, R"("resultConfirmed": {})").ok());
  // A cheating misconduct follows even a confirmed result (23.1 reopens it).
  EXPECT_TRUE(g.Apply(240, R"("misconduct": {"color": "BLACK", "kind": "CHEATING"})").ok());
}

TEST(EventKindsTest, PlayIsRefusedWhileAdjourned) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(60, R"("adjourned": {})").ok());
  for (const std::string& play : {std::string(R"("move": {"color": "BLACK", "point": "Q16"})"),
                                  Of("pass", "BLACK"), Of("clockPress", "BLACK")}) {
    const absl::Status s = g.Apply(120, play);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << play;
    EXPECT_EQ(s.message(), "the game is adjourned: no play until `resumed`");
  }
  // What is not play is accepted meanwhile.
  EXPECT_TRUE(g.Apply(120, Of("phoneRang", "WHITE")).ok());
}

}  // namespace
}  // namespace arbiter::testing
