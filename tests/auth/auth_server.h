// The real server on 127.0.0.1 behind its tokens, for the tests of roles,
// limits and streams (auth_test.cc, record_stream_test.cc): its interceptor
// admits every call.
#ifndef ARBITER_TESTS_AUTH_AUTH_SERVER_H_
#define ARBITER_TESTS_AUTH_AUTH_SERVER_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/server.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "tests/support/temp_dir.h"

namespace arbiter::service {

class AuthServiceTest : public ::testing::Test {
 protected:
  void Start(AuthLimits limits = {}) {
    auto t = TokenStore::Open(dir_.path(), [this] { return now_.load(); });
    ASSERT_TRUE(t.ok());
    tokens_ = *std::move(t);
    ServerOptions o;
    o.data_dir = dir_.path();
    o.listen = "127.0.0.1:0";
    o.live_timers = false;
    o.limits = limits;
    o.token_clock = [this] { return now_.load(); };
    auto server = Server::Start(o);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    stub_ = v1::Arbiter::NewStub(
        grpc::CreateChannel(server_->address(), grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  std::string Token(Role role, const std::string& name, std::vector<std::string> games = {},
                    std::optional<absl::Duration> ttl = std::nullopt) {
    auto s = tokens_->Create(role, name, games, ttl);
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *s : "";
  }

  static void Auth(grpc::ClientContext* c, const std::string& token) {
    if (!token.empty()) c->AddMetadata("authorization", "Bearer " + token);
  }

  grpc::Status Create(const std::string& token, const std::string& game) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::CreateGameRequest req;
    req.mutable_game()->set_game_id(game);
    req.mutable_game()->set_ruleset("cn-2002");
    req.mutable_game()->set_board_size(19);
    req.mutable_game()->mutable_black()->set_name("Black");
    req.mutable_game()->mutable_white()->set_name("White");
    req.mutable_game()->set_venue(v1::GameCreated::SAME_SITE);
    req.mutable_at()->set_seconds(1'780'000'000);
    v1::Game out;
    return stub_->CreateGame(&c, req, &out);
  }

  // A phone ring in `game`, claiming to come from "mallory".
  grpc::Status Phone(const std::string& token, const std::string& game, int64_t at) {
    return Append(token, game, at, [](v1::Event* e) {
      e->set_actor("mallory");
      e->mutable_phone_rang()->set_color(v1::BLACK);
    });
  }

  std::vector<v1::RecordedEvent> Events(const std::string& token, const std::string& game) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::ListEventsRequest req;
    req.set_game("games/" + game);
    v1::ListEventsResponse out;
    grpc::Status s = stub_->ListEvents(&c, req, &out);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return {out.events().begin(), out.events().end()};
  }

  // Appends one event of `kind` ("resign", "resultConfirmed") to `game`.
  grpc::Status Append(const std::string& token, const std::string& game, int64_t at,
                      const std::function<void(v1::Event*)>& fill) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::AppendEventsRequest req;
    req.set_game("games/" + game);
    v1::Event* e = req.add_events();
    e->mutable_at()->set_seconds(at);
    fill(e);
    v1::AppendEventsResponse out;
    return stub_->AppendEvents(&c, req, &out);
  }
  grpc::Status Confirm(const std::string& token, const std::string& game, int64_t at) {
    return Append(token, game, at, [](v1::Event* e) { e->mutable_result_confirmed(); });
  }

  uint64_t Head() { return *server_->ledger()->log().Head(); }

  std::atomic<absl::Time> now_ = absl::FromUnixSeconds(1'780'000'000);  // the tokens' clock
  ::arbiter::testing::TempDir dir_;
  std::unique_ptr<TokenStore> tokens_;  // the operator's, beside the server's
  std::unique_ptr<Server> server_;
  std::unique_ptr<v1::Arbiter::Stub> stub_;
};

}  // namespace arbiter::service

#endif  // ARBITER_TESTS_AUTH_AUTH_SERVER_H_
