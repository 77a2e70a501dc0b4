// The ruling history of one game: every ruling in the order issued, and what
// the later procedures of the record need to know about them.
//
// - Numbers. A ruling's number is its place in the history, from 1. A
//   correction (eventVoided, DOMAIN.md §3.1) rebuilds the fold from the
//   events; the rebuild starts from the recorded history (ForReplay) and a
//   ruling it issues again unchanged takes back its old number (Record), so
//   decisions and appeals that cite rulings by number still find them.
// - Pending rulings: a sanctioning with options waits for an arbiterDecision.
// - What each ruling counted and caused: the occurrence of its incident
//   (taken back when it is overturned, so the next one escalates from one
//   fewer), the 24.2 loss that followed a warning (a follow-on, lifted with
//   it), the result it replaced (restored when it is overturned).
// - Appeals (16.3-16.4): lodged, then decided; the chief arbiter's rulings
//   on appeal are final. Once the result is confirmed (resultConfirmed) the
//   rulings up to then can no longer be appealed.
// - Corrections: the rulings a correction superseded are neither appealable
//   nor decidable.
//
// A value: copying it copies the game's history, as copying the fold does.
#ifndef ARBITER_ADJUDICATOR_ENGINE_RULING_HISTORY_H_
#define ARBITER_ADJUDICATOR_ENGINE_RULING_HISTORY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rules.pb.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter {

class RulingHistory {
 public:
  // What a pending ruling needs when the arbiter decides it.
  struct Pending {
    uint32_t number;
    const v1::Sanctioning* sanctioning;
    v1::Color offender;  // COLOR_UNSPECIFIED when against both
    // For disputed displaced stones: the displacement (from, to; to -1 off
    // the board), which stands unless the decision restores the stones.
    std::vector<std::pair<int, int>> displaced;
    // For a disputed dropped stone (17.3): who dropped it and where; it is
    // played as their move unless the decision voids it.
    v1::Color dropped_by = v1::COLOR_UNSPECIFIED;
    int dropped_at = -1;
  };

  // A history for the rebuild of a correction: this history's rulings, then
  // `notices` (the correction's superseding rulings, whose `supersedes` are
  // no longer decidable); every ruling not voided is reusable by number.
  RulingHistory ForReplay(const std::vector<v1::Ruling>& notices) const;

  // --- the rulings ---
  const std::vector<v1::Ruling>& rulings() const { return rulings_; }
  size_t size() const { return rulings_.size(); }
  // The ruling at 0-based `index` (its number is index + 1).
  const v1::Ruling& ruling(int index) const { return rulings_[static_cast<size_t>(index)]; }
  v1::Ruling& mutable_ruling(int index) { return rulings_[static_cast<size_t>(index)]; }
  // Numbers `r` (a reusable ruling of the history it repeats, or the next
  // number) and records it; returns its index.
  int Record(v1::Ruling r);
  // The rulings a correction's rebuild has not issued again (yet).
  const std::set<uint32_t>& reusable() const { return reusable_; }
  // The rebuild is over: later rulings take new numbers.
  void EndReuse() { reusable_.clear(); }

  // --- pending rulings ---
  const std::vector<Pending>& pending() const { return pending_; }
  void AddPending(Pending p) { pending_.push_back(std::move(p)); }
  // The pending ruling issued last (AddPending was called).
  Pending& last_pending() { return pending_.back(); }
  // The pending ruling `number`, or nullptr.
  const Pending* FindPending(uint32_t number) const;
  // `number` is decided: no longer pending.
  void Resolve(uint32_t number);

