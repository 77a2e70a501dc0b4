#include "adjudicator/engine/ruling_text.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_join.h"

namespace arbiter {

v1::Ruling RulingUnder(const Rules& rules, const v1::Sanctioning& s, v1::Ruling::Party against) {
  v1::Ruling r;
  r.set_clause(s.clause());
  r.mutable_also_cites()->CopyFrom(s.also_cites());
  r.set_against(against);
  r.mutable_sanctions()->CopyFrom(s.sanctions());
  if (s.options_size() > 0) {
    r.set_pending(true);
    r.mutable_options()->CopyFrom(s.options());
    r.set_decided_by(s.decided_by());
  }
  if (const v1::Clause* clause = rules.FindClause(s.clause())) {
    r.set_text_zh(clause->text_zh());
    r.set_text_en(clause->summary_en().empty() ? clause->title_en() : clause->summary_en());
  }
  return r;
}

const v1::RulingOption* FindOption(const v1::Sanctioning& s, std::string_view id) {
  for (const v1::RulingOption& o : s.options()) {
    if (o.id() == id) return &o;
  }
  return nullptr;
}

bool Imposes(const v1::Ruling& r, v1::Sanction sanction) {
  return std::find(r.sanctions().begin(), r.sanctions().end(), sanction) != r.sanctions().end();
}

v1::Color PartyColor(v1::Ruling::Party party) {
  return party == v1::Ruling::BLACK   ? v1::BLACK
         : party == v1::Ruling::WHITE ? v1::WHITE
                                      : v1::COLOR_UNSPECIFIED;
}

std::string OptionList(const v1::Sanctioning& s) {
  return absl::StrJoin(s.options(), ", ",
                       [](std::string* out, const v1::RulingOption& o) { out->append(o.id()); });
}

}  // namespace arbiter
