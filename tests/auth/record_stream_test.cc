// RecordEvents (service.proto): AppendEvents over one open stream, against
// the real server behind its tokens. Each request is answered as the unary
// call would answer it and admitted as a call would be (token looked up
// again, rate, bounds, the arbiter's games); the first refusal ends the
// stream with nothing of it written; its caps and the server's shutdown end
// streams with their own statuses.
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "tests/auth/auth_server.h"

namespace arbiter::service {
namespace {

using Stream = grpc::ClientReaderWriter<v1::AppendEventsRequest, v1::AppendEventsResponse>;

// One client's RecordEvents stream, its context kept beside it.
struct OpenStream {
  std::unique_ptr<grpc::ClientContext> context = std::make_unique<grpc::ClientContext>();
  std::unique_ptr<Stream> stream;
};

// A phone ring (2002 art. 23.7: a warning and a penalty stone, the second a loss) in `game` at
// `at`, as one request.
v1::AppendEventsRequest PhoneRing(const std::string& game, int64_t at,
                                  std::optional<uint64_t> expected = std::nullopt) {
  v1::AppendEventsRequest req;
  req.set_game("games/" + game);
  v1::Event* e = req.add_events();
  e->mutable_at()->set_seconds(at);
  e->mutable_phone_rang()->set_color(v1::BLACK);
  if (expected.has_value()) req.set_expected_revision(*expected);
  return req;
}

// A ruling's sanctions, to compare two games' rulings.
std::string Sanctions(const v1::Ruling& ruling) {
  std::string all;
  for (int s : ruling.sanctions()) absl::StrAppend(&all, v1::Sanction_Name(s), ";");
  return all;
}

class RecordStreamTest : public AuthServiceTest {
 protected:
  OpenStream Open(const std::string& token) {
    OpenStream s;
    Auth(s.context.get(), token);
    s.stream = stub_->RecordEvents(s.context.get());
    return s;
  }

  // Sends `req` and reads its answer; false when the stream ended instead.
  static bool Send(OpenStream& s, const v1::AppendEventsRequest& req,
                   v1::AppendEventsResponse* answer) {
    return s.stream->Write(req) && s.stream->Read(answer);
  }

  // Sends `req` on `s`, which the server must refuse: the stream ends with
  // `code` and a message saying `says`, and nothing is written.
  void ExpectRefused(OpenStream& s, const v1::AppendEventsRequest& req, grpc::StatusCode code,
                     absl::string_view says) {
    const uint64_t head = Head();
    v1::AppendEventsResponse answer;
    EXPECT_FALSE(Send(s, req, &answer)) << "answered: " << answer.ShortDebugString();
    const grpc::Status ended = End(s);
    EXPECT_EQ(ended.error_code(), code) << ended.error_message();
    EXPECT_TRUE(absl::StrContains(ended.error_message(), says)) << ended.error_message();
    EXPECT_EQ(Head(), head) << "a refused request wrote something";
  }

