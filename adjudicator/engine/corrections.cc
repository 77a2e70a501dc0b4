// Corrections (DOMAIN.md §3.1): the chief arbiter voids a mistaken event with
// an `eventVoided` that cites its position and a reason. The ledger is
// append-only, so the voided event stays in the log; the fold is rebuilt
// from the game's events without it, and the events after it are judged
// again as if it had never been recorded.
//
// The ruling history is append-only too. The rebuild reuses the number of
// every ruling it issues again unchanged (same event, same content), so the
// decisions and appeals that cite rulings by number still find them. Each
// ruling of the history that the rebuild does not issue again is superseded
// by one ruling of the correction (`voided`, `supersedes`, the reason as
// `note`), and the rulings the rebuild issues anew follow, under new numbers.
// What time alone decided by the correction's instant in the re-judged game
// (a flag, a lateness limit) is ruled at the correction itself.
// Voiding is a procedure of the record, not an article: no sanctioning in
// the rules data governs it, and the superseding rulings cite the clause of
// the ruling they supersede.
//
// A game created by mistake: the chief arbiter cancels it with
// `gameCancelled {reason}` (DOMAIN.md §3.2). Like a correction it is a
// procedure of the record: it issues no ruling and sanctions nobody. The game
// stays in the ledger as recorded; the hall and the standings leave it out,
// and after it only a correction is accepted (so voiding the `gameCancelled`
// itself restores the game).
#include "adjudicator/engine/corrections.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/proto_time.h"

namespace arbiter {

absl::Status Corrections::OnGameCancelled(Adjudicator& a, const v1::GameCancelled& c) {
  if (c.reason().empty()) return absl::InvalidArgumentError("gameCancelled: a reason is required");
  // Whatever was ruled stays in the history; the clocks stop where they are.
  a.clocks_.Stop(a.at_);
  a.cancelled_ = c.reason();
  return absl::OkStatus();
}

absl::Status Corrections::CheckVoidable(const Adjudicator& a, const v1::EventVoided& v) {
  const uint32_t self = a.events_ + 1;
  if (v.event() == 0 || v.event() >= self) {
    return absl::NotFoundError(absl::StrCat("eventVoided: there is no event ", v.event(),
                                            " before this one (", a.events_, " so far)"));
  }
  if (v.reason().empty()) {
    return absl::InvalidArgumentError("eventVoided: a reason is required");
  }
  const v1::Event& target = a.log_[v.event() - 1];
  if (target.has_game_created()) {
    return absl::FailedPreconditionError(
        "eventVoided: the gameCreated cannot be voided; a game created by mistake stays as "
        "recorded");
  }
  if (target.has_event_voided()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "eventVoided: event ", v.event(), " is itself a correction, which cannot be voided"));
  }
  if (a.voided_.contains(v.event())) {
    return absl::FailedPreconditionError(
        absl::StrCat("eventVoided: event ", v.event(), " is already voided"));
  }
  return absl::OkStatus();
}

std::vector<v1::Ruling> Corrections::SupersedingRulings(const Adjudicator& a,
                                                        const Adjudicator& trial,
                                                        const v1::EventVoided& v) {
  std::vector<v1::Ruling> notices;
  for (const uint32_t n : trial.history_.reusable()) {
    const v1::Ruling& superseded = a.history_.ruling(n - 1);
    v1::Ruling r;
    r.set_number(static_cast<uint32_t>(a.history_.size() + notices.size() + 1));
    r.set_event(a.events_ + 1);
    ToProto(a.at_, r.mutable_at());
    r.set_clause(superseded.clause());
    r.mutable_also_cites()->CopyFrom(superseded.also_cites());
    r.set_against(superseded.against());
    r.set_decided_by(v1::CHIEF_ARBITER);
    r.set_supersedes(n);
    r.set_voided(v.event());
    r.set_note(v.reason());
    r.set_text_zh(superseded.text_zh());
    r.set_text_en(superseded.text_en());
    notices.push_back(std::move(r));
  }
  return notices;
}

absl::Status Corrections::OnEventVoided(Adjudicator& a, const v1::EventVoided& v) {
  if (absl::Status s = CheckVoidable(a, v); !s.ok()) return s;
  // First the rebuild alone, to learn which rulings it does not issue again;
  // then again with a superseding ruling for each of those ahead of the
  // rulings it issues anew, so that the history reads in that order.
  absl::StatusOr<Adjudicator> trial = a.Replay(v.event(), {});
  if (!trial.ok()) return trial.status();
  absl::StatusOr<Adjudicator> fresh = a.Replay(v.event(), SupersedingRulings(a, *trial, v));
  if (!fresh.ok()) return fresh.status();
  const absl::Time at = Adjudicator::TakenAt(*a.event_, fresh->last_at_);
  if (at < fresh->last_at_) {
    return absl::InvalidArgumentError(absl::StrCat(
        "eventVoided: time ", absl::FormatTime(absl::RFC3339_full, at, absl::UTCTimeZone()),
        " is earlier than the last event it keeps, at ",
        absl::FormatTime(absl::RFC3339_full, fresh->last_at_, absl::UTCTimeZone())));
  }
  const v1::Event* event = a.event_;
  // The consequences come at once (§3.1): a flag or a lateness limit that
  // the re-judged game has already passed is ruled at the correction.
  fresh->history_.EndReuse();
  fresh->SettleAtCorrection(*event);
  a = *std::move(fresh);
  a.event_ = event;
  a.at_ = at;
  return absl::OkStatus();
}

}  // namespace arbiter
