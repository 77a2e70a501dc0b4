// The public broadcast's view of the log (`arbiter serve --broadcast`,
// DOMAIN.md "The public broadcast"): each game folded up to the last entry
// the server received at least `delay` ago, and a Server-Sent Event per
// entry released, for the viewers that follow (followers.h).
//
// Entries are released in position order, never one before an earlier
// one: an entry not yet due holds back every later entry, of any game, so
// a viewer resuming after position P is sent every later release and none
// is skipped. The time an entry was played is its arrival in the ledger
// (ledger/log_source.h Arrival, the server's clock), not its `at`, which
// the recorder may date up to --max-skew away. An entry recorded before
// the ledger kept arrivals is released at once.
//
// What leaves is public only (public_board.h): players, the position,
// clocks, penalty stones, the result; never a ruling's note, an event's
// actor or a token's name. Its own folds judge the released events with
// the rules each game pinned, so the broadcast never reads the live read
// model (which is ahead by the delay).
//
// Event ids name the log and the position: "<origin>/<position>", so a
// viewer's Last-Event-ID resumes it on this server after a restart, or on
// any server of the same log, and one from another log is refused.
//
// A move is sent as a `move` event of a few hundred bytes (its stone, its
// captures, the clocks), not the whole board: 100 moves a second to 16,000
// viewers as whole boards was over a gigabyte a second (tests/bench/README.md
// "The broadcast"). The whole board goes as a `board` event where a viewer
// needs it: on connect (a snapshot of each game) and for an entry that
// changes the game other than by a move's stone (a takeback, a displaced
// stone, dead stones, a penalty, the game's creation).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BROADCAST_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BROADCAST_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/console/feed_source.h"
#include "adjudicator/service/console/loop_host.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rulings.pb.h"
#include "ledger/ledger.h"

namespace arbiter::service::console {

// `arbiter serve --broadcast-delay`: 0 to 60 minutes.
inline constexpr absl::Duration kMaxBroadcastDelay = absl::Minutes(60);

// The delay as the flag gives it ("15m", "90s"); INVALID_ARGUMENT, saying
// the range, for anything else or out of range.
absl::StatusOr<absl::Duration> ParseBroadcastDelay(absl::string_view text);

// One game as released: what the public sees of it.
struct PublicGame {
  std::string game_id;
  uint64_t position = 0;  // its last released entry's
  v1::GameCreated created;
  v1::GameState state;               // warnings and pending rulings cleared
  std::optional<v1::Result> result;  // its public part (no clause, no ruling)
  bool cancelled = false;
  std::string sgf;  // the game so far, without notes (ExportPublicSgf)
};

class Broadcast final : public FeedSource {
 public:
  static constexpr size_t kWindow = 4096;  // events kept for viewers resuming
  // Next()'s `after` for a viewer that connects without an id: it is sent
  // a `board` event of each game, the last with the id of the position
  // released, then every later event.
  static constexpr uint64_t kSnapshot = ~uint64_t{0};

  struct Options {
    absl::Duration delay = absl::ZeroDuration();
    std::function<absl::Time()> now = [] { return absl::Now(); };
    // With a `host`, entries are released as they fall due and as commits
    // come, in turns on the host's loop's thread (the console's: a server
    // with --broadcast stays within its thread budget, ThreadsTest);
    // without one only Advance() releases them (tests, on a clock they
    // move). Not owned; it must outlive Stop().
    LoopHost* host = nullptr;
  };

  // The broadcast of `ledger` (not owned; it must outlive this), with what
  // is due now released. The ledger's read errors.
  static absl::StatusOr<std::unique_ptr<Broadcast>> Open(ledger::Ledger* ledger, Options options);
  ~Broadcast() override;  // Stop()s

  // Ends the turns on the host's loop; followers' Next says `closed` from now
  // on. Idempotent.
  void Stop();

  // Releases, in position order, every entry received at least `delay`
  // before now; answers when the next held entry falls due
  // (InfiniteFuture: none is held). The ledger's read errors.
  absl::StatusOr<absl::Time> Advance();

