// The console's guards as parts: the request examination (request_head.h),
// the sessions' caps (sessions.h), the sign-in buckets (login_throttle.h,
// on a clock the test moves) and the bidi stripping (bidi.h). The same
// behaviour is tested from outside in console_guard_test.cc; here each
// limit is hit exactly.
#include <string>

#include <functional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "adjudicator/service/console/bidi.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/login_throttle.h"
#include "adjudicator/service/console/request_head.h"
#include "adjudicator/service/console/sessions.h"
#include "adjudicator/service/console/venue_time.h"
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

// A sign-in's Origin or Referer (issue 43.11): the console's scheme, a
// name the Host check takes on this connection, and its port.
TEST(RequestHeadTest, ASignInsOriginMustBeThisConsole) {
  for (const char* ok :
       {"http://127.0.0.1:8080", "http://localhost:8080", "HTTP://Arbiter.Hall:8080",
        "http://arbiter.hall.:8080", "http://127.0.0.1:8080/login?failed=1"}) {
    EXPECT_TRUE(IsOwnOrigin(ok, "http", 8080, kLoopback)) << ok;
  }
  for (const char* bad : {"null", "", "http://attacker.example:8080", "https://127.0.0.1:8080",
                          "http://127.0.0.1:8081", "http://127.0.0.1", "http://user@127.0.0.1:8080",
                          "http://127.0.0.1:8080.attacker.example", "http://arbiter.hall.evil:8080",
                          "http://127.0.0.1:", "127.0.0.1:8080", "file:///login"}) {
    EXPECT_FALSE(IsOwnOrigin(bad, "http", 8080, kLoopback)) << bad;
  }
  // The scheme's default port is left out; a LAN address takes no localhost.
  const HostRule lan{{"arbiter.hall"}, "192.168.1.10", false};
  EXPECT_TRUE(IsOwnOrigin("https://arbiter.hall", "https", 443, lan));
  EXPECT_TRUE(IsOwnOrigin("https://192.168.1.10:443", "https", 443, lan));
  EXPECT_FALSE(IsOwnOrigin("https://localhost", "https", 443, lan));
  EXPECT_FALSE(IsOwnOrigin("http://arbiter.hall", "https", 443, lan));
  const HostRule v6{{}, "::1", true};
  EXPECT_TRUE(IsOwnOrigin("http://[::1]:8080", "http", 8080, v6));
  EXPECT_FALSE(IsOwnOrigin("http://[::2]:8080", "http", 8080, v6));
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

// SECURITY.md: "at most 20 sign-ins per client address in a burst, then one
// per 3 s" and "10 per token, then one per 6 s". One bucket, tried on the
// clock the test keeps.
using Take = std::function<absl::Duration(LoginThrottle&, absl::Time)>;

const absl::Time kT0 = absl::FromUnixSeconds(1780000000);

// Spends the burst at kT0, then tries every `pace` for `tries` tries: after
// try k (at k * pace) exactly floor(k * pace / refill) are let through, the
// rate promised whatever the pace; a refusal's wait runs to the next refill.
void ExpectOnePerRefill(const Take& take, int burst, absl::Duration refill, absl::Duration pace,
                        int tries) {
  LoginThrottle throttle;
  for (int i = 0; i < burst; ++i) ASSERT_EQ(take(throttle, kT0), absl::ZeroDuration()) << i;
  ASSERT_EQ(take(throttle, kT0), refill) << "the burst is spent";
  int through = 0;
  for (int k = 1; k <= tries; ++k) {
    const absl::Duration at = k * pace;
    const absl::Duration wait = take(throttle, kT0 + at);
    if (wait == absl::ZeroDuration()) ++through;
    const int64_t refills = at / refill;  // whole refill periods since the burst
    ASSERT_EQ(through, refills) << "after the try at " << at << " (every " << pace << ")";
    if (wait > absl::ZeroDuration()) {
      EXPECT_EQ(wait, (refills + 1) * refill - at) << "the try at " << at;
    }
  }
}

TEST(LoginThrottleTest, AnAddressRetryingAtAnyPaceGetsOneSignInPerRefill) {
  const Take address = [](LoginThrottle& t, absl::Time now) {
    return t.TakeAddress("10.0.0.7", now);
  };
  // Every second: the 3rd, 6th, 9th... try is let through.
  ExpectOnePerRefill(address, 20, absl::Seconds(3), absl::Seconds(1), 30);
  // Every 2.9 s: the first try (2.9 s) is refused, the 2nd (5.8 s) let
  // through, and so on, one per 3 s.
  ExpectOnePerRefill(address, 20, absl::Seconds(3), absl::Milliseconds(2900), 60);
  EXPECT_EQ(kLoginBurstPerAddress, 20);
  EXPECT_EQ(kLoginRefillPerAddress, absl::Seconds(3));
}

TEST(LoginThrottleTest, ATokenRetryingAtAnyPaceGetsOneSignInPerRefill) {
  const Take token = [](LoginThrottle& t, absl::Time now) { return t.TakeToken("1a2b3c4d", now); };
  ExpectOnePerRefill(token, 10, absl::Seconds(6), absl::Seconds(1), 60);
  ExpectOnePerRefill(token, 10, absl::Seconds(6), absl::Milliseconds(5900), 60);
  EXPECT_EQ(kLoginBurstPerToken, 10);
  EXPECT_EQ(kLoginRefillPerToken, absl::Seconds(6));
}

TEST(LoginThrottleTest, EachAddressAndEachTokenHasItsOwnBucket) {
  LoginThrottle throttle;
  for (int i = 0; i < 20; ++i)
    ASSERT_EQ(throttle.TakeAddress("10.0.0.7", kT0), absl::ZeroDuration());
  EXPECT_GT(throttle.TakeAddress("10.0.0.7", kT0), absl::ZeroDuration());
  EXPECT_EQ(throttle.TakeAddress("10.0.0.8", kT0), absl::ZeroDuration());
  EXPECT_EQ(throttle.TakeToken("1a2b3c4d", kT0), absl::ZeroDuration());
  // Idle for a whole burst's refill: the full burst again, no more.
  const absl::Time later = kT0 + 20 * absl::Seconds(3);
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(throttle.TakeAddress("10.0.0.7", later), absl::ZeroDuration()) << i;
  }
  EXPECT_EQ(throttle.TakeAddress("10.0.0.7", later), absl::Seconds(3));
}

