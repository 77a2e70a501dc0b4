// Every arbiter.v1 RPC end to end, through a real `arbiter serve` on
// 127.0.0.1: results, status codes, paging, streaming resume, two arbiters,
// idempotent retries and live timing.
#include <atomic>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/sgf.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "ledger/audit.h"
#include "ledger/checkpoint.h"
#include "ledger/hash.h"
#include "ledger/merkle.h"
#include "proto/canonical/sha256.h"
#include "rulesdb/rules.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

using grpc::StatusCode;

absl::Duration S(int s) { return absl::Seconds(s); }

template <typename F>
grpc::Status Call(F f) {
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  return f(&ctx);
}

// A short game with one pending ruling (23.5 TALK with no decision).
std::vector<v1::Event> PendingGame(const std::string& id) {
  v1::Event talk = At(T0() + S(30));
  talk.mutable_misconduct()->set_color(v1::BLACK);
  talk.mutable_misconduct()->set_kind(v1::Misconduct::TALK);
  return {Created(id, T0()), Started(T0()), MoveAt(T0() + S(10), v1::BLACK, "Q16"), talk};
}

TEST(RpcTest, HealthIsServing) {
  auto health = grpc::health::v1::Health::NewStub(
      grpc::CreateChannel(ServerEnvironment::address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  grpc::health::v1::HealthCheckRequest req;
  grpc::health::v1::HealthCheckResponse resp;
  ASSERT_TRUE(health->Check(&ctx, req, &resp).ok());
  EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING);
}

TEST(RpcTest, ScenariosRuleAsTheOfflineAdjudicator) {
  auto stub = Stub();
  for (const char* name :
       {"byoyomi-timeout", "count-185", "double-move", "ko-retake", "late-within", "phone-twice"}) {
    SCOPED_TRACE(name);
    const std::string id = absl::StrCat("scn-", name);
    std::vector<v1::Event> events = ReadEvents(Scenario(name), id);
    ASSERT_FALSE(events.empty());
    v1::AppendEventsResponse resp;
    ASSERT_TRUE(Append(*stub, id, events, &resp).ok());
    ASSERT_EQ(resp.events_size(), static_cast<int>(events.size()));

    const std::string& named = events[0].game_created().ruleset();
    absl::StatusOr<Rules> rules = LoadRules(named.empty() ? kDefaultRuleset : named);
    ASSERT_TRUE(rules.ok());
    absl::StatusOr<Adjudicator> offline = Adjudicator::Create(*rules);
    ASSERT_TRUE(offline.ok());
    for (size_t i = 0; i < events.size(); ++i) {
      const v1::RecordedEvent& got = resp.events(static_cast<int>(i));
      EXPECT_EQ(got.revision(), i + 1);
      EXPECT_EQ(got.game(), "games/" + id);
      absl::StatusOr<std::vector<v1::Ruling>> want = offline->Apply(events[i]);
      ASSERT_TRUE(want.ok());
      ASSERT_EQ(got.rulings_size(), static_cast<int>(want->size())) << "event " << i + 1;
      for (size_t j = 0; j < want->size(); ++j) {
        EXPECT_EQ(got.rulings(static_cast<int>(j)).SerializeAsString(),
                  (*want)[j].SerializeAsString());
      }
      if (i > 0) {
        EXPECT_GT(got.position(), resp.events(static_cast<int>(i - 1)).position());
      }
    }
    v1::Game game;
    ASSERT_TRUE(GetGame(*stub, id, &game).ok());
    EXPECT_EQ(game.revision(), events.size());
    EXPECT_EQ(game.ruling_count(), offline->rulings().size());
    EXPECT_EQ(game.state().SerializeAsString(), offline->State().SerializeAsString());
    EXPECT_EQ(game.has_result(), offline->result() != nullptr);
    if (offline->result() != nullptr) {
      EXPECT_EQ(game.result().SerializeAsString(), offline->result()->SerializeAsString());
      EXPECT_EQ(resp.result().SerializeAsString(), offline->result()->SerializeAsString());
    }
    EXPECT_TRUE(
        absl::StartsWith(game.rules_pin(), absl::StrCat(rules->id(), " sha256:", rules->hash())));
  }
}

TEST(RpcTest, CreateGame) {
  auto stub = Stub();
  v1::CreateGameRequest req;
  req.mutable_game()->set_game_id("created-1");
  req.mutable_game()->set_board_size(19);
  req.mutable_game()->mutable_black()->set_name("Black");
  req.mutable_game()->mutable_white()->set_name("White");
  req.set_request_id("create-created-1");
  ToProto(T0(), req.mutable_at());
  v1::Game game;
  ASSERT_TRUE(Call([&](auto* c) { return stub->CreateGame(c, req, &game); }).ok());
  EXPECT_EQ(game.name(), "games/created-1");
  EXPECT_EQ(game.revision(), 1u);
  EXPECT_FALSE(game.has_result());
  // A retry of the same create is the same game.
  v1::Game again;
  ASSERT_TRUE(Call([&](auto* c) { return stub->CreateGame(c, req, &again); }).ok());
  EXPECT_EQ(again.revision(), 1u);
  // Another create of it is not.
  req.set_request_id("");
  grpc::Status dup = Call([&](auto* c) { return stub->CreateGame(c, req, &again); });
  EXPECT_EQ(dup.error_code(), StatusCode::ALREADY_EXISTS) << dup.error_message();
  // No id: the server names it.
  v1::CreateGameRequest anon;
  anon.mutable_game()->set_board_size(19);
  anon.mutable_game()->mutable_black()->set_name("Black");
  anon.mutable_game()->mutable_white()->set_name("White");
  ASSERT_TRUE(Call([&](auto* c) { return stub->CreateGame(c, anon, &game); }).ok());
  EXPECT_TRUE(absl::StartsWith(game.game_id(), "game-"));
  // An unknown ruleset is refused, and nothing is recorded.
  v1::CreateGameRequest bad;
  bad.mutable_game()->set_game_id("created-bad");
  bad.mutable_game()->set_ruleset("cn-1066");
  EXPECT_EQ(Call([&](auto* c) { return stub->CreateGame(c, bad, &game); }).error_code(),
            StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(GetGame(*stub, "created-bad", &game).error_code(), StatusCode::NOT_FOUND);
  // A time control with two time systems (12.3, 12.5) is refused naming
  // it, on CreateGame as on AppendEvents (CheckNewGame), nothing recorded.
  v1::CreateGameRequest two;
  two.mutable_game()->set_game_id("created-two-systems");
  two.mutable_game()->mutable_black()->set_name("Black");
  two.mutable_game()->mutable_white()->set_name("White");
  two.mutable_game()->mutable_time_control()->mutable_byo_yomi()->set_periods(3);
  two.mutable_game()
      ->mutable_time_control()
      ->mutable_byo_yomi()
      ->mutable_period_time()
      ->set_seconds(30);
  two.mutable_game()->mutable_time_control()->mutable_moves_in_time()->set_moves(25);
  two.mutable_game()
      ->mutable_time_control()
      ->mutable_moves_in_time()
      ->mutable_period()
      ->set_seconds(600);
  grpc::Status refused = Call([&](auto* c) { return stub->CreateGame(c, two, &game); });
  EXPECT_EQ(refused.error_code(), StatusCode::INVALID_ARGUMENT) << refused.error_message();
  EXPECT_NE(refused.error_message().find("two time systems"), std::string::npos)
      << refused.error_message();
  v1::Event created;
  *created.mutable_game_created() = two.game();
  *created.mutable_at() = two.game().scheduled_start();
  created.mutable_at()->set_seconds(absl::ToUnixSeconds(T0()));
  v1::AppendEventsResponse appended;
  refused = Append(*stub, "created-two-systems", {created}, &appended);
  EXPECT_EQ(refused.error_code(), StatusCode::INVALID_ARGUMENT) << refused.error_message();
  EXPECT_NE(refused.error_message().find("events[0]: timeControl"), std::string::npos)
      << refused.error_message();
  EXPECT_EQ(GetGame(*stub, "created-two-systems", &game).error_code(), StatusCode::NOT_FOUND);
}

TEST(RpcTest, StatusCodesOfAppend) {
  auto stub = Stub();
  std::vector<v1::Event> phone = ReadEvents(Scenario("phone-twice"), "codes-1");
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "codes-1", phone, &resp).ok());
  ASSERT_TRUE(resp.has_result());
  // FAILED_PRECONDITION: an event after the result.
  grpc::Status s = Append(*stub, "codes-1", {MoveAt(T0() + S(600), v1::WHITE, "K10")}, &resp);
  EXPECT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION) << s.error_message();
  // NOT_FOUND: an unknown game.
  s = Append(*stub, "codes-nobody", {MoveAt(T0(), v1::BLACK, "K10")}, &resp);
  EXPECT_EQ(s.error_code(), StatusCode::NOT_FOUND) << s.error_message();
  // ABORTED: a stale expected revision, naming the current one.
  ASSERT_TRUE(Append(*stub, "codes-2", {Created("codes-2", T0()), Started(T0())}, &resp).ok());
  s = Append(*stub, "codes-2", {MoveAt(T0() + S(5), v1::BLACK, "Q16")}, &resp, 1);
  EXPECT_EQ(s.error_code(), StatusCode::ABORTED) << s.error_message();
  EXPECT_NE(s.error_message().find("2"), std::string::npos);
  ASSERT_TRUE(Append(*stub, "codes-2", {MoveAt(T0() + S(5), v1::BLACK, "Q16")}, &resp, 2).ok());
  // ALREADY_EXISTS: a key reused with other content.
  ASSERT_TRUE(
      Append(*stub, "codes-2", {Keyed(MoveAt(T0() + S(9), v1::WHITE, "D4"), "k-1")}, &resp).ok());
  s = Append(*stub, "codes-2", {Keyed(MoveAt(T0() + S(9), v1::WHITE, "D16"), "k-1")}, &resp);
  EXPECT_EQ(s.error_code(), StatusCode::ALREADY_EXISTS) << s.error_message();
  // ALREADY_EXISTS: a second gameCreated for the game.
  s = Append(*stub, "codes-2", {Created("codes-2", T0())}, &resp);
  EXPECT_EQ(s.error_code(), StatusCode::ALREADY_EXISTS) << s.error_message();
  // INVALID_ARGUMENT: an occupied point, and nothing of the batch is kept.
  v1::Game before;
  ASSERT_TRUE(GetGame(*stub, "codes-2", &before).ok());
  s = Append(*stub, "codes-2",
             {MoveAt(T0() + S(20), v1::BLACK, "C3"), MoveAt(T0() + S(30), v1::WHITE, "C3")}, &resp);
  EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << s.error_message();
  v1::Game after;
  ASSERT_TRUE(GetGame(*stub, "codes-2", &after).ok());
  EXPECT_EQ(after.revision(), before.revision());
}

