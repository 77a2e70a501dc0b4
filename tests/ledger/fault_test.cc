// Storage failures at every point of a write: SQLITE_FULL and I/O errors on
// write and on sync give no acknowledgement and no corruption, the ledger
// keeps going once the storage heals, and simulated power loss keeps every
// acknowledged event.
#include <sqlite3.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/store.h"
#include "tests/ledger/fault_vfs.h"
#include "tests/ledger/toy_judge.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::TempDir;

using testing::Created;
using testing::FaultVfs;
using testing::Pass;

struct Ack {
  std::string game;
  uint64_t revision;
  std::string key;
};

class FaultTest : public ::testing::Test {
 protected:
  std::unique_ptr<Ledger> Open(const char* vfs) {
    LedgerOptions o;
    o.dir = dir_.path();
    o.judge = &judge_;
    o.checkpoint_every = 25;
    o.vfs = vfs;
    auto l = Ledger::Open(o);
    EXPECT_TRUE(l.ok()) << l.status();
    return l.ok() ? *std::move(l) : nullptr;
  }

  // Every acknowledged event is in the log where it was acknowledged, and
  // the whole log audits clean.
  void ExpectAllAcknowledgedAndIntact(const std::map<uint64_t, Ack>& acks) {
    auto reader = LogReader::Open(dir_.File("ledger.db"));
    ASSERT_TRUE(reader.ok());
    for (const auto& [position, ack] : acks) {
      auto got = reader->ReadLog(position - 1, 1);
      ASSERT_TRUE(got.ok());
      ASSERT_EQ(got->size(), 1u) << "acknowledged position " << position << " is gone";
      EXPECT_EQ((*got)[0].game_id(), ack.game) << position;
      EXPECT_EQ((*got)[0].revision(), ack.revision) << position;
      v1::Event e;
      ASSERT_TRUE(e.ParseFromString((*got)[0].event()));
      EXPECT_EQ(e.idempotency_key(), ack.key) << position;
    }
    AuditOptions o;
    o.judge = &judge_;
    auto report = (*OpenStore(dir_.File("ledger.db")))->Audit(o);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(report->intact) << report->first_bad_position << ": " << report->why;
  }

  TempDir dir_;
  testing::ToyJudge judge_;
};

TEST_F(FaultTest, FailedWritesAndSyncsAreNeverAcknowledged) {
  FaultVfs& vfs = FaultVfs::Get();
  std::map<uint64_t, Ack> acks;
  {
    auto ledger = Open(FaultVfs::kName);
    ASSERT_NE(ledger, nullptr);
    auto first = ledger->AppendAndWait(
        AppendRequest::Game("g", ExpectedRevision::NoStream(), {Created("g", "g-1")}));
    ASSERT_TRUE(first.ok());
    acks[1] = {"g", 1, "g-1"};
    uint64_t revision = 1;
    int refused = 0;
    // Fail the k-th write or sync of an append, for every k that an append
    // reaches, with each kind of error.
    struct Fault {
      bool sync;
      int rc;
    };
    for (Fault f : {Fault{false, SQLITE_FULL}, Fault{false, SQLITE_IOERR_WRITE},
                    Fault{true, SQLITE_IOERR_FSYNC}, Fault{true, SQLITE_FULL}}) {
      for (int after = 0; after < 4; ++after) {
        std::string key = absl::StrCat("g-", revision + 1);
        if (f.sync) {
          vfs.FailSyncs(after, f.rc);
        } else {
          vfs.FailWrites(after, f.rc);
        }
        auto r = ledger->AppendAndWait(
            AppendRequest::Game("g", ExpectedRevision::Exactly(revision), {Pass(v1::BLACK, key)}));
        vfs.Heal();
        if (r.ok()) {  // the fault came after this append's writes
          acks[(*r)[0].position()] = {"g", ++revision, key};
          continue;
        }
        ++refused;
        EXPECT_TRUE(absl::IsResourceExhausted(r.status()) || absl::IsUnavailable(r.status()))
            << r.status();
        // Healed, the retry with the same key succeeds exactly once. (If the
        // failed commit did reach the disk, the key returns that event.)
        auto retry = ledger->AppendAndWait(
            AppendRequest::Game("g", ExpectedRevision::Any(), {Pass(v1::BLACK, key)}));
        ASSERT_TRUE(retry.ok()) << retry.status();
        EXPECT_EQ((*retry)[0].revision(), revision + 1);
        acks[(*retry)[0].position()] = {"g", ++revision, key};
      }
    }
    EXPECT_GE(refused, 8);
    EXPECT_EQ(*ledger->log().Head(), revision);
  }
  auto reopened = Open(nullptr);
  ASSERT_NE(reopened, nullptr);
  reopened.reset();
  ExpectAllAcknowledgedAndIntact(acks);
}

