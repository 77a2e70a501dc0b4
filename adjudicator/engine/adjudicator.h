// The adjudicator: a pure, deterministic, incremental fold of one game's
// events under one ruleset (DOMAIN.md §3-§5).
//
//   Adjudicator a = *Adjudicator::Create(rules);
//   for (const v1::Event& e : events) {
//     absl::StatusOr<std::vector<v1::Ruling>> rulings = a.Apply(e);
//     if (!rulings.ok()) ...  // bad input: nothing was recorded
//   }
//
// Apply costs the one event it is given, except a correction (`eventVoided`),
// which judges the game's events again without the voided one: the
// adjudicator keeps a copy of every event it has folded in (shared by its copies,
// so copying an adjudicator costs little however long the game: event_log.h). Every clause,
// sanction, option and reason comes from `Rules`; the engine recognises incidents and applies the
// generic mechanics of sanctions. The same events always give the same rulings, byte for byte:
// nothing depends on wall time or addresses.
#ifndef ARBITER_ADJUDICATOR_ENGINE_ADJUDICATOR_H_
#define ARBITER_ADJUDICATOR_ENGINE_ADJUDICATOR_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "adjudicator/engine/board.h"
#include "adjudicator/engine/clock.h"
#include "adjudicator/engine/discipline.h"
#include "adjudicator/engine/event_log.h"
#include "adjudicator/engine/game_clocks.h"
#include "adjudicator/engine/lateness.h"
#include "adjudicator/engine/ruling_history.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rulings.pb.h"
#include "rulesdb/rules.h"

namespace arbiter {

class Adjudicator {
 public:
  // `rules` were validated by Rules::FromProto, so this does not fail today;
  // it returns a status so that checks of the rules against the engine's
  // abilities can be added without changing callers.
  static absl::StatusOr<Adjudicator> Create(Rules rules);

  // Folds in the next event and returns the rulings it produced, in order.
  // Bad input (DOMAIN.md §3) is an error saying why, and leaves the
  // adjudicator exactly as it was: INVALID_ARGUMENT for a malformed event or
  // a report the record contradicts (DOMAIN.md §3.6),
  // FAILED_PRECONDITION when the game's state forbids it, NOT_FOUND for a
  // decision on a ruling that does not exist, PERMISSION_DENIED for a
  // decision or correction the event's authority (Event.authority) may not
  // make. An `eventVoided` is NOT_FOUND for an event that is not before it,
  // FAILED_PRECONDITION for `gameCreated`, a correction, an event already
  // voided, or one without which a later event would be refused (void the
  // later ones first, latest first), INVALID_ARGUMENT without a reason or
  // when dated before the last event it keeps.
  absl::StatusOr<std::vector<v1::Ruling>> Apply(const v1::Event& event);

  const Rules& rules() const { return rules_; }
  const v1::GameCreated& game() const { return game_; }
  // The whole ruling history so far.
  const std::vector<v1::Ruling>& rulings() const { return history_.rulings(); }
  // The final result, or nullptr while the game goes on.
  const v1::Result* result() const { return result_ ? &*result_ : nullptr; }
  // Events folded in so far.
  uint32_t events() const { return events_; }
  // Whether `color` was recorded withdrawing from the competition in this
  // game (`withdrew`, 23.2), whatever it was ruled: the tournament's
  // standings see it as a withdrawal (adjudicator/tournament/withdrawals.h).
  bool withdrew(v1::Color color) const {
    return color == v1::BLACK ? withdrew_black_ : color == v1::WHITE && withdrew_white_;
  }

  // Whether the chief arbiter cancelled the game (`gameCancelled`, DOMAIN.md
  // §3.2): created by mistake, it leaves the hall and every standing; its
  // reason, empty while it is not cancelled.
  bool cancelled() const { return cancelled_.has_value(); }
  const std::string& cancel_reason() const;

  // The state as of the last event: board, prisoners, side to move, clocks
  // (the running one charged up to the last event's time), warnings, penalty
  // stones and pending rulings.
  v1::GameState State() const;

  // What the rules will next decide by themselves if no further event
  // comes: the running clock's flag (absolute, byo-yomi, moves-in-time) or
  // a player still absent past the venue's lateness limit, whichever the
  // engine would rule first. `event` is what the server appends to record
  // it: a `timeExpired` for the player concerned, at `at`, which is the
  // ruling's instant when the rules rule at it, or one second past it when
  // they rule only strictly after it (a lateness limit, 22.1; a byo-yomi
  // period that is not used up at exactly its length). Applying `event`
  // next rules that instant first. Nullopt before the start, after the
  // result, while the clocks are stopped with nobody absent, or untimed.
  struct Deadline {
    absl::Time at;       // when to append `event` (its `at`)
    absl::Time instant;  // the `at` of the ruling it produces first
    v1::Event event;
  };
  std::optional<Deadline> NextDeadline() const;

