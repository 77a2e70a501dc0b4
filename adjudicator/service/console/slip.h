// The pages the server renders itself, bilingual (Chinese first, as the
// rules are written), readable and printable without scripts:
//
//  - the ruling slip (/games/{game}/rulings/{n}/slip): game, players, time,
//    the event, the clause and its verbatim Chinese text with our English,
//    the sanctions, the decision, signature lines for the arbiter and both
//    players, and where the ruling stands in the ledger with the signed
//    checkpoint that covers it, so anyone can verify it later; A5 by
//    default, A4 on request (print CSS);
//  - the audit view (/games/{game}/audit): the verification of the ledger
//    and of the game, the events not yet under a signed checkpoint, and the
//    audit bundle to download.
//
// Every recorded string is escaped (html.h).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SLIP_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SLIP_H_

#include <cstdint>
#include <string>

#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/service.pb.h"

namespace arbiter::service::console {

enum class Paper { kA5, kA4 };

struct SlipFacts {
  v1::Game game;
  v1::Ruling ruling;
  v1::RecordedEvent event;    // the event the ruling was given on
  v1::Checkpoint checkpoint;  // a signed checkpoint whose tree holds the event
  Paper paper = Paper::kA5;
};

std::string RenderSlip(const SlipFacts& facts);

struct AuditFacts {
  v1::Game game;
  v1::VerifyGameResponse verified;
  uint64_t unsigned_events = 0;  // the game's events beyond the latest signed checkpoint
};

std::string RenderAudit(const AuditFacts& facts);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_SLIP_H_