  // The status the server ended `s` with, once the client has sent all.
  static grpc::Status End(OpenStream& s) {
    s.stream->WritesDone();
    v1::AppendEventsResponse ignored;
    while (s.stream->Read(&ignored)) {
    }
    return s.stream->Finish();
  }
};

TEST_F(RecordStreamTest, EachRequestIsAnsweredInOrderAsAppendEventsAnswersIt) {
  Start();
  ASSERT_TRUE(Create("", "g1").ok());
  ASSERT_TRUE(Create("", "g2").ok());
  OpenStream s = Open("");
  std::vector<v1::AppendEventsResponse> streamed;
  for (int i = 0; i < 2; ++i) {
    v1::AppendEventsResponse answer;
    ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010 + i, 1 + i), &answer)) << "request " << i;
    streamed.push_back(answer);
  }
  const grpc::Status ended = End(s);
  EXPECT_TRUE(ended.ok()) << "a client that half-closes ends the stream OK: "
                          << ended.error_message();

  // The same requests as unary calls in the other game answer the same.
  for (int i = 0; i < 2; ++i) {
    grpc::ClientContext c;
    v1::AppendEventsResponse unary;
    ASSERT_TRUE(stub_->AppendEvents(&c, PhoneRing("g2", 1'780'000'010 + i, 1 + i), &unary).ok());
    const v1::AppendEventsResponse& mine = streamed[static_cast<size_t>(i)];
    EXPECT_EQ(mine.revision(), static_cast<uint64_t>(2 + i));
    EXPECT_EQ(mine.revision(), unary.revision());
    ASSERT_EQ(mine.events_size(), 1);
    ASSERT_EQ(unary.events_size(), 1);
    EXPECT_EQ(mine.events(0).rulings_size(), unary.events(0).rulings_size()) << "request " << i;
    for (int r = 0; r < mine.events(0).rulings_size(); ++r) {
      EXPECT_EQ(mine.events(0).rulings(r).clause(), unary.events(0).rulings(r).clause());
      EXPECT_EQ(Sanctions(mine.events(0).rulings(r)), Sanctions(unary.events(0).rulings(r)));
    }
    EXPECT_EQ(mine.result().DebugString(), unary.result().DebugString()) << "request " << i;
  }
  // The first ring is a warning; the second loses the game (23.7).
  EXPECT_FALSE(streamed.front().has_result()) << streamed.front().DebugString();
  EXPECT_GT(streamed.front().events(0).rulings_size(), 0);
  EXPECT_TRUE(streamed.back().has_result()) << streamed.back().DebugString();
  EXPECT_EQ(Events("", "g1").size(), 3u);
  EXPECT_LT(streamed[0].events(0).position(), streamed[1].events(0).position());
}

TEST_F(RecordStreamTest, TheFirstRefusalEndsTheStreamAndWritesNothingOfIt) {
  Start();
  ASSERT_TRUE(Create("", "g1").ok());
  OpenStream s = Open("");
  v1::AppendEventsResponse answer;
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010, 1), &answer));
  // A stale expected_revision: the unary call's ABORTED, naming the revision.
  ExpectRefused(s, PhoneRing("g1", 1'780'000'020, 1), grpc::StatusCode::ABORTED,
                "game 'g1' is at revision 2; the append expected revision 1");
  EXPECT_EQ(Events("", "g1").size(), 2u) << "the answered request stands";
}

TEST_F(RecordStreamTest, EachRequestIsAdmittedForItsOwnGame) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string arbiter = Token(Role::kArbiter, "Li Wei", {"g1"});
  ASSERT_TRUE(Create(chief, "g1").ok());
  ASSERT_TRUE(Create(chief, "g2").ok());
  OpenStream s = Open(arbiter);
  v1::AppendEventsResponse answer;
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010), &answer));
  ExpectRefused(s, PhoneRing("g2", 1'780'000'010), grpc::StatusCode::PERMISSION_DENIED,
                "not assigned to game 'g2'");
  const auto g1 = Events(chief, "g1");
  ASSERT_EQ(g1.size(), 2u);
  EXPECT_TRUE(absl::StartsWith(g1[1].event().actor(), "Li Wei (ARBITER, token "))
      << g1[1].event().actor();
}

TEST_F(RecordStreamTest, AStringOverItsBoundEndsTheStreamNamingIt) {
  Start();
  ASSERT_TRUE(Create("", "g1").ok());
  OpenStream s = Open("");
  v1::AppendEventsResponse answer;
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010), &answer));
  v1::AppendEventsRequest long_key = PhoneRing("g1", 1'780'000'020);
  long_key.mutable_events(0)->set_idempotency_key(std::string(200, 'k'));
  ExpectRefused(s, long_key, grpc::StatusCode::INVALID_ARGUMENT,
                "events[0].idempotencyKey: 200 bytes, at most 128");
}

TEST_F(RecordStreamTest, ARevokedTokenEndsTheStreamAtItsNextRequest) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string arbiter = Token(Role::kArbiter, "Li Wei", {"g1"});
  ASSERT_TRUE(Create(chief, "g1").ok());
  OpenStream s = Open(arbiter);
  v1::AppendEventsResponse answer;
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010), &answer));
  for (const TokenInfo& t : std::vector<TokenInfo>(tokens_->List().value())) {
    if (t.name == "Li Wei") {
      ASSERT_TRUE(tokens_->Revoke(t.id).ok());
    }
  }
  ExpectRefused(s, PhoneRing("g1", 1'780'000'020), grpc::StatusCode::UNAUTHENTICATED, "token");
}

// A server runs open until a token is made (auth_gatekeeper.h); one made
// by the operator's `arbiter token` (another store on the folder) while a
// stream is open closes the server from that stream's next request on.
TEST_F(RecordStreamTest, ATokenMadeWhileOpenEndsAnOpenStreamAtItsNextRequest) {
  Start();
  ASSERT_TRUE(Create("", "g1").ok());
  OpenStream s = Open("");
  v1::AppendEventsResponse answer;
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010), &answer));
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'020), &answer));
  Token(Role::kChiefArbiter, "Wang Ru");
  ExpectRefused(s, PhoneRing("g1", 1'780'000'030), grpc::StatusCode::UNAUTHENTICATED,
                "needs a bearer token");
}

