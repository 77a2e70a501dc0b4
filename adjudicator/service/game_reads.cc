#include "adjudicator/service/game_reads.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "adjudicator/engine/proto_time.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/deadline.h"
#include "adjudicator/service/field_bounds.h"
#include "adjudicator/service/recorder.h"
#include "ledger/audit.h"
#include "proto/names/resource_name.h"

namespace arbiter::service {

absl::Status FillGame(GameFolds& folds, const std::string& game_id, v1::Game* out) {
  absl::StatusOr<GameView> view = folds.Get(game_id);
  if (!view.ok()) return view.status();
  const Adjudicator& a = view->game();
  out->set_name(ResourceName("games", game_id));
  out->set_game_id(game_id);
  *out->mutable_created() = a.game();
  out->set_rules_pin(view->rules_pin());
  out->set_revision(view->revision);
  *out->mutable_state() = a.State();
  if (a.result() != nullptr) *out->mutable_result() = *a.result();
  // Pending rulings can pile up (nothing forces an arbiter to decide): the
  // answer holds them whole up to kMaxPageBytes, and the numbers of all of
  // them in its state; ListRulings pages through every one.
  size_t bytes = 0;
  for (uint32_t number : out->state().pending_rulings()) {
    if (number >= 1 && number <= a.rulings().size()) {
      const v1::Ruling& r = a.rulings()[number - 1];
      bytes += r.ByteSizeLong();
      if (bytes > kMaxPageBytes) break;
      *out->add_pending_rulings() = r;
    }
  }
  out->set_ruling_count(static_cast<uint32_t>(a.rulings().size()));
  for (auto r = a.rulings().rbegin(); r != a.rulings().rend(); ++r) {
    const auto& s = r->sanctions();
    if (r->pending() || std::find(s.begin(), s.end(), v1::WARNING) == s.end()) continue;
    *out->mutable_last_warning_at() = r->at();
    out->set_last_warning_against(r->against());
    break;
  }
  // The timekeeper acts on the same computation from the same fold.
  if (std::optional<Deadline> d = NextDeadline(a); d.has_value()) {
    ToProto(d->fire_at, out->mutable_next_deadline());
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::GameRecord> ReadRecord(ledger::Ledger& ledger, GameFolds& folds,
                                          const std::string& game_id) {
  v1::GameRecord record;
  record.set_game_id(game_id);
  absl::StatusOr<GameView> view = folds.Get(game_id);
  if (!view.ok()) return view.status();
  const uint64_t upto = view->revision;
  record.set_rules_pin(view->rules_pin());
  for (const v1::Ruling& r : view->game().rulings()) *record.add_rulings() = r;
  if (view->game().result() != nullptr) *record.mutable_result() = *view->game().result();
  *record.mutable_state() = view->game().State();
  // The events as recorded, up to the revision the fold showed.
  uint64_t after = 0;
  while (after < upto) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        ledger.log().ReadGame(game_id, after, std::min<uint64_t>(1000, upto - after));
    if (!entries.ok()) return entries.status();
    if (entries->empty()) break;
    for (const v1::LedgerEntry& entry : *entries) {
      absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
      if (!r.ok()) return r.status();
      *record.add_events() = *std::move(r);
      after = entry.revision();
    }
  }
  return record;
}

absl::StatusOr<v1::VerifyGameResponse> VerifyGame(ledger::Ledger& ledger, GameFolds& folds,
                                                  const std::string& game_id) {
  absl::StatusOr<GameView> view = folds.Get(game_id);
  if (!view.ok()) return view.status();
  v1::VerifyGameResponse out;
  out.set_rules_pin(view->rules_pin());
  out.set_game_events(view->revision);
  out.set_game_rulings(view->game().rulings().size());
  // Re-adjudicated from the stored events by a judge of its own: the read
  // model is what is being checked, not what checks.
  AdjudicatorJudge judge;
  ledger::AuditOptions options;
  options.game_id = game_id;
  options.public_key_der = ledger.identity().public_key_der();
  options.judge = &judge;
  absl::StatusOr<ledger::AuditReport> report = ledger.Audit(options);
  if (!report.ok()) return report.status();
  out.set_intact(report->intact);
  out.set_why(CutText(report->why, kMaxTextBytes));
  out.set_first_bad_position(report->first_bad_position);
  out.set_events(report->events);
  out.set_games(report->games);
  out.set_rulings(report->rulings);
  out.set_checkpoints(report->checkpoints);
  out.set_readjudicated(report->readjudicated && report->games_readjudicated > 0);
  out.set_key_id(report->key_id_hex);
  out.set_signed_size(report->signed_size);
  out.set_signed_root(report->signed_root_hex);
  return out;
}

absl::StatusOr<v1::Checkpoint> CheckpointCovering(ledger::Ledger& ledger, uint64_t position) {
  absl::StatusOr<std::optional<v1::Checkpoint>> c = ledger.checkpoint_index().Covering(position);
  if (!c.ok()) return c.status();
  if (c->has_value()) return **std::move(c);
  // None yet: sign one at the head, which covers every committed event.
  return ledger.Checkpoint();
}

}  // namespace arbiter::service
