// The console's guards as parts: the request examination (request_head.h),
// the sessions' caps (sessions.h) and the bidi stripping (bidi.h). The same
// behaviour is tested from outside in console_guard_test.cc; here each
// limit is hit exactly.
#include <string>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/bidi.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/request_head.h"
#include "adjudicator/service/console/sessions.h"
#include "arbiter/v1/events.pb.h"
#include "gtest/gtest.h"
#include "ledger/server_tables.h"
#include "ledger/store.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace arbiter::service::console {
namespace {

const HostRule kLoopback{{"arbiter.hall"}, "127.0.0.1", true};

RequestVerdict Examine(const std::string& bytes) { return ExamineRequest(bytes, kLoopback); }

TEST(RequestHeadTest, AWholeRequestIsFramedWithItsBody) {
  const std::string one =
      "POST /x HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Length: 3\r\n\r\nabc";
  EXPECT_EQ(Examine(one.substr(0, one.size() - 1)).kind, RequestVerdict::Kind::kIncomplete);
  const RequestVerdict v = Examine(one + "GET / HTTP/1.1\r\n");
  EXPECT_EQ(v.kind, RequestVerdict::Kind::kComplete);
  EXPECT_EQ(v.size, one.size());
}

TEST(RequestHeadTest, EachLimitIsRefusedWithItsStatus) {
  const std::string host = "GET / HTTP/1.1\r\nHost: localhost\r\n";
  std::string lines = host;
  for (int i = 0; i < kMaxHeaderLines; ++i) absl::StrAppend(&lines, "X: ", i, "\r\n");
  EXPECT_EQ(Examine(lines + "\r\n").status, 431);  // 65 lines with Host
  EXPECT_EQ(Examine(lines).status, 431);           // known before the head ends
  EXPECT_EQ(Examine(absl::StrCat(host, "X: ", std::string(kMaxLineBytes, 'a'))).status, 431);
  EXPECT_EQ(Examine(absl::StrCat("GET /", std::string(kMaxLineBytes, 'a'))).status, 414);
  EXPECT_EQ(Examine(absl::StrCat(host, "Content-Length: ", kMaxBodyBytes + 1, "\r\n\r\n")).status,
            413);
  EXPECT_EQ(Examine(host + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n").status, 400);
  EXPECT_EQ(Examine(host + "Transfer-Encoding: chunked\r\n\r\n").status, 411);
  EXPECT_EQ(Examine("GET / HTTP/1.1\r\n\r\n").status, 400);
}

TEST(RequestHeadTest, HostMustNameThisServer) {
  auto status = [](const std::string& host, const HostRule& rule) {
    return ExamineRequest(absl::StrCat("GET / HTTP/1.1\r\nHost: ", host, "\r\n\r\n"), rule).status;
  };
  for (const char* ok : {"127.0.0.1", "127.0.0.1:80", "localhost:8080", "LocalHost.",
                         "arbiter.hall:443", "ARBITER.HALL"}) {
    EXPECT_EQ(status(ok, kLoopback), 0) << ok;
  }
  for (const char* bad : {"attacker.example", "127.0.0.2", "", "arbiter.hall.evil"}) {
    EXPECT_EQ(status(bad, kLoopback), 421) << bad;
  }
  const HostRule lan{{}, "192.168.1.10", false};
  EXPECT_EQ(status("192.168.1.10:8080", lan), 0);
  EXPECT_EQ(status("localhost", lan), 421);  // not a loopback connection
  const HostRule v6{{}, "::1", true};
  EXPECT_EQ(status("[::1]:8080", v6), 0);
}

// Kept in the ledger's tables (here a data folder's ledger.db), with caps
// small enough to reach: 4 per token, 12 in all.
TEST(SessionsTest, ATokenHoldsAtMostItsCapAndEvictsOnlyItsOwn) {
  ::arbiter::testing::TempDir dir("sessions-caps");
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(dir.path());
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables = (*store)->OpenServerTables(false);
  ASSERT_TRUE(tables.ok()) << tables.status();
  Sessions sessions(tables->get(), 4, 12);
  auto live = [&](const Session& s) { return sessions.Find(s.id).value().has_value(); };
  absl::StatusOr<Session> chief = sessions.Open("1a2b3c4d");
  ASSERT_TRUE(chief.ok()) << chief.status();
  absl::StatusOr<Session> first = sessions.Open("99aa99aa");
  ASSERT_TRUE(first.ok());
  for (size_t i = 0; i < 4; ++i) ASSERT_TRUE(sessions.Open("99aa99aa").ok());
  EXPECT_FALSE(live(*first));  // its own oldest went
  EXPECT_TRUE(live(*chief));
  // Open sessions (no token) fill the server: the largest group pays.
  for (size_t i = 0; i < 12 + 3; ++i) ASSERT_TRUE(sessions.Open(std::nullopt).ok());
  EXPECT_TRUE(live(*chief));
  // Only the secret's hash is stored; the CSRF token is derived from it.
  for (const char* file : {"ledger.db", "ledger.db-wal"}) {
    EXPECT_EQ(::arbiter::testing::ReadFile(dir.File(file)).find(chief->id), std::string::npos);
  }
  absl::StatusOr<std::optional<Session>> again = sessions.Find(chief->id);
  ASSERT_TRUE(again.ok() && again->has_value());
  EXPECT_EQ((*again)->csrf, chief->csrf);
  EXPECT_EQ((*again)->token_id, "1a2b3c4d");
  ASSERT_TRUE(sessions.Close(chief->id).ok());
  EXPECT_FALSE(live(*chief));
}

TEST(BidiTest, ControlsAreStrippedFromTextAndFromEveryStringOfAMessage) {
  EXPECT_EQ(StripBidiControls("Li\u202eWei \u2066x\u2069 \u200e\u200f中"), "LiWei x 中");
  EXPECT_EQ(StripBidiControls("\u2028 \u2060 €"), "\u2028 \u2060 €");  // not bidi controls
  v1::Event e;
  e.set_actor("a\u202bb");
  e.mutable_game_created()->mutable_black()->set_name("Li\u202eWei");
  StripBidiControls(&e);
  EXPECT_EQ(e.actor(), "ab");
  EXPECT_EQ(e.game_created().black().name(), "LiWei");
}

}  // namespace
}  // namespace arbiter::service::console
