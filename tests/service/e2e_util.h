// Shared by the end-to-end tests: one `arbiter serve` per test binary, a
// stub on it, the CLI as a client, and event builders.
#ifndef ARBITER_TESTS_SERVICE_E2E_UTIL_H_
#define ARBITER_TESTS_SERVICE_E2E_UTIL_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "adjudicator/engine/proto_time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/channel_arguments.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {

// One server for the whole binary, on a temporary data directory.
class ServerEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>("arbiter-e2e");
    server_ = ServerProcess::Start(dir_->File("data"));
    ASSERT_NE(server_, nullptr);
    instance_ = this;
  }
  void TearDown() override {
    server_.reset();
    dir_.reset();
  }
  static const std::string& address() { return instance_->server_->address(); }

 private:
  static inline ServerEnvironment* instance_ = nullptr;
  std::unique_ptr<TempDir> dir_;
  std::unique_ptr<ServerProcess> server_;
};

inline std::unique_ptr<v1::Arbiter::Stub> StubFor(const std::string& address) {
  return v1::Arbiter::NewStub(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
}

inline std::unique_ptr<v1::Arbiter::Stub> Stub() { return StubFor(ServerEnvironment::address()); }

// A stub whose channel lets little be sent ahead of what its client reads
// (no BDP probe, 16 KiB of lookahead): a watch it does not read soon has a
// server write in flight that waits for it (a stalled client).
inline std::unique_ptr<v1::Arbiter::Stub> SlowReaderStubFor(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 16 * 1024);
  return v1::Arbiter::NewStub(
      grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args));
}

inline std::string Scenario(const std::string& name) {
  return TestDataPath("scenarios/public/" + name + ".jsonl");
}

// The events of a JSON-lines file, renamed to `game_id` when given.
inline std::vector<v1::Event> ReadEvents(const std::string& path, const std::string& game_id = "") {
  absl::StatusOr<std::vector<v1::Event>> events = ReadEventLines(path);
  EXPECT_TRUE(events.ok()) << events.status();
  if (!events.ok()) return {};
  for (v1::Event& e : *events) {
    if (!game_id.empty() && e.has_game_created()) e.mutable_game_created()->set_game_id(game_id);
  }
  return *std::move(events);
}

inline v1::Event At(absl::Time t) {
  v1::Event e;
  ToProto(t, e.mutable_at());
  return e;
}

inline v1::Event Created(const std::string& id, absl::Time t, bool live = false) {
  v1::Event e = At(t);
  v1::GameCreated* g = e.mutable_game_created();
  g->set_game_id(id);
  g->set_ruleset("cn-2002");
  g->set_board_size(19);
  g->set_venue(v1::GameCreated::SAME_SITE);
  ToProto(t, g->mutable_scheduled_start());
  g->set_live(live);
  return e;
}

inline v1::Event Started(absl::Time t) {
  v1::Event e = At(t);
  e.mutable_game_started();
  return e;
}

inline v1::Event MoveAt(absl::Time t, v1::Color c, const std::string& point) {
  v1::Event e = At(t);
  e.mutable_move()->set_color(c);
  e.mutable_move()->set_point(point);
  return e;
}

inline v1::Event Keyed(v1::Event e, const std::string& key) {
  e.set_idempotency_key(key);
  return e;
}

// A fixed past instant for non-live games (their times are the record's).
inline absl::Time T0() { return absl::FromUnixSeconds(1777626000); }  // 2026-05-01T09:00:00Z

// With `validate_only`, a dry run (AppendEventsRequest.validate_only).
inline grpc::Status Append(v1::Arbiter::Stub& stub, const std::string& game,
                           const std::vector<v1::Event>& events, v1::AppendEventsResponse* out,
                           std::optional<uint64_t> expected = std::nullopt,
                           bool validate_only = false) {
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  v1::AppendEventsRequest req;
  req.set_game("games/" + game);
  for (const v1::Event& e : events) *req.add_events() = e;
  if (expected.has_value()) req.set_expected_revision(*expected);
  req.set_validate_only(validate_only);
  return stub.AppendEvents(&ctx, req, out);
}

inline grpc::Status GetGame(v1::Arbiter::Stub& stub, const std::string& game, v1::Game* out) {
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  v1::GetGameRequest req;
  req.set_name("games/" + game);
  return stub.GetGame(&ctx, req, out);
}

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SERVICE_E2E_UTIL_H_