// A page token belongs to its game's list: another game's token is refused
// rather than paging that game from the middle (an outside probe paged
// games/pb from revision 6 with games/pa's "e5").
TEST(RpcTest, APageTokenPagesOnlyItsOwnGamesList) {
  auto stub = Stub();
  for (const char* id : {"paged-a", "paged-b"}) {
    v1::AppendEventsResponse resp;
    ASSERT_TRUE(Append(*stub, id,
                       {Created(id, T0()), Started(T0()),
                        MoveAt(T0() + absl::Seconds(10), v1::BLACK, "Q16"),
                        MoveAt(T0() + absl::Seconds(20), v1::WHITE, "D4")},
                       &resp)
                    .ok());
  }
  v1::ListEventsRequest le;
  le.set_game("games/paged-a");
  le.set_page_size(1);
  v1::ListEventsResponse first;
  ASSERT_TRUE(Call([&](auto* c) { return stub->ListEvents(c, le, &first); }).ok());
  ASSERT_FALSE(first.next_page_token().empty());
  le.set_page_token(first.next_page_token());
  v1::ListEventsResponse again;
  ASSERT_TRUE(Call([&](auto* c) { return stub->ListEvents(c, le, &again); }).ok());
  ASSERT_EQ(again.events_size(), 1);
  EXPECT_EQ(again.events(0).revision(), 2u);
  le.set_game("games/paged-b");
  const grpc::Status other = Call([&](auto* c) { return stub->ListEvents(c, le, &again); });
  EXPECT_EQ(other.error_code(), StatusCode::INVALID_ARGUMENT) << other.error_message();

  v1::ListRulingsRequest lr;
  lr.set_game("games/paged-b");
  lr.set_page_token(first.next_page_token());  // another list's, and another game's
  v1::ListRulingsResponse rulings;
  EXPECT_EQ(Call([&](auto* c) { return stub->ListRulings(c, lr, &rulings); }).error_code(),
            StatusCode::INVALID_ARGUMENT);
}