TEST_F(RecordStreamTest, AnExpiredTokenEndsTheStreamAndSaysSo) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru", {}, absl::Hours(720));
  ASSERT_TRUE(Create(chief, "g1").ok());
  OpenStream s = Open(chief);
  v1::AppendEventsResponse answer;
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010), &answer));
  now_ = now_.load() + absl::Hours(720);
  ExpectRefused(s, PhoneRing("g1", 1'780'000'020), grpc::StatusCode::UNAUTHENTICATED, "expired");
}

TEST_F(RecordStreamTest, EveryRequestCostsTheRateACallCosts) {
  AuthLimits limits;
  limits.writes_per_second = 0.001;
  limits.write_burst = 3;
  Start(limits);
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  ASSERT_TRUE(Create(chief, "g1").ok());  // 1 of 3
  OpenStream s = Open(chief);
  v1::AppendEventsResponse answer;
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010), &answer));  // 2 of 3
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'020), &answer));  // 3 of 3
  ExpectRefused(s, PhoneRing("g1", 1'780'000'030), grpc::StatusCode::RESOURCE_EXHAUSTED,
                "rate limit: at most 0.001 writes per second; the next is allowed in ");
}

TEST_F(RecordStreamTest, OpenStreamsAreCappedPerCallerAndTheirPlacesFreed) {
  AuthLimits limits;
  limits.recorders_per_caller = 2;
  Start(limits);
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string deputy = Token(Role::kChiefArbiter, "Deputy");
  // A game per stream: one phone ring each (a second would end the game).
  for (int g = 1; g <= 5; ++g) ASSERT_TRUE(Create(chief, absl::StrCat("g", g)).ok());
  v1::AppendEventsResponse answer;
  std::vector<OpenStream> open;
  for (int g = 1; g <= 2; ++g) {
    open.push_back(Open(chief));
    ASSERT_TRUE(Send(open.back(), PhoneRing(absl::StrCat("g", g), 1'780'000'010), &answer)) << g;
  }
  OpenStream third = Open(chief);
  ExpectRefused(third, PhoneRing("g3", 1'780'000'010), grpc::StatusCode::RESOURCE_EXHAUSTED,
                "at most 2 RecordEvents streams at once per caller");
  OpenStream others = Open(deputy);
  EXPECT_TRUE(Send(others, PhoneRing("g4", 1'780'000'010), &answer)) << "caps are per caller";
  EXPECT_TRUE(End(others).ok());

  EXPECT_TRUE(End(open.front()).ok());
  OpenStream again = Open(chief);
  EXPECT_TRUE(Send(again, PhoneRing("g5", 1'780'000'010), &answer))
      << "an ended stream's place is free";
  EXPECT_TRUE(End(again).ok());
  EXPECT_TRUE(End(open.back()).ok());
}

// A cap of one is said in the singular.
TEST_F(RecordStreamTest, ACapOfOneStreamIsSaidSo) {
  AuthLimits limits;
  limits.recorders_per_caller = 1;
  Start(limits);
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  for (int g = 1; g <= 2; ++g) ASSERT_TRUE(Create(chief, absl::StrCat("g", g)).ok());
  v1::AppendEventsResponse answer;
  OpenStream first = Open(chief);
  ASSERT_TRUE(Send(first, PhoneRing("g1", 1'780'000'010), &answer));
  OpenStream second = Open(chief);
  ExpectRefused(second, PhoneRing("g2", 1'780'000'010), grpc::StatusCode::RESOURCE_EXHAUSTED,
                "at most 1 RecordEvents stream at once per caller");
  EXPECT_TRUE(End(first).ok());
}

TEST_F(RecordStreamTest, AShutdownEndsAnIdleStreamAtOnceUnavailable) {
  Start();
  ASSERT_TRUE(Create("", "g1").ok());
  OpenStream s = Open("");
  v1::AppendEventsResponse answer;
  ASSERT_TRUE(Send(s, PhoneRing("g1", 1'780'000'010), &answer));
  const absl::Time start = absl::Now();
  std::thread stop([this] { server_->Shutdown(absl::Seconds(30)); });
  EXPECT_FALSE(s.stream->Read(&answer));
  const grpc::Status ended = s.stream->Finish();
  const absl::Duration took = absl::Now() - start;
  stop.join();
  EXPECT_EQ(ended.error_code(), grpc::StatusCode::UNAVAILABLE) << ended.error_message();
  EXPECT_TRUE(absl::StrContains(ended.error_message(), "shutting down")) << ended.error_message();
  EXPECT_LT(took, absl::Seconds(15)) << "ended by the server, not by the grace running out";
}

// The i-th move of a game no stone of which is ever captured: Black fills
// rows 1-3, White rows 17-19, in turn.
v1::AppendEventsRequest Move(const std::string& game, int i) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";  // GTP: no I
  const int n = i / 2;
  const bool black = i % 2 == 0;
  v1::AppendEventsRequest req;
  req.set_game("games/" + game);
  v1::Event* e = req.add_events();
  e->mutable_at()->set_seconds(1'780'000'010 + i);
  e->mutable_move()->set_color(black ? v1::BLACK : v1::WHITE);
  e->mutable_move()->set_point(
      absl::StrCat(std::string(1, kColumns[n % 19]), black ? 1 + n / 19 : 19 - n / 19));
  return req;
}

// Streams busy recording when the server shuts down: each ends UNAVAILABLE
// after its last answer, and every answered request is in the ledger the
// next server opens.
TEST_F(RecordStreamTest, AShutdownUnderLoadKeepsEveryAnsweredRequest) {
  Start();
  constexpr int kStreams = 6;
  for (int g = 0; g < kStreams; ++g) ASSERT_TRUE(Create("", absl::StrCat("busy", g)).ok());
  std::atomic<int> answered_in_all{0};
  std::vector<int> answered(kStreams, 0);
  std::vector<grpc::Status> ended(kStreams);
  std::vector<std::thread> clients;
  for (int g = 0; g < kStreams; ++g) {
    clients.emplace_back([&, g] {
      OpenStream s = Open("");
      v1::AppendEventsResponse answer;
      const std::string game = absl::StrCat("busy", g);
      for (int i = 0; i < 114 && Send(s, Move(game, i), &answer); ++i) {
        ++answered[static_cast<size_t>(g)];
        ++answered_in_all;
      }
      ended[static_cast<size_t>(g)] = End(s);
    });
  }
  for (const absl::Time give_up = absl::Now() + absl::Seconds(60);
       answered_in_all.load() < 60 && absl::Now() < give_up;) {
    absl::SleepFor(absl::Milliseconds(5));
  }
  const int reached = answered_in_all.load();  // the load the shutdown meets
  const absl::Time start = absl::Now();
  server_->Shutdown(absl::Seconds(30));
  const absl::Duration took = absl::Now() - start;
  for (std::thread& t : clients) t.join();
  EXPECT_GE(reached, 60) << "the shutdown came before the load";
  EXPECT_LT(took, absl::Seconds(15)) << "the streams were ended by the server";
  int busy = 0;
  for (int g = 0; g < kStreams; ++g) {
    const grpc::Status& s = ended[static_cast<size_t>(g)];
    if (answered[static_cast<size_t>(g)] == 114) continue;  // done before the shutdown
    ++busy;
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << g << ": " << s.error_message();
  }
  EXPECT_GT(busy, 0) << "no stream was still recording when the server shut down";
  server_.reset();
  Start();
  for (int g = 0; g < kStreams; ++g) {
    EXPECT_GE(Events("", absl::StrCat("busy", g)).size(),
              static_cast<size_t>(1 + answered[static_cast<size_t>(g)]))
        << "an answered request of stream " << g << " was lost";
  }
}

}  // namespace
}  // namespace arbiter::service
