// Who is late, and by how much (2002 arts. 22.1-22.4; 1988 art. 23).
//
// Lateness is measured from the scheduled start for players listed absent
// when the clocks were started, and from `resumed` for a player who comes back
// late after an adjournment. Only lateness from the scheduled start can
// forfeit: a player still absent past the venue's limit loses at the instant
// of the limit (inclusive: arriving exactly at the limit is in time). With no
// limit (RAPID, 22.4) nobody forfeits and the absent player's clock just runs.
#ifndef ARBITER_ADJUDICATOR_ENGINE_LATENESS_H_
#define ARBITER_ADJUDICATOR_ENGINE_LATENESS_H_

#include <optional>

#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

class Lateness {
 public:
  // `limit`: the venue's limit, or nullopt when lateness never forfeits.
  explicit Lateness(std::optional<absl::Duration> limit = std::nullopt) : limit_(limit) {}

  // The clocks were started with `black_absent`/`white_absent` not seated.
  void Start(absl::Time scheduled_start, bool black_absent, bool white_absent);

  // Play resumes after an adjournment at `at`: either player may come back
  // late, which costs time but never forfeits.
  void Resume(absl::Time at);

  bool absent(v1::Color c) const { return state_[Index(c)].absent; }

  // Players whose forfeit deadline has passed before `at`, still absent.
  struct Overdue {
    absl::Time deadline;
    bool black = false;
    bool white = false;
  };
  std::optional<Overdue> OverdueAt(absl::Time at) const;

  // The forfeit limit of the players still absent, if any: OverdueAt(t)
  // reports them for every t after `deadline`.
  std::optional<Overdue> NextForfeit() const;

  // `c` sits down at `at`. Returns how late they are, if late at all, and
  // whether that is beyond the forfeit limit; `c` is no longer absent.
  struct Arrival {
    absl::Duration late;
    bool beyond_limit = false;
    bool after_resumption = false;  // late from `resumed`, not the scheduled start
  };
  std::optional<Arrival> Arrive(v1::Color c, absl::Time at);

  // `c` took part in play (moved, pressed): present from now on, with no
  // lateness to rule. Used when a player is seen without `playerArrived`
  // after a resumption.
  void Seen(v1::Color c);

  // `c` has been ruled on for being overdue; stop tracking them (they may
  // still sit down, to no effect: Awaited).
  void Forfeited(v1::Color c) { state_[Index(c)] = {.forfeited = true}; }

  // Whether `c` may yet be reported sitting down: listed absent at the start
  // and not arrived (nor played) since, forfeited for it, or not seen since a
  // resumption. A player who is none of these is seated already.
  bool Awaited(v1::Color c) const {
    const PlayerState& p = state_[Index(c)];
    return p.absent || p.may_be_late || p.forfeited;
  }

 private:
  struct PlayerState {
    bool absent = false;       // listed absent at the start, not yet arrived
    bool may_be_late = false;  // since a resumption, not yet seen
    bool forfeited = false;    // ruled overdue while absent, not arrived since
  };
  static int Index(v1::Color c) { return c == v1::WHITE ? 1 : 0; }

  std::optional<absl::Duration> limit_;
  absl::Time scheduled_start_ = absl::InfinitePast();
  absl::Time resumed_at_ = absl::InfinitePast();
  PlayerState state_[2];
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_LATENESS_H_
