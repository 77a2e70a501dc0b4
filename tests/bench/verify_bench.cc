// The offline audit behind `arbiter verify --db`, against SQLite reading the
// same rows once. The ledger holds the shared SGF games (tests/data/sgf)
// recorded over and over as games of their own until it has 50,000 events,
// then another until it has 200,000 (or one of VERIFY_EVENTS events),
// judged by the Adjudicator as the server judges them, with a signed
// checkpoint every 1,000 events and at every game's end. Among them, first,
// four Swiss tournaments of eight players and three rounds, as the server
// records them: each round paired, its games created and attached by
// round_started, played (the SGF games that end by resignation, under the
// pairing's names), and its standings recorded by the server's recorder once
// its last result is in; `verify` re-derives them (TournamentReferee).
//
//   BM_VerifyVsPlainRead  rounds alternate, on the same database: a plain
//                         read of every event row and ruling row (the
//                         columns the audit reads, bytes copied out), and
//                         the full audit (hashes, canonical parse, streams,
//                         checkpoint signatures and roots, consistency
//                         proofs, ruling rows, every game re-adjudicated);
//                         reports both rates in events/s and the audit's
//                         share of the plain read's, medians over
//                         BENCH_ROUNDS rounds (default 5); the *_per_cpu_s
//                         rates count this process's CPU time (all its
//                         threads) instead of the wall clock (the machine
//                         may be shared), and wall_over_cpu is the audit's
//                         events/s over its events per CPU-second: how many
//                         cores it kept busy. walk_thread_cpu_pct is the
//                         share of the audit's CPU time spent on the
//                         calling thread (the walk): at most 100 / that
//                         many cores can be kept busy, whatever the load.
//
// Run: build/bin/verify_bench   (VERIFY_BENCH_DIR picks the disk;
// VERIFY_GAME_THREADS sets AuditOptions::game_threads, 0 for the caller's
// thread alone; by default the audit's own choice)
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/standings_recorder.h"
#include "adjudicator/service/tournament_referee.h"
#include "adjudicator/service/tournament_store.h"
#include "benchmark/benchmark.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "ledger/reader_pool.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/store.h"
#include "tests/bench/bench_rounds.h"
#include "tests/bench/sgf_games.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

using bench::Median;

// The ledger sizes, one benchmark each.
std::vector<uint64_t> LedgerSizes() {
  const char* s = getenv("VERIFY_EVENTS");
  if (s == nullptr) return {50000, 200000};
  return {std::max<uint64_t>(1, strtoull(s, nullptr, 10))};
}

int Rounds() { return bench::BenchRounds(5); }

[[noreturn]] void Die(const std::string& what, const absl::Status& s) {
  std::fprintf(stderr, "verify_bench: %s: %s\n", what.c_str(), s.ToString().c_str());
  std::abort();
}

// The calling thread's CPU time, in seconds.
double ThreadCpu() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The shared SGF games, as events.
std::vector<std::vector<v1::Event>> SgfGames() {
  std::vector<std::vector<v1::Event>> games = bench::SgfGames();
  if (games.empty()) Die("no games", absl::NotFoundError("tests/data/sgf"));
  return games;
}

// A ledger recorded once for the whole run.
class BenchLedger {
 public:
  static constexpr int kTournaments = 4, kPlayers = 8, kRounds = 3;

  explicit BenchLedger(uint64_t wanted) : games_(SgfGames()) {
    absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(dir_.File("data"));
    if (!store.ok()) Die("open", store.status());
    auto readers = std::make_shared<ledger::ReaderPool>(*std::move(store));
    service::GameFolds folds(readers);
    ledger::LedgerOptions options;
    options.dir = dir_.File("data");
    options.judge = &folds;
    options.readers = readers;
    absl::StatusOr<std::unique_ptr<ledger::Ledger>> ledger = ledger::Ledger::Open(options);
    if (!ledger.ok()) Die("open", ledger.status());
    ledger_ = ledger->get();
    absl::StatusOr<std::unique_ptr<tournament::TournamentStore>> tournaments =
        tournament::TournamentStore::Open(ledger_, "", dir_.File("data"));
    if (!tournaments.ok()) Die("open tournaments", tournaments.status());
    tournament::StandingsRecorder recorder(ledger_, &folds, tournaments->get());
    for (int t = 0; t < kTournaments; ++t) Tournament(t, recorder);
    for (size_t n = 0; events_ < wanted; ++n) {
      std::vector<v1::Event> events = games_[n % games_.size()];
      const std::string id = absl::StrCat("verify-", n);
      events[0].mutable_game_created()->set_game_id(id);
      Append(id, 0, std::move(events));
    }
  }
  std::string db() const { return dir_.File("data") + "/ledger.db"; }
  uint64_t events() const { return events_; }
  int standings() const { return standings_; }