// The writer reserves the log's file when it opens (WalCheckpointer::Reserve):
// a disk with no room for that still opens the ledger and takes what fits.
TEST_F(FaultTest, ALedgerOpensAndWritesWhereItsLogCannotBeReserved) {
  FaultVfs& vfs = FaultVfs::Get();
  {
    auto ledger = Open(FaultVfs::kName);
    ASSERT_NE(ledger, nullptr);
    ASSERT_TRUE(ledger
                    ->AppendAndWait(AppendRequest::Game("g", ExpectedRevision::NoStream(),
                                                        {Created("g", "g-1")}))
                    .ok());
  }
  // Closed, the log is gone: each opening makes it anew and reserves it
  // last, in writes of 64 KiB. Counted once, so that the next opening can
  // meet a full disk at exactly its first write of the reservation.
  const int64_t before = vfs.writes();
  int64_t opening = 0, reservation = 0;
  {
    auto ledger = Open(FaultVfs::kName);
    ASSERT_NE(ledger, nullptr);
    opening = vfs.writes() - before;
    const auto reserved = std::filesystem::file_size(dir_.File("ledger.db") + "-wal");
    ASSERT_GE(reserved, 1000u * (4096 + 24)) << "the log was not reserved";
    reservation = static_cast<int64_t>((reserved + (64 << 10) - 1) / (64 << 10));
  }
  ASSERT_GT(opening, reservation);
  vfs.FailWrites(static_cast<int>(opening - reservation), SQLITE_FULL);
  auto ledger = Open(FaultVfs::kName);
  vfs.Heal();
  ASSERT_NE(ledger, nullptr);
  EXPECT_LT(std::filesystem::file_size(dir_.File("ledger.db") + "-wal"), 64u << 10)
      << "the full disk took the reservation";
  auto next = ledger->AppendAndWait(
      AppendRequest::Game("g", ExpectedRevision::Exactly(1), {Pass(v1::BLACK, "g-2")}));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ((*next)[0].position(), 2u);
  ledger.reset();
  ExpectAllAcknowledgedAndIntact({{1, {"g", 1, "g-1"}}, {2, {"g", 2, "g-2"}}});
}

