// An idle server makes no wakeups of its own (issue 45.2): `arbiter serve`
// with its console, nothing asked of it, runs none of the threads the
// project starts (all named "arb-...", ledger/thread_name.h) for 5 seconds.
// A thread that sleeps on a timer (a poll of 200 ms, the HTTP accept loop's
// 10 ms idle interval) is woken, and so switched in, each time it fires.
// gRPC's and the HTTP library's own threads are not counted.
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "ledger/thread_name.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/thread_switches.h"

namespace arbiter::testing {
namespace {

std::string Listing(const std::map<std::string, uint64_t>& switches) {
  std::string out;
  for (const auto& [thread, n] : switches) absl::StrAppend(&out, "  ", thread, ": ", n, "\n");
  return out;
}

// Whether `threads` names a thread whose name (after the TID) starts `name`.
bool Has(const std::map<std::string, uint64_t>& threads, const std::string& name) {
  for (const auto& [thread, n] : threads) {
    if (thread.find(absl::StrCat(" ", kThreadNamePrefix, name)) != std::string::npos) return true;
  }
  return false;
}

TEST(IdleTest, AnIdleServerWithItsConsoleMakesNoWakeupsOfItsOwn) {
  const TempDir temp("arbiter-idle");
  // With webhooks on and an endpoint to send to (issue 46.2): its deliverer
  // sleeps until a commit too.
  ASSERT_EQ(RunArbiter({"webhook", "add", "--db", temp.path() + "/data", "--url",
                        "http://127.0.0.1:9/hook", "--kind", "game.result"})
                .exit,
            0);
  auto server = ServerProcess::Start(
      temp.path() + "/data", {"--http", "127.0.0.1:0", "--webhook-key", temp.path() + "/wh.key",
                              "--webhook-allow-private"});
  ASSERT_NE(server, nullptr);
  ASSERT_FALSE(server->console_address().empty()) << server->log();
  // Ready: it printed where it listens, after every part started. Idle: its
  // threads made no switch in the last half second (bounded wait).
  std::map<std::string, uint64_t> before = ThreadSwitches(server->pid(), kThreadNamePrefix);
  for (const absl::Time give_up = absl::Now() + absl::Seconds(20); absl::Now() < give_up;) {
    absl::SleepFor(absl::Milliseconds(500));
    const std::map<std::string, uint64_t> now = ThreadSwitches(server->pid(), kThreadNamePrefix);
    const bool settled = now == before;
    before = now;
    if (settled) break;
  }
  // The live feed's followers take their turns on the console's own loop
  // (followers.h, LoopHost): their wakeups count under "console".
  for (const char* part : {"writer", "answerer", "timekeeper", "console", "http", "live-feed",
                           "watch-hub", "webhooks"}) {
    EXPECT_TRUE(Has(before, part)) << "no thread named " << kThreadNamePrefix << part << ":\n"
                                   << Listing(before);
  }
  absl::SleepFor(absl::Seconds(5));  // the idle window measured, not a wait
  uint64_t total = 0;
  const std::map<std::string, uint64_t> made =
      SwitchesSince(before, ThreadSwitches(server->pid(), kThreadNamePrefix), &total);
  EXPECT_LE(total, 5u) << "the project's threads woke " << total << " times in 5 idle seconds:\n"
                       << Listing(made);
  EXPECT_EQ(server->Stop(SIGTERM), 0) << server->log();
}

}  // namespace
}  // namespace arbiter::testing