  // Whether the engine folds events of this kind: every kind of
  // `Event.kind` has a row in its table of event kinds (adjudicator_kinds.cc).
  static bool Handles(v1::Event::KindCase kind);

 private:
  // The handlers of the table of event kinds, by family, each a class of
  // its own file (README.md, "The fold's parts"); they change the fold's
  // state through its mechanics below.
  friend class Appeals;
  friend class Attendance;
  friend class BoardIncidents;
  friend class Corrections;
  friend class Decisions;
  friend class DisciplineIncidents;
  friend class GameEnd;
  friend class PlayEvents;
  friend class TimeReports;
  // The checks of new input (new_input.h) read the fold without changing it.
  friend class NewInput;

  // A row of the table of event kinds: the handler, the envelope's checks
  // that apply, who may record it (adjudicator_kinds.cc).
  struct Kind;
  static const Kind kKinds[];
  static const Kind* KindOf(v1::Event::KindCase kind);
  using Pending = RulingHistory::Pending;

  explicit Adjudicator(Rules rules);

  static int Index(v1::Color c) { return c == v1::WHITE ? 1 : 0; }
  static absl::Status CheckColor(v1::Color c, absl::string_view what);

  // Bad-input checks common to every kind of event, as its row says;
  // `kind` is the event's row, nullptr when the event has no kind.
  absl::Status CheckEnvelope(const v1::Event& event, const Kind* kind) const;
  // The instant `event` is taken at after an event at `previous`: its `at`,
  // or, when `at` is written to the second and `previous` falls inside that
  // second (a server's stamp), `previous` (DOMAIN.md §3).
  static absl::Time TakenAt(const v1::Event& event, absl::Time previous);

  // Whether the engine knows whose clock runs: once play (a move, a pass, a
  // press) is recorded, in a live game (the server's clocks), or while the
  // clock's owner is absent. In a game recorded without its moves no press
  // tells it, so only a reported `timeExpired` is a flag fall. (NextDeadline
  // answers as the clocks run: the server asks it of live games only.)
  bool ClockKnown() const;
  // For a refusal that needs to know who is to move: in a game recorded
  // without its moves, why only Black (who moves first, art. 2) is known.
  std::string NotRecordedNote() const;
  // Whether play has ended: two passes in a row (art. 8) or a contest
  // given up (12.4(4)); what follows is the count.
  bool PlayEnded() const {
    return consecutive_passes_ >= 2 || abandoned_by_ != v1::COLOR_UNSPECIFIED;
  }
  // For an event only play in progress takes (a sealed move, a dropped
  // stone): OK while play goes on; once it has ended, the refusal, reason
  // PLAY_ENDED, `kind` its prefix.
  absl::Status RefuseOncePlayEnded(absl::string_view kind) const;
  // The fold of the events so far with event `voided` skipped, its
  // `notices` appended to the ruling history before any ruling it issues;
  // rulings the history already holds are reused, by number, when the
  // replay issues them again unchanged.
  absl::StatusOr<Adjudicator> Replay(uint32_t voided, const std::vector<v1::Ruling>& notices) const;
  // Counts an event that the fold skips (voided, or a correction replayed).
  void Skip(const v1::Event& e);
  // Rules what the passing of time decided by `correction`'s instant, as a
  // ruling of the correction (it must be the next event).
  void SettleAtCorrection(const v1::Event& correction);

  // Rules on what the passing of time decided before the current event: a
  // flag that fell, a forfeit limit that passed, each at its own instant.
  // `flag_check` is false for an event that reports the flag itself.
  void SettleTime(bool flag_check);
  void FlagFalls(v1::Color c, absl::Time instant);
  // A player not seated at the start sits down (explicitly or by playing).
  void Arrive(v1::Color c);
  // Play without `gameStarted` starts the clocks at the current event.
  void EnsureStarted();
  // The incident a fallen flag of `c` is: TIME_EXPIRED_WHILE_ABSENT for a
  // player not yet seated where the ruleset has that clause, else by the
  // clock's mode.
  v1::Incident FlagIncident(v1::Color c) const;
  // Places `c`'s stone at `v` as a move if the rules allow it, or rules on
  // the illegal move (suicide, ko, repetition); a void move may count as a
  // pass. `v` is on the board and empty; it is `c`'s turn.
  void PlayMove(v1::Color c, int v);
  // `c` passes (or a void move counts as a pass).
  void PlayPass(v1::Color c);