TEST(RpcTest, BadInputAtEveryRpc) {
  auto stub = Stub();
  const std::string bad = "game/x";  // not "games/{id}"
  v1::Game game;
  v1::AppendEventsResponse append;
  auto code = [](const grpc::Status& s) { return s.error_code(); };
  constexpr StatusCode kBad = StatusCode::INVALID_ARGUMENT;

  v1::CreateGameRequest create;
  create.mutable_game()->set_game_id("has/slash");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->CreateGame(c, create, &game); })), kBad);
  v1::GetGameRequest get;
  get.set_name(bad);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->GetGame(c, get, &game); })), kBad);
  v1::AppendEventsRequest ar;
  ar.set_game(bad);
  *ar.add_events() = Started(T0());
  EXPECT_EQ(code(Call([&](auto* c) { return stub->AppendEvents(c, ar, &append); })), kBad);
  ar.set_game("games/bad-1");
  ar.clear_events();  // an empty batch
  EXPECT_EQ(code(Call([&](auto* c) { return stub->AppendEvents(c, ar, &append); })), kBad);
  v1::Event no_kind = At(T0());
  *ar.add_events() = no_kind;
  EXPECT_EQ(code(Call([&](auto* c) { return stub->AppendEvents(c, ar, &append); })), kBad);
  ar.clear_events();
  v1::Event no_time = Created("bad-1", T0());
  no_time.clear_at();
  *ar.add_events() = no_time;
  EXPECT_EQ(code(Call([&](auto* c) { return stub->AppendEvents(c, ar, &append); })), kBad);
  ar.clear_events();
  *ar.add_events() = Created("another", T0());  // names another game
  EXPECT_EQ(code(Call([&](auto* c) { return stub->AppendEvents(c, ar, &append); })), kBad);

  v1::ListEventsRequest le;
  v1::ListEventsResponse le_resp;
  le.set_game(bad);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ListEvents(c, le, &le_resp); })), kBad);
  le.set_game("games/scn-phone-twice");
  le.set_page_token("zzz");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ListEvents(c, le, &le_resp); })), kBad);
  le.set_page_token("");
  le.set_page_size(-1);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ListEvents(c, le, &le_resp); })), kBad);
  v1::ListRulingsRequest lr;
  v1::ListRulingsResponse lr_resp;
  lr.set_game(bad);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ListRulings(c, lr, &lr_resp); })), kBad);
  lr.set_game("games/scn-phone-twice");
  lr.set_page_token("e1");  // a token of the other list
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ListRulings(c, lr, &lr_resp); })), kBad);

  {
    grpc::ClientContext ctx;
    v1::WatchGameRequest wg;
    wg.set_game(bad);
    auto reader = stub->WatchGame(&ctx, wg);
    v1::WatchResponse msg;
    EXPECT_FALSE(reader->Read(&msg));
    EXPECT_EQ(code(reader->Finish()), kBad);
  }
  v1::DecideRequest decide;
  decide.set_game(bad);
  decide.set_ruling(1);
  decide.set_choice("WARNING");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->Decide(c, decide, &append); })), kBad);
  decide.set_game("games/scn-phone-twice");
  decide.set_ruling(0);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->Decide(c, decide, &append); })), kBad);
  v1::VerifyGameRequest verify;
  v1::VerifyGameResponse verify_resp;
  verify.set_name(bad);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->VerifyGame(c, verify, &verify_resp); })), kBad);
  v1::GetInclusionProofRequest proof;
  v1::InclusionProof proof_resp;
  proof.set_game("games/scn-phone-twice");
  proof.set_revision(0);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->GetInclusionProof(c, proof, &proof_resp); })),
            kBad);
  proof.set_game(bad);
  proof.set_revision(1);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->GetInclusionProof(c, proof, &proof_resp); })),
            kBad);
  v1::ExportGameRequest ex;
  v1::ExportGameResponse ex_resp;
  ex.set_name("games/scn-phone-twice");  // no format
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ExportGame(c, ex, &ex_resp); })), kBad);
  ex.set_name(bad);
  ex.set_format(v1::ExportGameRequest::SGF);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ExportGame(c, ex, &ex_resp); })), kBad);
  v1::GetRulesetRequest rs;
  v1::RulesetView rs_resp;
  rs.set_name("cn-2002");  // not "rulesets/cn-2002"
  EXPECT_EQ(code(Call([&](auto* c) { return stub->GetRuleset(c, rs, &rs_resp); })), kBad);
  v1::GetClauseRequest cl;
  v1::Clause cl_resp;
  cl.set_clause("23.7");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->GetClause(c, cl, &cl_resp); })), kBad);

  // Unknown things are NOT_FOUND, at every RPC that names one.
  get.set_name("games/never-made");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->GetGame(c, get, &game); })),
            StatusCode::NOT_FOUND);
  le.set_game("games/never-made");
  le.set_page_size(0);
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ListEvents(c, le, &le_resp); })),
            StatusCode::NOT_FOUND);
  lr.set_game("games/never-made");
  lr.set_page_token("");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ListRulings(c, lr, &lr_resp); })),
            StatusCode::NOT_FOUND);
  verify.set_name("games/never-made");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->VerifyGame(c, verify, &verify_resp); })),
            StatusCode::NOT_FOUND);
  ex.set_name("games/never-made");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->ExportGame(c, ex, &ex_resp); })),
            StatusCode::NOT_FOUND);
  rs.set_name("rulesets/cn-1066");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->GetRuleset(c, rs, &rs_resp); })),
            StatusCode::NOT_FOUND);
  cl.set_clause("cn-2002/99.9");
  EXPECT_EQ(code(Call([&](auto* c) { return stub->GetClause(c, cl, &cl_resp); })),
            StatusCode::NOT_FOUND);
}

