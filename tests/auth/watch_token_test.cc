// A watch stream and its token (SECURITY.md): a watch sends on one look-up
// of its token for at most AuthLimits::watch_token_checked_every, then looks
// it up again before its next message, so a token revoked or expired while
// the stream is open ends it, UNAUTHENTICATED, before anything more is sent.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/auth/auth_server.h"

namespace arbiter::service {
namespace {

class WatchTokenTest : public AuthServiceTest {
 protected:
  // Every message re-checked, so that one append tells.
  void StartCheckingEachMessage() {
    AuthLimits limits;
    limits.watch_token_checked_every = absl::ZeroDuration();
    Start(limits);
    chief_ = Token(Role::kChiefArbiter, "Wang Ru");
    ASSERT_TRUE(Create(chief_, "g1").ok());
  }

  // Opens a watch of g1 with `token` and reads up to its caught-up marker.
  std::unique_ptr<grpc::ClientReader<v1::WatchResponse>> Watch(grpc::ClientContext* c,
                                                               const std::string& token) {
    Auth(c, token);
    v1::WatchGameRequest req;
    req.set_game("games/g1");
    auto reader = stub_->WatchGame(c, req);
    v1::WatchResponse r;
    while (reader->Read(&r) && !r.has_caught_up()) {
    }
    EXPECT_TRUE(r.has_caught_up());
    return reader;
  }

  // The watch gets the next event, or ends: how it ended.
  static grpc::Status NextOrEnd(grpc::ClientReader<v1::WatchResponse>& reader,
                                v1::WatchResponse* got) {
    if (reader.Read(got)) return grpc::Status::OK;
    return reader.Finish();
  }

  void RevokeZhaoMin() {
    for (const TokenInfo& t : std::vector<TokenInfo>(tokens_->List().value())) {
      if (t.name == "Zhao Min") ASSERT_TRUE(tokens_->Revoke(t.id).ok());
    }
  }

  std::string chief_;
};

TEST_F(WatchTokenTest, ARevokedTokensWatchEndsBeforeItsNextMessage) {
  StartCheckingEachMessage();
  const std::string viewer = Token(Role::kAuditor, "Zhao Min");
  grpc::ClientContext c;
  auto reader = Watch(&c, viewer);
  ASSERT_TRUE(Phone(chief_, "g1", 1'780'000'010).ok());
  v1::WatchResponse got;
  ASSERT_TRUE(NextOrEnd(*reader, &got).ok());  // still valid: it gets the event
  EXPECT_EQ(got.event().revision(), 2u);

  RevokeZhaoMin();
  ASSERT_TRUE(Phone(chief_, "g1", 1'780'000'020).ok());
  const grpc::Status ended = NextOrEnd(*reader, &got);
  EXPECT_EQ(ended.error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << "sent: " << got.ShortDebugString();
  EXPECT_TRUE(absl::StrContains(ended.error_message(), "revoked")) << ended.error_message();
}

TEST_F(WatchTokenTest, AnExpiredTokensWatchEndsBeforeItsNextMessage) {
  StartCheckingEachMessage();
  const std::string viewer = Token(Role::kAuditor, "Zhao Min", {}, absl::Hours(1));
  grpc::ClientContext c;
  auto reader = Watch(&c, viewer);
  now_ = now_.load() + absl::Hours(2);
  ASSERT_TRUE(Phone(chief_, "g1", 1'780'000'010).ok());  // the chief's has no ttl
  v1::WatchResponse got;
  const grpc::Status ended = NextOrEnd(*reader, &got);
  EXPECT_EQ(ended.error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << "sent: " << got.ShortDebugString();
  EXPECT_TRUE(absl::StrContains(ended.error_message(), "expired")) << ended.error_message();
}

// By default the look-up is kept a second: a watch of a valid token is not
// looked up again message by message, and still ends once it is revoked.
TEST_F(WatchTokenTest, ByDefaultARevokedTokensWatchEndsWithinItsBound) {
  Start();
  chief_ = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string viewer = Token(Role::kAuditor, "Zhao Min");
  grpc::ClientContext c;
  Auth(&c, viewer);
  auto reader = stub_->WatchAll(&c, v1::WatchAllRequest());
  v1::WatchResponse got;
  ASSERT_TRUE(reader->Read(&got));
  ASSERT_TRUE(got.has_caught_up());
  RevokeZhaoMin();
  const absl::Time revoked = absl::Now();
  // Each game created either reaches the watch (within the bound) or ends
  // it; the deadline is for a server that never ends it.
  grpc::Status ended;
  for (int i = 0; ended.ok() && absl::Now() < revoked + absl::Seconds(20); ++i) {
    ASSERT_TRUE(Create(chief_, absl::StrCat("g", i)).ok());
    ended = NextOrEnd(*reader, &got);
  }
  EXPECT_EQ(ended.error_code(), grpc::StatusCode::UNAUTHENTICATED) << ended.error_message();
  EXPECT_TRUE(absl::StrContains(ended.error_message(), "revoked")) << ended.error_message();
}

}  // namespace
}  // namespace arbiter::service
