// kill -9 of the writer process during a concurrent load, many times over
// one ledger: every event the writer acknowledged is there afterwards, at
// the position it was acknowledged with, and the log audits clean.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "tests/ledger/backend.h"
#include "tests/ledger/toy_judge.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::Spawn;
using ::arbiter::testing::TempDir;
using testing::Backend;
using testing::BackendName;
using testing::OptionsFor;

struct Ack {
  std::string game;
  uint64_t revision;
  std::string key;
};

// Runs the child until `run` after its first acknowledgement, kills it with
// SIGKILL, and returns what it printed before dying. The clock starts at the
// first acknowledgement, not at the fork: on a loaded machine (CI runs the
// suite two tests at a time) opening the ledger alone can take longer than
// `run`, and a kill before any append proves nothing.
std::string RunAndKill(const LedgerOptions& where, const std::string& tag, absl::Duration run) {
  int fds[2];
  EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);
  std::vector<std::string> argv = {LEDGER_CRASH_CHILD, where.dir, tag};
  if (!where.key_dir.empty()) argv.push_back(where.key_dir);
  const pid_t pid = Spawn(argv, {.out = fds[1]});
  close(fds[1]);
  std::string out;
  char buf[4096];
  absl::Time deadline = absl::Now() + absl::Seconds(60);  // no acknowledgement at all
  bool acked = false;
  bool killed = false;
  for (;;) {
    if (!killed && absl::Now() >= deadline) {
      kill(pid, SIGKILL);
      killed = true;
    }
    pollfd p{fds[0], POLLIN, 0};
    poll(&p, 1, killed ? 1000 : 5);
    if (p.revents == 0) continue;
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;  // EOF: the child is gone
    out.append(buf, n);
    if (!acked && out.find('\n') != std::string::npos) {
      acked = true;
      deadline = absl::Now() + run;
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the child died on its own (status " << status << ")";
  return out;
}

// On both backends (backend.h).
class CrashTest : public ::testing::TestWithParam<Backend> {};

TEST_P(CrashTest, KillNineNeverLosesAnAcknowledgedEvent) {
  TempDir dir;
  std::string uri;
  const LedgerOptions where = OptionsFor(GetParam(), dir.path(), &uri);
  testing::ToyJudge judge;
  std::map<uint64_t, Ack> acks;
  std::mt19937 rng(42);
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    std::string out =
        RunAndKill(where, absl::StrCat("k", round), absl::Milliseconds(60 + rng() % 240));
    std::istringstream lines(out);
    uint64_t position;
    Ack ack;
    int acked = 0;
    while (lines >> position >> ack.game >> ack.revision >> ack.key) {
      EXPECT_EQ(acks.count(position), 0u) << "position " << position << " acknowledged twice";
      acks[position] = ack;
      ++acked;
    }
    EXPECT_GT(acked, 0) << "round " << round << " acknowledged nothing";

    // Reopening recovers; then every acknowledgement so far is checked.
    LedgerOptions o = where;
    o.judge = &judge;
    auto ledger = Ledger::Open(o);
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    for (const auto& [pos, a] : acks) {
      auto got = (*ledger)->log().ReadLog(pos - 1, 1);
      ASSERT_TRUE(got.ok());
      ASSERT_EQ(got->size(), 1u) << "acknowledged position " << pos << " is gone (round " << round
                                 << ")";
      ASSERT_EQ((*got)[0].game_id(), a.game);
      ASSERT_EQ((*got)[0].revision(), a.revision);
      v1::Event e;
      ASSERT_TRUE(e.ParseFromString((*got)[0].event()));
      ASSERT_EQ(e.idempotency_key(), a.key);
    }
  }
  LedgerOptions lo = where;
  lo.judge = &judge;
  auto ledger = Ledger::Open(lo);
  ASSERT_TRUE(ledger.ok()) << ledger.status();
  AuditOptions o;
  o.judge = &judge;
  auto report = (*ledger)->Audit(o);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->intact) << report->first_bad_position << ": " << report->why;
  EXPECT_GE(report->events, acks.size());
  EXPECT_GT(report->checkpoints, 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, CrashTest, ::testing::ValuesIn(testing::kAllBackends),
                         BackendName);

}  // namespace
}  // namespace arbiter::ledger
