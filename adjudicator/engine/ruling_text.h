// Building a Ruling from the rules database: the clause, what it cites, its
// sanctions or options, and the clause text, all taken from a Sanctioning.
#ifndef ARBITER_ADJUDICATOR_ENGINE_RULING_TEXT_H_
#define ARBITER_ADJUDICATOR_ENGINE_RULING_TEXT_H_

#include <string_view>

#include "arbiter/v1/rules.pb.h"
#include "arbiter/v1/rulings.pb.h"
#include "rulesdb/rules.h"

namespace arbiter {

// A ruling under `s` against `against`, pending when `s` leaves a choice.
// The number, event and time are the caller's.
v1::Ruling RulingUnder(const Rules& rules, const v1::Sanctioning& s, v1::Ruling::Party against);

// The option of `s` named `id`, or nullptr.
const v1::RulingOption* FindOption(const v1::Sanctioning& s, std::string_view id);

// Whether a ruling imposes `sanction`.
bool Imposes(const v1::Ruling& r, v1::Sanction sanction);

// The colour a ruling's party is; COLOR_UNSPECIFIED for both (or none).
v1::Color PartyColor(v1::Ruling::Party party);

// "MOVE_VOID+COUNTS_AS_PASS": how the options of `s` may be named.
std::string OptionList(const v1::Sanctioning& s);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_RULING_TEXT_H_