TEST_F(FaultTest, FaultsUnderConcurrentLoad) {
  FaultVfs& vfs = FaultVfs::Get();
  std::map<uint64_t, Ack> acks;
  std::mutex mu;
  {
    auto ledger = Open(FaultVfs::kName);
    ASSERT_NE(ledger, nullptr);
    std::atomic<bool> stop{false};
    std::vector<std::thread> writers;
    for (int t = 0; t < 8; ++t) {
      writers.emplace_back([&, t] {
        std::string game = absl::StrCat("w", t);
        uint64_t revision = 0;
        while (!stop.load()) {
          std::string key = absl::StrCat(game, "-", revision + 1);
          v1::Event e = revision == 0 ? Created(game, key) : Pass(v1::WHITE, key);
          auto r = ledger->AppendAndWait(
              AppendRequest::Game(game, ExpectedRevision::Exactly(revision), {e}));
          if (!r.ok()) continue;  // not acknowledged: retried with the same key
          std::lock_guard<std::mutex> lock(mu);
          acks[(*r)[0].position()] = {game, ++revision, key};
        }
      });
    }
    // Forty rounds of faults at least, and on until enough appends were
    // acknowledged between them: a slow disk (CI's) must not leave the
    // test with too few acknowledgements to mean anything.
    auto acknowledged = [&] {
      std::lock_guard<std::mutex> lock(mu);
      return acks.size();
    };
    const absl::Time deadline = absl::Now() + absl::Seconds(60);
    std::mt19937 rng(7);
    for (int i = 0; (i < 40 || acknowledged() <= 100) && absl::Now() < deadline; ++i) {
      if (rng() % 2) {
        vfs.FailWrites(rng() % 6, rng() % 2 ? SQLITE_FULL : SQLITE_IOERR_WRITE);
      } else {
        vfs.FailSyncs(rng() % 3, SQLITE_IOERR_FSYNC);
      }
      absl::SleepFor(absl::Milliseconds(3));
      vfs.Heal();
      absl::SleepFor(absl::Milliseconds(3));
    }
    stop = true;
    for (auto& w : writers) w.join();
  }
  EXPECT_GT(acks.size(), 100u) << "too few appends were acknowledged between the faults";
  ExpectAllAcknowledgedAndIntact(acks);
}

// Power is cut at a random moment under load; the files are left as a
// machine that lost power could leave them (unsynced writes dropped, some
// at random kept). Every acknowledged event survives, and the log audits
// clean. The same directory goes through every round.
TEST_F(FaultTest, PowerLossKeepsEveryAcknowledgedEvent) {
  FaultVfs& vfs = FaultVfs::Get();
  std::map<uint64_t, Ack> acks;
  std::mutex mu;
  std::mt19937 rng(2024);
  std::map<std::string, uint64_t> revisions;
  int dropped_total = 0;
  for (int round = 0; round < 12; ++round) {
    vfs.TrackUnsynced();
    {
      auto ledger = Open(FaultVfs::kName);
      ASSERT_NE(ledger, nullptr) << "round " << round;
      std::atomic<bool> stop{false};
      std::vector<std::thread> writers;
      for (int t = 0; t < 6; ++t) {
        std::string game = absl::StrCat("r", round, "w", t);
        writers.emplace_back([&, game] {
          uint64_t revision = 0;
          while (!stop.load()) {
            std::string key = absl::StrCat(game, "-", revision + 1);
            v1::Event e = revision == 0 ? Created(game, key) : Pass(v1::BLACK, key);
            auto r = ledger->AppendAndWait(
                AppendRequest::Game(game, ExpectedRevision::Exactly(revision), {e}));
            if (!r.ok()) continue;
            std::lock_guard<std::mutex> lock(mu);
            acks[(*r)[0].position()] = {game, ++revision, key};
          }
        });
      }
      // Mostly in the middle of a commit; sometimes between commits.
      if (round % 4 == 3) {
        absl::SleepFor(absl::Milliseconds(10 + rng() % 40));
        vfs.PowerCut();
      } else {
        vfs.PowerCutAtWrite(20 + rng() % 200);
        for (int i = 0; i < 2000 && !vfs.power_cut(); ++i) absl::SleepFor(absl::Milliseconds(1));
        ASSERT_TRUE(vfs.power_cut());
      }
      stop = true;
      for (auto& w : writers) w.join();
    }
    dropped_total += vfs.RestorePowerLoss(rng(), 0.5);
    auto reopened = Open(nullptr);  // recovery, through the plain VFS
    ASSERT_NE(reopened, nullptr) << "round " << round;
    reopened.reset();
    ExpectAllAcknowledgedAndIntact(acks);
    if (HasFailure()) return;
  }
  EXPECT_GT(dropped_total, 0) << "the simulation never dropped a write";
  EXPECT_GT(acks.size(), 100u);
}

}  // namespace
}  // namespace arbiter::ledger
