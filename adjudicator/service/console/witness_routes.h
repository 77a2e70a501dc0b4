// The HTTP face of a witness (`arbiter serve --witness-key`, ledger/witness.h),
// on the console's server, with the console's root as both its submission
// and its monitoring prefix (C2SP tlog-witness):
//
//   POST /add-checkpoint                   old size, consistency proof, a checkpoint;
//                                          answers the cosignature line
//   GET  /witness/{origin hash}/checkpoint  the latest checkpoint cosigned for a log
//
// No login: tlog-witness authenticates nothing but the log's signature on
// the checkpoint, which the witness checks (.github/SECURITY.md).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WITNESS_ROUTES_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WITNESS_ROUTES_H_

#include "httplib.h"
#include "ledger/witness.h"

namespace arbiter::service::console {

// Adds the routes above to `http`; `witness` is not owned and must outlive it.
void RouteWitness(httplib::Server& http, ledger::Witness* witness);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WITNESS_ROUTES_H_