TEST(RpcTest, IdempotentRetryAfterALostResponse) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "retry-1",
                     {Keyed(Created("retry-1", T0()), "c"), Keyed(Started(T0()), "s")}, &resp)
                  .ok());
  // The response to this append is lost: the client gives up at once (its
  // deadline has already passed when the server may or may not have
  // committed), then retries with the same key.
  const v1::Event move = Keyed(MoveAt(T0() + S(7), v1::BLACK, "Q16"), "m-1");
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Microseconds(1)));
    v1::AppendEventsRequest req;
    req.set_game("games/retry-1");
    *req.add_events() = move;
    v1::AppendEventsResponse lost;
    (void)stub->AppendEvents(&ctx, req, &lost);
  }
  v1::AppendEventsResponse first, second;
  const grpc::Status retried = Append(*stub, "retry-1", {move}, &first);
  ASSERT_TRUE(retried.ok()) << retried.error_code() << ": " << retried.error_message();
  ASSERT_TRUE(Append(*stub, "retry-1", {move}, &second, /*expected=*/1).ok());  // stale: still fine
  EXPECT_EQ(first.events(0).revision(), 3u);
  EXPECT_EQ(first.events(0).position(), second.events(0).position());
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "retry-1", &game).ok());
  EXPECT_EQ(game.revision(), 3u);
  EXPECT_EQ(game.state().move_number(), 1);
}

TEST(RpcTest, TwoArbitersOnOneGame) {
  auto desk = Stub();
  auto clock = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*desk, "two-1", {Created("two-1", T0()), Started(T0())}, &resp).ok());
  // Both saw revision 2; the desk's phone report wins, the clock's move is
  // refused (ABORTED), re-read, and appended after it.
  v1::Event phone = At(T0() + S(5));
  phone.mutable_phone_rang()->set_color(v1::WHITE);
  ASSERT_TRUE(Append(*desk, "two-1", {phone}, &resp, 2).ok());
  EXPECT_EQ(resp.events(0).rulings_size(), 1);
  grpc::Status s = Append(*clock, "two-1", {MoveAt(T0() + S(6), v1::BLACK, "Q16")}, &resp, 2);
  ASSERT_EQ(s.error_code(), StatusCode::ABORTED);
  v1::Game game;
  ASSERT_TRUE(GetGame(*clock, "two-1", &game).ok());
  ASSERT_TRUE(
      Append(*clock, "two-1", {MoveAt(T0() + S(6), v1::BLACK, "Q16")}, &resp, game.revision())
          .ok());
  EXPECT_EQ(resp.events(0).revision(), 4u);

  // Many writers at once with no expected revision: every event lands once,
  // in one contiguous stream.
  std::vector<std::thread> writers;
  std::atomic<int> ok{0};
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      auto stub = Stub();
      for (int i = 0; i < 10; ++i) {
        v1::Event e = At(T0() + S(60));
        // A neutral event: it rules nothing and may repeat (an appeal
        // would now need a ruling to appeal against).
        e.mutable_returned_seat()->set_color(v1::WHITE);
        e.set_idempotency_key(absl::StrCat("w", w, "-", i));
        v1::AppendEventsResponse r;
        if (Append(*stub, "two-1", {e}, &r).ok()) ++ok;
      }
    });
  }
  for (std::thread& t : writers) t.join();
  EXPECT_EQ(ok.load(), 40);
  grpc::ClientContext ctx;
  v1::ListEventsRequest req;
  req.set_game("games/two-1");
  req.set_page_size(1000);
  v1::ListEventsResponse list;
  ASSERT_TRUE(desk->ListEvents(&ctx, req, &list).ok());
  ASSERT_EQ(list.events_size(), 44);
  for (int i = 0; i < list.events_size(); ++i) EXPECT_EQ(list.events(i).revision(), i + 1u);
}

// Reads a watch stream until the caught-up marker plus `more` events.
struct Watched {
  std::vector<v1::RecordedEvent> events;
  uint64_t caught_up_at = 0;
  bool caught_up = false;
};

