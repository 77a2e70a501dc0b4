#include "rulesdb/rules.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "rulesdb/content_hash.h"
#include "rulesdb/validate.h"

namespace arbiter {

struct Rules::Rep {
  v1::Ruleset ruleset;
  std::optional<v1::Supplement> supplement;
  std::string hash;
  std::string supplement_id;
  std::string supplement_hash;
  v1::Parameters params;
  // The base's sanctionings with the supplement's replacing those of the same
  // incident, occurrence and venue.
  std::vector<v1::Sanctioning> sanctionings;
  // Clause and article ids to their clause. An article is given a Clause view
  // (id, text, title, summary, interpretation) so one lookup serves both.
  absl::flat_hash_map<std::string, const v1::Clause*> clauses;
  std::deque<v1::Clause> article_views;
};

namespace {

int NormalOccurrence(int occurrence) { return std::max(occurrence, 1); }

void ApplyOverrides(const v1::ParameterOverrides& o, v1::Parameters* p) {
  if (o.has_komi_quarters()) p->set_komi_quarters(o.komi_quarters());
  if (o.has_late_limit_same_site()) *p->mutable_late_limit_same_site() = o.late_limit_same_site();
  if (o.has_late_limit_separate_site()) {
    *p->mutable_late_limit_separate_site() = o.late_limit_separate_site();
  }
  if (o.has_late_deduction_multiplier()) {
    p->set_late_deduction_multiplier(o.late_deduction_multiplier());
  }
  if (o.has_byo_yomi_exact_period_counts()) {
    p->set_byo_yomi_exact_period_counts(o.byo_yomi_exact_period_counts());
  }
  if (o.has_pass_on_timeout()) p->set_pass_on_timeout(o.pass_on_timeout());
  if (o.has_warnings_for_loss()) p->set_warnings_for_loss(o.warnings_for_loss());
  if (o.has_wrong_colors_correctable_moves()) {
    p->set_wrong_colors_correctable_moves(o.wrong_colors_correctable_moves());
  }
  if (o.has_clock_error_tolerance_per_hour()) {
    *p->mutable_clock_error_tolerance_per_hour() = o.clock_error_tolerance_per_hour();
  }
  if (o.has_repetition_preset()) p->set_repetition_preset(o.repetition_preset());
  if (o.has_flag_dispute_margin()) *p->mutable_flag_dispute_margin() = o.flag_dispute_margin();
  if (o.has_absolute_time_over_when_exceeded()) {
    p->set_absolute_time_over_when_exceeded(o.absolute_time_over_when_exceeded());
  }
  if (o.has_unrecorded_flag_pass_either_player()) {
    p->set_unrecorded_flag_pass_either_player(o.unrecorded_flag_pass_either_player());
  }
  if (o.has_resumption_by_either_player()) {
    p->set_resumption_by_either_player(o.resumption_by_either_player());
  }
  if (o.has_dead_stones_whole_chains())
    p->set_dead_stones_whole_chains(o.dead_stones_whole_chains());
  if (o.has_warnings_after_the_end_apply())
    p->set_warnings_after_the_end_apply(o.warnings_after_the_end_apply());
}

bool SameKey(const v1::Sanctioning& a, const v1::Sanctioning& b) {
  return a.incident() == b.incident() && a.venue() == b.venue() &&
         NormalOccurrence(a.occurrence()) == NormalOccurrence(b.occurrence());
}

}  // namespace

absl::StatusOr<Rules> Rules::FromProto(v1::Ruleset ruleset, const v1::Supplement* supplement) {
  if (absl::Status st = ValidateRuleset(ruleset); !st.ok()) return st;
  if (supplement != nullptr) {
    if (absl::Status st = ValidateSupplement(*supplement, ruleset); !st.ok()) return st;
  }
  auto rep = std::make_shared<Rep>();
  rep->ruleset = std::move(ruleset);
  rep->hash = ContentHash(rep->ruleset);
  rep->params = rep->ruleset.parameters();
  rep->sanctionings.assign(rep->ruleset.sanctionings().begin(), rep->ruleset.sanctionings().end());
  if (supplement != nullptr) {
    rep->supplement = *supplement;
    rep->supplement_hash = ContentHash(*supplement);
    rep->supplement_id = supplement->id();
    ApplyOverrides(supplement->overrides(), &rep->params);
    for (const v1::Sanctioning& s : supplement->sanctionings()) {
      auto same = std::find_if(rep->sanctionings.begin(), rep->sanctionings.end(),
                               [&](const v1::Sanctioning& b) { return SameKey(s, b); });
      if (same != rep->sanctionings.end()) {
        *same = s;
      } else {
        rep->sanctionings.push_back(s);
      }
    }
  }
  for (const v1::Article& a : rep->ruleset.articles()) {
    v1::Clause& view = rep->article_views.emplace_back();
    view.set_id(a.id());
    view.set_text_zh(a.text_zh());
    view.set_title_en(a.title_en());
    view.set_summary_en(a.summary_en());
    view.set_interpretation(a.interpretation());
    rep->clauses[a.id()] = &view;
    for (const v1::Clause& c : a.clauses()) rep->clauses[c.id()] = &c;
  }
  return Rules(std::move(rep));
}

Rules::Rules(std::shared_ptr<const Rep> rep) : rep_(std::move(rep)) {}

const std::string& Rules::id() const { return rep_->ruleset.id(); }
const std::string& Rules::version() const { return rep_->ruleset.version(); }
const std::string& Rules::hash() const { return rep_->hash; }
const std::string& Rules::supplement_id() const { return rep_->supplement_id; }
const std::string& Rules::supplement_hash() const { return rep_->supplement_hash; }
const v1::Parameters& Rules::params() const { return rep_->params; }
const v1::Ruleset& Rules::ruleset() const { return rep_->ruleset; }

const v1::Supplement* Rules::supplement() const {
  return rep_->supplement.has_value() ? &*rep_->supplement : nullptr;
}

const v1::Sanctioning* Rules::Find(v1::Incident incident, int occurrence,
                                   v1::GameCreated::Venue venue) const {
  const int count = NormalOccurrence(occurrence);
  const v1::Sanctioning* best = nullptr;
  for (const v1::Sanctioning& s : rep_->sanctionings) {
    if (s.incident() != incident) continue;
    if (s.venue() != v1::GameCreated::VENUE_UNSPECIFIED && s.venue() != venue) continue;
    const int from = NormalOccurrence(s.occurrence());
    if (from > count) continue;
    // A later escalation wins; at the same step, the entry for this venue
    // wins over the one for any venue.
    if (best == nullptr || from > NormalOccurrence(best->occurrence()) ||
        (from == NormalOccurrence(best->occurrence()) &&
         best->venue() == v1::GameCreated::VENUE_UNSPECIFIED)) {
      best = &s;
    }
  }
  return best;
}

const v1::Clause* Rules::FindClause(std::string_view id) const {
  auto it = rep_->clauses.find(absl::string_view(id.data(), id.size()));
  return it == rep_->clauses.end() ? nullptr : it->second;
}

const std::vector<v1::Sanctioning>& Rules::sanctionings() const { return rep_->sanctionings; }

}  // namespace arbiter
