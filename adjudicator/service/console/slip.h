// The pages the server renders itself, bilingual (Chinese first, as the
// rules are written), readable and printable without scripts:
//
//  - the ruling slip (/games/{game}/rulings/{n}/slip), a document handed
//    to a player: tournament, round, table, venue and time; the event in
//    words; the player it is against by name (白方 Zhao Min, 6d); the clause
//    and its verbatim Chinese text with our English; the sanctions in words
//    (警告一次，罚一子); the decision in words and who took it by role and
//    name (裁判长 Li Wei; or who may, while pending), never an option's id
//    or the recorded actor's role code and token; signature lines; and the
//    verification line (the ledger position and the signed checkpoint
//    covering it) with a QR code of it, the audit line at the foot naming
//    the tokens' short ids;
//    A5 by default, filled to the foot, A4 on request, no printed background;
//  - the audit view (/games/{game}/audit): the verification of the ledger
//    and of the game, the events not yet under a signed checkpoint, and the
//    audit bundle to download.
//
// Every recorded string is escaped (html.h).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SLIP_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SLIP_H_

#include <cstdint>
#include <optional>
#include <string>

#include "adjudicator/service/console/tournament_page.h"
#include "adjudicator/service/console/venue_time.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/service.pb.h"

namespace arbiter::service::console {

enum class Paper { kA5, kA4 };

struct SlipFacts {
  v1::Game game;
  v1::Ruling ruling;
  v1::RecordedEvent event;    // the event the ruling was given on
  v1::Checkpoint checkpoint;  // a signed checkpoint whose tree holds the event
  // Where the ruling's receipt is served (receipt_route.h): the QR code's
  // text when set, so a phone fetches the C2SP tlog-proof itself.
  std::string receipt_url;
  Paper paper = Paper::kA5;
  std::optional<Placement> placement;  // its tournament, round and board, if paired
  // The ruling that resolved it (Ruling.resolves), and the arbiterDecision
  // event that gave it: its actor is who decided.
  std::optional<v1::Ruling> resolution;
  v1::Event resolution_event;
  // A decision (Ruling.resolves): the pending ruling it decided, whose
  // options name the choice.
  std::optional<v1::Ruling> resolved;
  VenueTime time;  // the hall's clock the slip's times are said in
};

std::string RenderSlip(const SlipFacts& facts);

// The slip's verification line, which its QR code holds: "arbiter verify
// G1 ruling 2 position 118 root <hex> size 256".
std::string VerificationLine(const SlipFacts& facts);

struct AuditFacts {
  v1::Game game;
  v1::VerifyGameResponse verified;
  uint64_t unsigned_events = 0;  // the game's events beyond the latest signed checkpoint
};

std::string RenderAudit(const AuditFacts& facts);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SLIP_H_