TEST(RpcTest, WatchGameResumesWithNothingMissedOrRepeated) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(
      Append(*stub, "watch-1",
             {Created("watch-1", T0()), Started(T0()), MoveAt(T0() + S(3), v1::BLACK, "Q16")},
             &resp)
          .ok());
  Watched w;
  {
    grpc::ClientContext ctx;
    v1::WatchGameRequest req;
    req.set_game("games/watch-1");
    auto reader = stub->WatchGame(&ctx, req);
    v1::WatchResponse msg;
    while (reader->Read(&msg)) {
      if (msg.has_caught_up()) {
        w.caught_up = true;
        w.caught_up_at = msg.caught_up().revision();
        // Live: an event recorded now arrives on the open stream.
        ASSERT_TRUE(Append(*stub, "watch-1", {MoveAt(T0() + S(6), v1::WHITE, "D4")}, &resp).ok());
        continue;
      }
      w.events.push_back(msg.event());
      if (w.caught_up) break;
    }
    ctx.TryCancel();
    (void)reader->Finish();
  }
  ASSERT_TRUE(w.caught_up);
  EXPECT_EQ(w.caught_up_at, 3u);
  ASSERT_EQ(w.events.size(), 4u);
  EXPECT_EQ(w.events.back().event().move().point(), "D4");
  // Disconnected: two more events; resuming after revision 4 gets exactly them.
  ASSERT_TRUE(Append(*stub, "watch-1",
                     {MoveAt(T0() + S(9), v1::BLACK, "Q4"), MoveAt(T0() + S(12), v1::WHITE, "D16")},
                     &resp)
                  .ok());
  grpc::ClientContext ctx;
  v1::WatchGameRequest req;
  req.set_game("games/watch-1");
  req.set_after_revision(w.events.back().revision());
  auto reader = stub->WatchGame(&ctx, req);
  std::vector<uint64_t> revisions;
  v1::WatchResponse msg;
  while (reader->Read(&msg) && !msg.has_caught_up()) revisions.push_back(msg.event().revision());
  EXPECT_EQ(revisions, (std::vector<uint64_t>{5, 6}));
  EXPECT_EQ(msg.caught_up().revision(), 6u);
  ctx.TryCancel();
  (void)reader->Finish();
}

TEST(RpcTest, WatchAllResumesByPosition) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "watchall-1", {Created("watchall-1", T0())}, &resp).ok());
  const uint64_t p = resp.events(0).position();
  ASSERT_TRUE(Append(*stub, "watchall-2", {Created("watchall-2", T0())}, &resp).ok());
  grpc::ClientContext ctx;
  v1::WatchAllRequest req;
  req.set_after_position(p - 1);
  auto reader = stub->WatchAll(&ctx, req);
  v1::WatchResponse msg;
  std::vector<std::string> games;
  uint64_t last = p - 1;
  while (reader->Read(&msg) && !msg.has_caught_up()) {
    EXPECT_EQ(msg.event().position(), last + 1);  // gapless
    last = msg.event().position();
    games.push_back(msg.event().game());
  }
  ASSERT_GE(games.size(), 2u);
  EXPECT_EQ(games[0], "games/watchall-1");
  EXPECT_EQ(games[1], "games/watchall-2");
  EXPECT_EQ(msg.caught_up().position(), last);
  ctx.TryCancel();
  (void)reader->Finish();
}

// A batch refused by the rules names the event at fault, as a bound's
// refusal does, and records none of it.
TEST(RpcTest, ABatchRefusedByTheRulesNamesItsEvent) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "batch-1", {Created("batch-1", T0())}, &resp).ok());
  const grpc::Status s =
      Append(*stub, "batch-1",
             {MoveAt(T0() + S(3), v1::BLACK, "Q16"), MoveAt(T0() + S(6), v1::WHITE, "D4"),
              MoveAt(T0() + S(9), v1::BLACK, "D4")},
             &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "events[2]: move.point: D4 is occupied");
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "batch-1", &game).ok());
  EXPECT_EQ(game.revision(), 1u) << "a refused batch recorded something";
}

// A refusal at the board carries its reason to a program as well as to a
// person (grpc_status.h): a google.rpc.Status in the error details, its
// code and message the call's, holding a google.rpc.ErrorInfo of domain
// arbiter.v1 with the reason and the facts it names, on a unary append and
// on a RecordEvents stream alike. A refusal without a reason has none.
TEST(RpcTest, ARefusalAtTheBoardCarriesItsReasonAsErrorInfo) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "why-1", {Created("why-1", T0()), Started(T0())}, &resp).ok());
  v1::Event arrival = At(T0() + S(5));
  arrival.mutable_player_arrived()->set_color(v1::WHITE);
  auto info_of = [](const grpc::Status& s) {
    google::rpc::Status details;
    EXPECT_TRUE(details.ParseFromString(s.error_details()));
    EXPECT_EQ(details.code(), static_cast<int>(s.error_code()));
    EXPECT_EQ(details.message(), s.error_message());
    google::rpc::ErrorInfo info;
    EXPECT_EQ(details.details_size(), 1);
    if (details.details_size() == 1) EXPECT_TRUE(details.details(0).UnpackTo(&info));
    return info;
  };
  const grpc::Status unary = Append(*stub, "why-1", {arrival}, &resp);
  ASSERT_EQ(unary.error_code(), StatusCode::INVALID_ARGUMENT) << unary.error_message();
  google::rpc::ErrorInfo info = info_of(unary);
  EXPECT_EQ(info.reason(), "ARRIVAL_NOT_AWAITED");
  EXPECT_EQ(info.domain(), "arbiter.v1");
  ASSERT_EQ(info.metadata().size(), 1u);
  EXPECT_EQ(info.metadata().at("color"), "WHITE");

  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
  auto stream = stub->RecordEvents(&ctx);
  v1::AppendEventsRequest req;
  req.set_game("games/why-1");
  *req.add_events() = MoveAt(T0() + S(20), v1::BLACK, "Q16");
  ASSERT_TRUE(stream->Write(req));
  ASSERT_TRUE(stream->Read(&resp));
  req.clear_events();
  v1::Event earlier = At(T0() + S(15));
  earlier.mutable_phone_rang()->set_color(v1::WHITE);
  *req.add_events() = earlier;
  ASSERT_TRUE(stream->Write(req));
  EXPECT_FALSE(stream->Read(&resp));
  const grpc::Status streamed = stream->Finish();
  ASSERT_EQ(streamed.error_code(), StatusCode::INVALID_ARGUMENT) << streamed.error_message();
  info = info_of(streamed);
  EXPECT_EQ(info.reason(), "TIME_BEFORE_PREVIOUS");
  EXPECT_EQ(info.metadata().size(), 2u);
  EXPECT_TRUE(info.metadata().contains("at") && info.metadata().contains("previous"));

  const grpc::Status plain =
      Append(*stub, "why-1", {MoveAt(T0() + S(30), v1::WHITE, "Q16")}, &resp);
  ASSERT_EQ(plain.error_code(), StatusCode::INVALID_ARGUMENT) << plain.error_message();
  EXPECT_TRUE(plain.error_details().empty()) << "an occupied point names no reason";
}