  // The last position released.
  uint64_t released();
  const std::string& origin() const { return origin_; }
  absl::Duration delay() const { return options_.delay; }

  // The game as released (its `sgf` only `with_sgf`); NOT_FOUND when
  // nothing of it is.
  absl::StatusOr<PublicGame> Game(const std::string& game_id, bool with_sgf = false);

  // "<origin>/<position>", and back: INVALID_ARGUMENT for an id of another
  // log or one that names no position.
  std::string EventId(uint64_t position) const;
  absl::StatusOr<uint64_t> ParseEventId(absl::string_view id) const;

  // FeedSource: `after` and `next` are ledger positions.
  int wake_fd() const override { return wake_; }
  FeedBatch Next(uint64_t after, size_t max_bytes) override;

 private:
  struct Folded {
    std::string pin;
    std::vector<v1::Event> events;
    std::unique_ptr<ledger::GameJudge> fold;
    uint64_t position = 0;
    bool broken = false;  // an event did not fold (the audit says why): shown as it stood
    PublicGame shown;     // as of `position`, for the next entry's move event
    // Its `board` event (no id) as of `snapshot_at`, for the snapshots.
    std::string snapshot;
    uint64_t snapshot_at = 0;
  };

  Broadcast(ledger::Ledger* ledger, Options options);
  // A turn on the host's loop: releases what is due, and sets the timer
  // for the next held entry.
  void HostedTurn();
  void ArmTimer(absl::Time due);
  // Folds `entry` into its game and keeps its event (when at or after
  // `messages_from_`); the ledger's errors.
  absl::Status Release(const v1::LedgerEntry& entry) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  PublicGame PublicOf(const std::string& game_id, const Folded& game) const;
  // Keeps the SSE text of `event` at `position` in the window.
  void Keep(uint64_t position, absl::string_view kind, const std::string& data)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Next(kSnapshot): a `board` event of each game shown, as released now.
  FeedBatch Snapshot() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Wake();

  ledger::Ledger* const ledger_;
  const Options options_;
  const std::string origin_;
  const int wake_;
  AdjudicatorJudge judge_;
  int listener_ = -1;
  // Hosted: an epoll set of `commits_` (an eventfd the commit listener
  // writes) and `timer_` (a timerfd: the next held entry falls due).
  int epoll_ = -1;
  int commits_ = -1;
  int timer_ = -1;

  absl::Mutex advance_mu_;  // one Advance at a time
  // When the entry Advance last held falls due.
  absl::Time held_until_ ABSL_GUARDED_BY(advance_mu_) = absl::InfinitePast();
  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t released_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, Folded> games_ ABSL_GUARDED_BY(mu_);
  // Events of the positions after floor_, by position; those at or before
  // floor_ were not kept (history before the window, or dropped from it).
  std::deque<std::pair<uint64_t, std::string>> events_ ABSL_GUARDED_BY(mu_);
  uint64_t floor_ ABSL_GUARDED_BY(mu_) = 0;
};

// The public game as one line of JSON (the SSE events' data): the game,
// its position, the players, move number, side to move, the board rows,
// each clock in JGOF's fields (main_time, periods_left, period_time_left,
// in ms), penalty stones and the result.
std::string PublicGameJson(const PublicGame& game);

// Play has ended with two passes and the game awaits its count (no result,
// not cancelled): the pages say "counting", the events carry `counting`.
inline bool Counting(const PublicGame& game) {
  return !game.result.has_value() && !game.cancelled && game.state.consecutive_passes() >= 2;
}

// The `move` event's data for `event` (a move, a sealed move opened, or a
// pass) that took the game from `before` to `after`, when the board changed
// by its stone and the stones it captured only (a pass: not at all) and
// nothing else shown changed but the move number, the side to move, the
// clocks and the result: one line of JSON with the game, its position, the
// move number, the side to move, `color`, `point` (GTP; `pass`: true
// instead for a pass), `captured` (GTP points), the clocks and the result
// as PublicGameJson gives them. nullopt for any other entry (a `board`
// event carries it).
std::optional<std::string> MoveEventJson(const v1::Event& event, const PublicGame& before,
                                         const PublicGame& after);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BROADCAST_H_