  // --- what each ruling counted and caused ---
  // Ruling `number` counted an occurrence of `incident` by `by`
  // (COLOR_UNSPECIFIED: both players).
  void Counted(uint32_t number, v1::Incident incident, v1::Color by) {
    incidents_[number] = {incident, by};
  }
  // The occurrence ruling `number` counted, forgotten (it is overturned).
  std::optional<std::pair<v1::Incident, v1::Color>> TakeCounted(uint32_t number);
  // The warning ruling `warning` reached the loss threshold: `follow_on` is
  // the 24.2 ruling that followed it.
  void FollowOn(uint32_t warning, uint32_t follow_on) { follow_ons_[warning] = follow_on; }
  // The follow-on of ruling `warning`, or 0.
  uint32_t follow_on(uint32_t warning) const;
  // Ruling `number` ended the game, replacing `before` (nullopt: the game
  // was in progress).
  void Replaced(uint32_t number, std::optional<v1::Result> before) {
    replaced_results_[number] = std::move(before);
  }
  // A decision put a stone on the board with no sanction saying so (a
  // dropped stone that stands, 17.3): the engine cannot take it back.
  void PlacedStone(uint32_t number) { placed_stones_.insert(number); }
  bool placed_stone(uint32_t number) const { return placed_stones_.contains(number); }

  // --- appeals ---
  // Why the decided ruling `number` cannot be appealed, or OK: there is no
  // such ruling (INVALID_ARGUMENT); it was superseded by a correction,
  // records one, is pending, is a decision on appeal, or the result was
  // confirmed since (FAILED_PRECONDITION). `what` names the event.
  absl::Status CheckAppealable(uint32_t number, absl::string_view what) const;
  // FAILED_PRECONDITION when ruling `number` was already appealed.
  absl::Status CheckNotAppealed(uint32_t number) const;
  // FAILED_PRECONDITION unless an appeal against `number` awaits a decision.
  absl::Status CheckAppealAwaits(uint32_t number) const;
  void Lodge(uint32_t number) { appeals_[number] = false; }
  void Decide(uint32_t number) { appeals_[number] = true; }
  // Ruling `number` is the chief arbiter's decision on appeal: final.
  void AppealRuling(uint32_t number) { appeal_rulings_.insert(number); }
  // Ruling `number` was overturned on appeal.
  void Supersede(uint32_t number) { superseded_.insert(number); }
  // The result to restore when ruling `number`, which gave the current
  // result, is overturned: the one it replaced, skipping any that a ruling
  // overturned meanwhile gave; nullopt when the game goes on.
  std::optional<v1::Result> ResultBefore(uint32_t number) const;

  // --- confirmation ---
  // FAILED_PRECONDITION when the result is confirmed already, a ruling is
  // pending or an appeal awaits the chief arbiter. (Whether there is a
  // result is the fold's to say.)
  absl::Status CheckConfirmable() const;
  void Confirm();

 private:
  std::vector<v1::Ruling> rulings_;
  std::vector<Pending> pending_;
  // Appeals by the appealed ruling's number: true once decided.
  std::map<uint32_t, bool> appeals_;
  // The rulings of the chief arbiter on appeal: final, never appealed.
  std::set<uint32_t> appeal_rulings_;
  // The warning ruling whose warning reached the loss threshold -> the 24.2
  // ruling that followed it.
  std::map<uint32_t, uint32_t> follow_ons_;
  // For each ruling that ended the game: the result it replaced.
  std::map<uint32_t, std::optional<v1::Result>> replaced_results_;
  // The occurrence each ruling counted: ruling number -> the incident and
  // its offender (COLOR_UNSPECIFIED: both players).
  std::map<uint32_t, std::pair<v1::Incident, v1::Color>> incidents_;
  // Rulings overturned on appeal: a result they gave is never restored.
  std::set<uint32_t> superseded_;
  std::set<uint32_t> placed_stones_;
  // Rulings superseded by a correction: no longer appealable or decidable.
  std::set<uint32_t> voided_rulings_;
  // While replaying for a correction: rulings of the history that a ruling
  // issued again unchanged takes the number of (see Record).
  std::set<uint32_t> reusable_;
  // resultConfirmed: rulings up to this number can no longer be appealed.
  bool confirmed_ = false;
  uint32_t confirmed_rulings_ = 0;
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_RULING_HISTORY_H_