// A reason's facts may quote a client's words (a cancellation's cause, up
// to 1,024 bytes of free text, control characters escaped four bytes
// each): cut, so that the trailer stays far under a client's 8 KiB bound
// on metadata and the refusal arrives as itself, not as a metadata error.
TEST(RpcTest, ARefusalsReasonStaysSmallWhateverItQuotes) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "why-2", {Created("why-2", T0()), Started(T0())}, &resp).ok());
  v1::Event cancel = At(T0() + S(5));
  cancel.mutable_game_cancelled()->set_reason(std::string(1024, '\x01'));
  ASSERT_TRUE(Append(*stub, "why-2", {cancel}, &resp).ok());
  const grpc::Status s = Append(*stub, "why-2", {MoveAt(T0() + S(10), v1::BLACK, "Q16")}, &resp);
  ASSERT_EQ(s.error_code(), StatusCode::FAILED_PRECONDITION) << s.error_message();
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(s.error_details()));
  ASSERT_EQ(details.details_size(), 1);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "GAME_CANCELLED");
  const std::string& cause = info.metadata().at("cause");
  EXPECT_TRUE(absl::StartsWith(cause, "\\x01\\x01")) << cause;
  EXPECT_LE(cause.size(), 300u);
  EXPECT_LE(s.error_details().size(), 2048u);
}

// A resumption is after what the client was sent, so never past the end:
// past it (2^63 and beyond once wrapped to "from the start") is refused.
TEST(RpcTest, WatchingFromPastTheEndIsRefused) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "watch-past", {Created("watch-past", T0())}, &resp).ok());
  const uint64_t position = resp.events(0).position();
  for (const uint64_t after : {uint64_t{2}, uint64_t{1} << 63, ~uint64_t{0}}) {
    SCOPED_TRACE(after);
    grpc::ClientContext ctx;
    v1::WatchGameRequest req;
    req.set_game("games/watch-past");
    req.set_after_revision(after);
    auto reader = stub->WatchGame(&ctx, req);
    v1::WatchResponse msg;
    EXPECT_FALSE(reader->Read(&msg));
    const grpc::Status s = reader->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("is past game 'watch-past''s last revision, 1"),
              std::string::npos)
        << s.error_message();
  }
  for (const uint64_t after : {uint64_t{1} << 63, ~uint64_t{0}}) {
    SCOPED_TRACE(after);
    grpc::ClientContext ctx;
    v1::WatchAllRequest req;
    req.set_after_position(after);
    auto reader = stub->WatchAll(&ctx, req);
    v1::WatchResponse msg;
    EXPECT_FALSE(reader->Read(&msg));
    const grpc::Status s = reader->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(s.error_message().find("is past the log's last position"), std::string::npos)
        << s.error_message();
  }
  // At the end is where a caught-up client resumes: it waits there.
  grpc::ClientContext ctx;
  v1::WatchAllRequest req;
  req.set_after_position(position);
  auto reader = stub->WatchAll(&ctx, req);
  v1::WatchResponse msg;
  bool caught_up = false;
  while (!caught_up && reader->Read(&msg)) caught_up = msg.has_caught_up();
  EXPECT_TRUE(caught_up);
  ctx.TryCancel();
  (void)reader->Finish();
}

TEST(RpcTest, DecideResolvesAPendingRuling) {
  auto stub = Stub();
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "decide-1", PendingGame("decide-1"), &resp).ok());
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "decide-1", &game).ok());
  ASSERT_EQ(game.pending_rulings_size(), 1);
  const v1::Ruling& pending = game.pending_rulings(0);
  ASSERT_GE(pending.options_size(), 2);
  v1::DecideRequest req;
  req.set_game("games/decide-1");
  req.set_ruling(pending.number());
  req.set_choice("NOT-AN-OPTION");
  ToProto(T0() + S(40), req.mutable_at());
  EXPECT_EQ(Call([&](auto* c) { return stub->Decide(c, req, &resp); }).error_code(),
            StatusCode::INVALID_ARGUMENT);
  req.set_choice("WARNING");
  req.set_note("first talk");
  req.set_request_id("decide-1-a");
  ASSERT_TRUE(Call([&](auto* c) { return stub->Decide(c, req, &resp); }).ok());
  ASSERT_EQ(resp.events_size(), 1);
  EXPECT_EQ(resp.events(0).event().arbiter_decision().choice(), "WARNING");
  ASSERT_GE(resp.events(0).rulings_size(), 1);
  EXPECT_EQ(resp.events(0).rulings(0).resolves(), pending.number());
  ASSERT_TRUE(GetGame(*stub, "decide-1", &game).ok());
  EXPECT_EQ(game.pending_rulings_size(), 0);
  EXPECT_EQ(game.state().warnings().black(), 1);
  // The same decision retried: nothing new.
  v1::AppendEventsResponse again;
  ASSERT_TRUE(Call([&](auto* c) { return stub->Decide(c, req, &again); }).ok());
  EXPECT_EQ(again.events(0).revision(), resp.events(0).revision());
}

