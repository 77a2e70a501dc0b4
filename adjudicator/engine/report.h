// What `arbiter adjudicate` prints: the AdjudicationReport (DOMAIN.md §6)
// and its readable rendering, a ruling history table and the result line.
#ifndef ARBITER_ADJUDICATOR_ENGINE_REPORT_H_
#define ARBITER_ADJUDICATOR_ENGINE_REPORT_H_

#include <string>
#include <vector>

#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter {

// The game id, ruleset and hashes, the ruling history, the result (absent
// while the game goes on) and the state as of the last event.
v1::AdjudicationReport BuildReport(const Adjudicator& adjudicator);

// The result line in Chinese and English, e.g.
// "黑胜3/4子 / Black wins by ¾ stone"; "对局进行中 / Game in progress".
std::string ResultLine(const v1::Result* result);

// What the readable report says of a game whose play ended with two passes
// and whose count is not recorded.
inline constexpr char kUncounted[] =
    "双方虚着，未计算 / Play ended with two passes, not counted: the dead stones are not "
    "recorded: add `deadStones` to count";

// The readable report: a header, one table row per ruling (time, event,
// clause, sanctions, against, warnings so far) and the result line (or,
// after two passes with no count, kUncounted).
// `event_kinds[i]` names event i+1 ("move", "phoneRang"); it may be shorter.
std::string RenderText(const v1::AdjudicationReport& report,
                       const std::vector<std::string>& event_kinds);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_REPORT_H_