  // Counts the incident, looks up its sanctioning and issues the ruling;
  // returns the ruling's index in rulings_, or -1 when the ruleset has no
  // clause for it. `at` defaults to the event's time; `preset` names an
  // option applied at once instead of a pending ruling.
  int Rule(v1::Incident incident, v1::Color offender, std::optional<absl::Time> at = std::nullopt,
           const std::string* preset = nullptr);
  // Issues the ruling of `s`, decided at once when `choice` is given.
  int RuleWith(const v1::Sanctioning& s, v1::Color offender, absl::Time at,
               const v1::RulingOption* choice);
  // The error refusing an event when the next occurrence of `incident` by
  // `c` is governed by a REFUSE sanctioning, else OK. `what` names the event.
  absl::Status Refusal(v1::Incident incident, v1::Color c, absl::string_view what) const;
  // The clause and also-cited clauses of the sanctioning governing
  // `incident`, set on a result that no ruling decided (resignation, the
  // count); left empty when the ruleset has none.
  void Cite(v1::Incident incident, v1::Result* result) const;
  // Numbers and appends `r`, applies warnings, penalty stones and a
  // game-ending sanction, then any follow-on ruling (a warning that reaches
  // the loss threshold).
  int Issue(v1::Ruling r, v1::Color offender, const v1::Sanctioning* s);
  void EndGame(v1::Result result, absl::Time at, uint32_t ruling);
  // Whether the decided ruling at `index` (-1: none) imposes `sanction`.
  bool Imposed(int index, v1::Sanction sanction) const;

  Rules rules_;
  v1::GameCreated game_;
  bool created_ = false;
  bool started_ = false;
  std::optional<Board> board_;
  // Who placed the last stone in play; unspecified after a pass. A takeback
  // can only be claimed against that player, before the opponent's next move.
  v1::Color last_stone_by_ = v1::COLOR_UNSPECIFIED;
  // The last move played: its point (-1 after a pass) and the stones it
  // took. A press reporting captures not cleared (22.6) needs a move that
  // captured; the record contradicts it otherwise.
  int last_point_ = -1;
  int last_captures_ = 0;
  int komi_quarters_ = 0;
  // Whether any play (move, pass, clock press) is recorded: until then the
  // game is one recorded without its moves, and the incidents that need the
  // board are taken on the arbiter's word (DOMAIN.md §3.3).
  bool play_recorded_ = false;
  // Whether the result is the board's own count (`deadStones`): a
  // `countRecorded` must then agree with it.
  bool board_counted_ = false;
  // The stones agreed dead when the board was counted, as vertices.
  std::vector<int> dead_;
  // The reason of the `gameCancelled`, once the game is cancelled.
  std::optional<std::string> cancelled_;

  // The turn on the board: `to_move_` flips as soon as a stone is placed;
  // the mover's clock runs on until the press (game_clocks.h).
  v1::Color to_move_ = v1::BLACK;
  int move_number_ = 0;
  int consecutive_passes_ = 0;
  // Both clocks and the turn they time, the adjournment and its halves.
  GameClocks clocks_;

  Lateness lateness_;
  Discipline discipline_;

  // The player whose sealed move awaits opening (14; 1988 14, 22).
  v1::Color sealed_by_ = v1::COLOR_UNSPECIFIED;
  // The player who gave up the contest on the board (12.4(4)): play has
  // ended and the count gives the contested points to the opponent.
  v1::Color abandoned_by_ = v1::COLOR_UNSPECIFIED;

  // The event being applied.
  const v1::Event* event_ = nullptr;
  absl::Time at_;
  absl::Time last_at_ = absl::InfinitePast();
  uint32_t events_ = 0;

  // The rulings and what the record's procedures (decisions, appeals,
  // corrections, the confirmation) need to know of them.
  RulingHistory history_;
  std::optional<v1::Result> result_;
  bool withdrew_black_ = false;
  bool withdrew_white_ = false;

  // Every event folded in or skipped, in order (shared between copies:
  // event_log.h), and the positions voided.
  EventLog log_;
  std::set<uint32_t> voided_;
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_ADJUDICATOR_H_