TEST(RpcTest, ListsPage) {
  auto stub = Stub();
  std::vector<v1::Event> events = ReadEvents(Scenario("count-185"), "page-1");
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "page-1", events, &resp).ok());
  std::vector<uint64_t> revisions;
  std::string token;
  int pages = 0;
  do {
    grpc::ClientContext ctx;
    v1::ListEventsRequest req;
    req.set_game("games/page-1");
    req.set_page_size(7);
    req.set_page_token(token);
    v1::ListEventsResponse page;
    ASSERT_TRUE(stub->ListEvents(&ctx, req, &page).ok());
    EXPECT_LE(page.events_size(), 7);
    for (const auto& e : page.events()) revisions.push_back(e.revision());
    token = page.next_page_token();
    ++pages;
  } while (!token.empty());
  ASSERT_EQ(revisions.size(), events.size());
  for (size_t i = 0; i < revisions.size(); ++i) EXPECT_EQ(revisions[i], i + 1);
  EXPECT_EQ(pages, static_cast<int>((events.size() + 6) / 7));

  std::vector<v1::Event> phone = ReadEvents(Scenario("phone-twice"), "page-2");
  ASSERT_TRUE(Append(*stub, "page-2", phone, &resp).ok());
  grpc::ClientContext ctx;
  v1::ListRulingsRequest req;
  req.set_game("games/page-2");
  req.set_page_size(1);
  v1::ListRulingsResponse first;
  ASSERT_TRUE(stub->ListRulings(&ctx, req, &first).ok());
  ASSERT_EQ(first.rulings_size(), 1);
  ASSERT_FALSE(first.next_page_token().empty());
  grpc::ClientContext ctx2;
  req.set_page_token(first.next_page_token());
  v1::ListRulingsResponse second;
  ASSERT_TRUE(stub->ListRulings(&ctx2, req, &second).ok());
  ASSERT_EQ(second.rulings_size(), 1);
  EXPECT_EQ(second.rulings(0).number(), 2u);
  EXPECT_TRUE(second.next_page_token().empty());
  EXPECT_TRUE(second.has_result());
}

TEST(RpcTest, VerifyCheckpointProofAndExports) {
  auto stub = Stub();
  std::vector<v1::Event> events = ReadEvents(Scenario("ko-retake"), "audit-1");
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "audit-1", events, &resp).ok());

  v1::VerifyGameRequest vreq;
  vreq.set_name("games/audit-1");
  v1::VerifyGameResponse verify;
  ASSERT_TRUE(Call([&](auto* c) { return stub->VerifyGame(c, vreq, &verify); }).ok());
  EXPECT_TRUE(verify.intact()) << verify.why();
  EXPECT_TRUE(verify.readjudicated());
  EXPECT_EQ(verify.game_events(), events.size());

  v1::GetCheckpointRequest creq;
  creq.set_at_head(true);
  v1::SignedCheckpoint signed_cp;
  ASSERT_TRUE(Call([&](auto* c) { return stub->GetCheckpoint(c, creq, &signed_cp); }).ok());
  EXPECT_TRUE(ledger::VerifyCheckpoint(signed_cp.checkpoint(), signed_cp.public_key()).ok());
  EXPECT_GE(signed_cp.checkpoint().tree_size(), resp.events(0).position());

  v1::GetInclusionProofRequest preq;
  preq.set_game("games/audit-1");
  preq.set_revision(3);
  preq.set_tree_size(signed_cp.checkpoint().tree_size());
  v1::InclusionProof proof;
  ASSERT_TRUE(Call([&](auto* c) { return stub->GetInclusionProof(c, preq, &proof); }).ok());
  ledger::Hash leaf = ledger::LeafHash(proof.entry().entry().event());
  ledger::Hash root;
  ASSERT_TRUE(ledger::HashFromBytes(proof.checkpoint().root_hash(), &root));
  std::vector<ledger::Hash> path;
  for (const std::string& h : proof.entry().inclusion_proof()) {
    ledger::Hash x;
    ASSERT_TRUE(ledger::HashFromBytes(h, &x));
    path.push_back(x);
  }
  EXPECT_TRUE(ledger::VerifyInclusion(proof.entry().entry().position() - 1,
                                      proof.checkpoint().tree_size(), leaf, path, root)
                  .ok());
  EXPECT_EQ(proof.leaf_hash(), std::string(AsBytes(leaf)));
  // A forged event does not prove.
  ledger::Hash forged = ledger::LeafHash(proof.entry().entry().event() + "x");
  EXPECT_FALSE(ledger::VerifyInclusion(proof.entry().entry().position() - 1,
                                       proof.checkpoint().tree_size(), forged, path, root)
                   .ok());

  v1::ExportGameRequest ereq;
  ereq.set_name("games/audit-1");
  ereq.set_format(v1::ExportGameRequest::SGF);
  v1::ExportGameResponse sgf;
  ASSERT_TRUE(Call([&](auto* c) { return stub->ExportGame(c, ereq, &sgf); }).ok());
  absl::StatusOr<SgfGame> parsed = ParseSgf(sgf.content());
  ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << sgf.content();
  EXPECT_NE(sgf.content().find("RU[Chinese]"), std::string::npos);
  EXPECT_NE(sgf.content().find("KM[7.5]"), std::string::npos);
  EXPECT_NE(sgf.content().find("cn-2002/"), std::string::npos);  // a ruling's C[] cites its clause

  ereq.set_format(v1::ExportGameRequest::JSON);
  v1::ExportGameResponse json;
  ASSERT_TRUE(Call([&](auto* c) { return stub->ExportGame(c, ereq, &json); }).ok());
  v1::GameRecord record;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json.content(), &record).ok());
  EXPECT_EQ(record.events_size(), static_cast<int>(events.size()));

  ereq.set_format(v1::ExportGameRequest::BUNDLE);
  v1::ExportGameResponse bundle_resp;
  ASSERT_TRUE(Call([&](auto* c) { return stub->ExportGame(c, ereq, &bundle_resp); }).ok());
  v1::AuditBundle bundle;
  ASSERT_TRUE(bundle.ParseFromString(bundle_resp.content()));
  ledger::AuditOptions options;
  options.public_key_der = signed_cp.public_key();
  absl::StatusOr<ledger::AuditReport> audit = ledger::AuditBundle(bundle, options);
  ASSERT_TRUE(audit.ok());
  EXPECT_TRUE(audit->intact) << audit->why;
  EXPECT_EQ(bundle.entries_size(), static_cast<int>(events.size()));
}

