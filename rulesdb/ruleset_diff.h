// RulesetDiff: what changes from one ruleset (with its supplement) to another.
//
// Parameters are compared field by field. Sanctionings are compared by what
// the engine would find: for every incident, escalation step and venue, the
// sanctioning in force under each side, so that a clause that moved (1988
// 17.1 → 2002 17.2) or split by venue (1988 23.3 → 2002 22.1/22.2) is shown
// as a change of the same incident. Clauses are compared by their number
// within the ruleset (17.5.3 against 17.5.3).
#ifndef ARBITER_RULESDB_RULESET_DIFF_H_
#define ARBITER_RULESDB_RULESET_DIFF_H_

#include <string>
#include <vector>

#include "rulesdb/rules.h"

namespace arbiter {

struct RulesetDiff {
  struct Parameter {
    // The Parameters field, or "penalty_stone_per_warning", derived from the
    // sanctionings (2002 art. 24.1 has it, 1988 has none).
    std::string name;
    std::string before;  // as text; "(unset)" when absent
    std::string after;
  };
  struct Sanction {
    // kMoved: the same sanctions under another clause number.
    enum Kind { kAdded, kRemoved, kChanged, kMoved };
    Kind kind;
    v1::Incident incident;
    int occurrence;      // 1-based escalation step
    std::string venues;  // "" for every venue, else e.g. "SAME_SITE"
    std::string before;  // Describe() of the sanctioning; "" when added
    std::string after;   // "" when removed
  };
  struct Clause {
    enum Kind { kAdded, kRemoved, kTextChanged };
    Kind kind;
    std::string number;  // "17.5.3"
  };
  std::string a, b;  // the ruleset ids
  std::vector<Parameter> parameters;
  std::vector<Sanction> sanctions;
  std::vector<Clause> clauses;
};

RulesetDiff DiffRules(const Rules& a, const Rules& b);

// One line for a sanctioning: "cn-2002/23.7 WARNING+PENALTY_STONE", or with
// options "cn-2002/20.3 pending {DRAW | REPLAY} (CHIEF_ARBITER)" (an option
// with its own party: "BOTH_LOSE against both"), "(no ruling: ...)" or "(the
// event is refused)" by its disposition, plus the result reason when it may
// end the game.
std::string DescribeSanctioning(const v1::Sanctioning& s);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_RULESET_DIFF_H_