 private:
  void Append(const std::string& id, uint64_t at, std::vector<v1::Event> events) {
    const size_t size = events.size();
    absl::StatusOr<std::vector<v1::LedgerEntry>> r = ledger_->AppendAndWait(
        ledger::AppendRequest::Game(id, ledger::ExpectedRevision::Exactly(at), std::move(events)));
    if (!r.ok()) Die(absl::StrCat("append ", id), r.status());
    events_ += size;
  }
  // The next SGF game that ends, by a resignation, for a tournament's round.
  std::vector<v1::Event> Resigned() {
    for (size_t tried = 0; tried < games_.size(); ++tried) {
      const std::vector<v1::Event>& game = games_[next_game_++ % games_.size()];
      if (game.back().has_resign()) return game;
    }
    Die("no game ends by resignation", absl::NotFoundError("tests/data/sgf"));
  }
  void AppendTournament(const std::string& id, const std::vector<v1::TournamentEvent>& events) {
    absl::StatusOr<std::vector<v1::TournamentEvent>> now = ledger_->ReadTournament(id);
    const uint64_t at = now.ok() ? now->size() : 0;
    absl::StatusOr<std::vector<v1::LedgerEntry>> r = ledger_->AppendAndWait(
        ledger::AppendRequest::Tournament(id, ledger::ExpectedRevision::Exactly(at), events));
    if (!r.ok()) Die(absl::StrCat("append tournament ", id), r.status());
    events_ += events.size();
  }
  // Tournament `t`: created, its players, then each round.
  void Tournament(int t, tournament::StandingsRecorder& recorder) {
    const std::string id = absl::StrCat("cup-", t);
    std::vector<v1::TournamentEvent> events(1);
    v1::TournamentCreated* created = events[0].mutable_created();
    created->set_tournament_id(id);
    created->set_title(absl::StrCat("Bench Cup ", t));
    created->mutable_settings()->set_system(v1::TournamentSettings::SWISS);
    created->mutable_settings()->set_rounds(kRounds);
    for (int p = 1; p <= kPlayers; ++p) {
      v1::TournamentPlayer* player = events.emplace_back().mutable_player_added()->mutable_player();
      player->set_id(absl::StrCat("p", p));
      player->set_name(absl::StrCat("Player ", t, "-", p));
    }
    AppendTournament(id, events);
    for (int round = 1; round <= kRounds; ++round) Round(t, round, recorder);
  }
  // Round `round` of tournament `t`, paired with no player meeting another
  // twice, started as the server starts it (its games created first),
  // played, and its standings recorded.
  void Round(int t, int round, tournament::StandingsRecorder& recorder) {
    const std::string id = absl::StrCat("cup-", t);
    // Players 1-4 and 5-8 each play a round robin of three rounds.
    static constexpr int kOpponent[kRounds][4] = {{2, 1, 4, 3}, {3, 4, 1, 2}, {4, 3, 2, 1}};
    v1::TournamentEvent paired, started;
    v1::TournamentRound* r = paired.mutable_round_paired()->mutable_round();
    r->set_round(round);
    started.mutable_round_started()->set_round(round);
    std::vector<std::vector<v1::Event>> games;
    for (int p = 1; p <= kPlayers; ++p) {
      const int base = p > 4 ? 4 : 0, opponent = base + kOpponent[round - 1][p - base - 1];
      if (opponent < p) continue;
      v1::Pairing* pairing = r->add_pairings();
      pairing->set_board(r->pairings_size());
      pairing->set_black(absl::StrCat("p", p));
      pairing->set_white(absl::StrCat("p", opponent));
      const std::string game_id = absl::StrCat(id, "-r", round, "-b", pairing->board());
      v1::RoundStarted::BoardGame* attached = started.mutable_round_started()->add_games();
      attached->set_board(pairing->board());
      attached->set_game_id(game_id);
      std::vector<v1::Event>& game = games.emplace_back(Resigned());
      v1::GameCreated* created = game[0].mutable_game_created();
      created->set_game_id(game_id);
      created->mutable_black()->set_name(absl::StrCat("Player ", t, "-", p));
      created->mutable_white()->set_name(absl::StrCat("Player ", t, "-", opponent));
    }
    AppendTournament(id, {paired});
    for (std::vector<v1::Event>& game : games) {
      Append(game[0].game_created().game_id(), 0, {game[0]});
    }
    AppendTournament(id, {started});
    for (std::vector<v1::Event>& game : games) {
      const std::string game_id = game[0].game_created().game_id();
      Append(game_id, 1, std::vector<v1::Event>(game.begin() + 1, game.end()));
    }
    if (absl::Status s = recorder.Update(id); !s.ok()) Die(absl::StrCat("standings ", id), s);
    absl::StatusOr<std::vector<v1::TournamentEvent>> now = ledger_->ReadTournament(id);
    if (!now.ok()) Die(absl::StrCat("read ", id), now.status());
    // Each round's standings: its games all end.
    if (!now->back().has_standings_recorded()) {
      Die(absl::StrCat("standings ", id), absl::InternalError("round not over"));
    }
    ++standings_;
    ++events_;
  }