TEST(RpcTest, RulesetsAndClauses) {
  auto stub = Stub();
  v1::GetRulesetRequest req;
  req.set_name("rulesets/cn-1988");
  v1::RulesetView view;
  ASSERT_TRUE(Call([&](auto* c) { return stub->GetRuleset(c, req, &view); }).ok());
  absl::StatusOr<Rules> rules = LoadRules("cn-1988");
  ASSERT_TRUE(rules.ok());
  EXPECT_EQ(view.hash(), rules->hash());
  EXPECT_EQ(view.ruleset().id(), "cn-1988");
  v1::GetClauseRequest creq;
  creq.set_clause("cn-2002/23.7");
  v1::Clause clause;
  ASSERT_TRUE(Call([&](auto* c) { return stub->GetClause(c, creq, &clause); }).ok());
  EXPECT_EQ(clause.id(), "cn-2002/23.7");
  EXPECT_NE(clause.text_zh().find("手机"), std::string::npos);
  EXPECT_FALSE(clause.summary_en().empty());
}

TEST(RpcTest, LiveGameFlagFallsWithoutAReport) {
  auto stub = Stub();
  const absl::Time now = absl::Now();
  v1::Event created = Created("live-1", now, /*live=*/true);
  ToProto(absl::Seconds(2),
          created.mutable_game_created()->mutable_time_control()->mutable_main_time());
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "live-1", {created, Started(now)}, &resp).ok());
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "live-1", &game).ok());
  ASSERT_TRUE(game.has_next_deadline());
  // Absolute time is over only when exceeded (12.4(5), cn-2002 2002.3): the
  // server records the flag one second past the instant the time reached 0.
  EXPECT_EQ(FromProto(game.next_deadline()), now + absl::Seconds(3));
  // Nobody reports anything: the server's own timeExpired ends the game,
  // ruled at the instant the time ran out.
  grpc::ClientContext ctx;
  ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(15)));
  v1::WatchGameRequest wreq;
  wreq.set_game("games/live-1");
  wreq.set_after_revision(2);
  auto reader = stub->WatchGame(&ctx, wreq);
  v1::WatchResponse msg;
  v1::RecordedEvent flag;
  while (reader->Read(&msg)) {
    if (msg.has_event()) {
      flag = msg.event();
      break;
    }
  }
  ctx.TryCancel();
  (void)reader->Finish();
  ASSERT_TRUE(flag.event().has_time_expired());
  EXPECT_EQ(flag.event().time_expired().color(), v1::BLACK);
  EXPECT_EQ(FromProto(flag.event().at()), now + absl::Seconds(3));
  EXPECT_EQ(flag.event().actor(), "server:clock");
  ASSERT_TRUE(GetGame(*stub, "live-1", &game).ok());
  ASSERT_TRUE(game.has_result());
  EXPECT_EQ(game.result().reason(), v1::Result::TIME);
  EXPECT_EQ(FromProto(game.result().at()), now + absl::Seconds(2));
  EXPECT_EQ(game.result().outcome(), v1::Result::WHITE_WINS);
  EXPECT_FALSE(game.has_next_deadline());

  // The same game not live: no timer, nothing appended by the server.
  created.mutable_game_created()->set_game_id("live-2");
  created.mutable_game_created()->set_live(false);
  ASSERT_TRUE(Append(*stub, "live-2", {created, Started(now)}, &resp).ok());
  ASSERT_TRUE(GetGame(*stub, "live-2", &game).ok());
  EXPECT_FALSE(game.has_next_deadline());
}

TEST(RpcTest, LiveGameLatenessForfeitAtTheLimit) {
  auto stub = Stub();
  // The SAME_SITE limit (15 minutes) passes 2 s from now with White absent:
  // the server rules the forfeit one second past the limit.
  const absl::Time start = absl::Now() - absl::Minutes(15) + absl::Seconds(2);
  v1::Event created = Created("live-late", start, /*live=*/true);
  v1::Event started = Started(absl::Now());
  started.mutable_game_started()->add_absent(v1::WHITE);
  v1::AppendEventsResponse resp;
  ASSERT_TRUE(Append(*stub, "live-late", {created, started}, &resp).ok());
  ASSERT_FALSE(resp.has_result());
  v1::Game game;
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  do {
    absl::SleepFor(absl::Milliseconds(200));
    ASSERT_TRUE(GetGame(*stub, "live-late", &game).ok());
  } while (!game.has_result() && absl::Now() < give_up);
  ASSERT_TRUE(game.has_result());
  EXPECT_EQ(game.result().reason(), v1::Result::LATENESS);
  EXPECT_EQ(game.result().outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(FromProto(game.result().at()), start + absl::Minutes(15));
}

}  // namespace
}  // namespace arbiter::testing
