// Writing one adjudicated game as SGF FF[4], readable by common SGF tools.
//
// The root carries the players, RU[Chinese], KM (points = 2 × the komi in
// stones: 3¾ stones is KM[7.5]), TM and OT from the time control, RE from
// the result (DOMAIN.md §5) and a GC[] summary of the ruling history. Each
// played move or pass is a node with BL/WL (time left) and OB/OW (byo-yomi
// periods left) as the adjudicator's clocks show them after the move. Each
// ruling is a C[] comment, citing its clause, on the node of the move it
// concerns or, for an event that is not a move, on the last node before it.
// Void moves get no node (the stone was never on the board); a void move
// that counts as a pass is a pass node; a takeback removes its move's node;
// a move the chief arbiter voided (eventVoided) loses its node too, and the
// correction, with its reason, is a comment.
#ifndef ARBITER_ADJUDICATOR_ENGINE_SGF_EXPORT_H_
#define ARBITER_ADJUDICATOR_ENGINE_SGF_EXPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/events.pb.h"
#include "rulesdb/rules.h"

namespace arbiter {

// Folds `events` (gameCreated first) under `rules` and writes the SGF.
// `rules_pin` is quoted in the summary. Bad input as Adjudicator::Apply.
absl::StatusOr<std::string> ExportSgf(Rules rules, const std::vector<v1::Event>& events,
                                      const std::string& rules_pin);

// The same game as the public broadcast gives it out (DOMAIN.md, "The
// public broadcast"): players, time, result, setup, the moves with their
// clocks, and nothing of the rulings: no C[] comment, no GC[] summary (a
// ruling's note is the arbiter's, not the public's).
absl::StatusOr<std::string> ExportPublicSgf(Rules rules, const std::vector<v1::Event>& events);

// Escapes SGF text: '\' and ']' get a backslash.
std::string SgfText(const std::string& text);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_SGF_EXPORT_H_