  testing::TempDir dir_{"verify-bench",
                        getenv("VERIFY_BENCH_DIR") != nullptr ? getenv("VERIFY_BENCH_DIR") : ""};
  std::vector<std::vector<v1::Event>> games_;
  size_t next_game_ = 0;  // the SGF game a tournament tries next
  ledger::Ledger* ledger_ = nullptr;
  uint64_t events_ = 0;
  int standings_ = 0;  // standings_recorded events
};

// Reads every row of `sql` once, copying each column out; returns the rows.
uint64_t ReadAll(ledger::Db& db, const char* sql, int columns) {
  absl::StatusOr<ledger::Stmt> q = ledger::Stmt::Prepare(db, sql);
  if (!q.ok()) Die(sql, q.status());
  uint64_t rows = 0;
  size_t bytes = 0;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) Die(sql, row.status());
    if (!*row) break;
    ++rows;
    for (int c = 0; c < columns; ++c) bytes += q->Text(c).size();
  }
  benchmark::DoNotOptimize(bytes);
  return rows;
}

void BM_VerifyVsPlainRead(benchmark::State& state, uint64_t wanted) {
  const auto bench = std::make_unique<BenchLedger>(wanted);
  absl::StatusOr<ledger::LogReader> reader = ledger::LogReader::Open(bench->db());
  if (!reader.ok()) Die("read", reader.status());
  ledger::TuneHeapForAudit();  // as `arbiter verify` does
  AdjudicatorJudge judge;
  ledger::AuditOptions options;
  options.judge = &judge;
  if (const char* threads = getenv("VERIFY_GAME_THREADS"); threads != nullptr) {
    options.game_threads = atoi(threads);
  }
  for (auto _ : state) {
    std::vector<double> plain, audit, ratio, plain_cpu, audit_cpu, cores, walk_share;
    auto cpu = [] { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; };
    for (int round = 0; round < Rounds(); ++round) {
      double c0 = cpu();
      absl::Time t0 = absl::Now();
      const uint64_t rows =
          ReadAll(reader->db(),
                  "SELECT position, game_id, revision, idempotency_key, event, leaf_hash "
                  "FROM events ORDER BY position",
                  6);
      ReadAll(reader->db(), "SELECT position, seq, ruling FROM rulings ORDER BY position, seq", 3);
      plain.push_back(static_cast<double>(rows) / absl::ToDoubleSeconds(absl::Now() - t0));
      plain_cpu.push_back(static_cast<double>(rows) / (cpu() - c0));
      c0 = cpu();
      tournament::TournamentReferee referee;  // as `arbiter verify` has it, one an audit
      options.tournaments = &referee;
      const double thread0 = ThreadCpu();
      t0 = absl::Now();
      absl::StatusOr<ledger::AuditReport> report =
          (*ledger::OpenStore(bench->db()))->Audit(options);
      audit.push_back(static_cast<double>(bench->events()) /
                      absl::ToDoubleSeconds(absl::Now() - t0));
      walk_share.push_back((ThreadCpu() - thread0) / (cpu() - c0));
      audit_cpu.push_back(static_cast<double>(bench->events()) / (cpu() - c0));
      if (!report.ok()) Die("audit", report.status());
      if (!report->intact || report->events != bench->events() ||
          report->games_readjudicated != report->games ||
          report->tournaments_rederived != BenchLedger::kTournaments) {
        Die("audit", absl::DataLossError(report->why));
      }
      ratio.push_back(audit.back() / plain.back());
      cores.push_back(audit.back() / audit_cpu.back());
    }
    state.counters["events"] = static_cast<double>(bench->events());
    state.counters["standings_recorded"] = bench->standings();
    state.counters["plain_read_events_per_s"] = Median(plain);
    state.counters["verify_events_per_s"] = Median(audit);
    state.counters["ratio_pct"] = 100 * Median(ratio);
    state.counters["plain_read_events_per_cpu_s"] = Median(plain_cpu);
    state.counters["verify_events_per_cpu_s"] = Median(audit_cpu);
    state.counters["wall_over_cpu"] = Median(cores);
    state.counters["walk_thread_cpu_pct"] = 100 * Median(walk_share);
  }
}
}  // namespace
}  // namespace arbiter

int main(int argc, char** argv) {
  for (uint64_t events : arbiter::LedgerSizes()) {
    benchmark::RegisterBenchmark(absl::StrCat("BM_VerifyVsPlainRead/events:", events).c_str(),
                                 arbiter::BM_VerifyVsPlainRead, events)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