// The venue's clock: the date and time there, and the offset at that
// instant, whole hours or not, either side of UTC (tz database zones).
TEST(VenueTimeTest, TimesAreSaidInTheVenuesZoneWithTheirOffset) {
  const absl::Time at = absl::FromUnixSeconds(1796613300);  // 2026-12-07T03:15:00Z
  EXPECT_EQ(VenueTime().Format(at), "2026-12-07 03:15:00 UTC");
  EXPECT_EQ(VenueTime().name(), "UTC");
  const struct {
    const char* zone;
    const char* said;
  } cases[] = {
      {"UTC", "2026-12-07 03:15:00 UTC"},
      {"Asia/Shanghai", "2026-12-07 11:15:00 UTC+8"},
      {"Asia/Kathmandu", "2026-12-07 09:00:00 UTC+5:45"},
      {"America/St_Johns", "2026-12-06 23:45:00 UTC-3:30"},
      {"Europe/Paris", "2026-12-07 04:15:00 UTC+1"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<VenueTime> zone = VenueTime::Load(c.zone);
    ASSERT_TRUE(zone.ok()) << c.zone << ": " << zone.status();
    EXPECT_EQ(zone->Format(at), c.said) << c.zone;
    EXPECT_EQ(zone->name(), c.zone);
  }
  // Summer in Paris: the offset of that instant, not of the zone's winter.
  EXPECT_EQ(VenueTime::Load("Europe/Paris")->Format(absl::FromUnixSeconds(1783307700)),
            "2026-07-06 05:15:00 UTC+2");
}

TEST(VenueTimeTest, OnlyANamedZoneIsTaken) {
  for (const char* bad :
       {"", "Mars/Olympus", "/etc/localtime", "../../etc/passwd", "Asia/../Asia/Shanghai"}) {
    absl::StatusOr<VenueTime> zone = VenueTime::Load(bad);
    EXPECT_EQ(zone.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_TRUE(absl::StrContains(zone.status().message(), "IANA name such as Asia/Shanghai"))
        << zone.status();
  }
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
