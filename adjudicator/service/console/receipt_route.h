// A ruling's receipt over HTTP: GET /games/{game}/rulings/{n}/receipt
// answers the C2SP tlog-proof of the event ruling n was given on
// (ledger/receipt.h), against the covering checkpoint with the most
// witness cosignatures, as `arbiter export GAME --receipt N` writes it.
// The slip's QR code holds this URL: a player scans it, keeps the file,
// and checks it with `arbiter verify --receipt` and the venue's ledger.vkey.
//
// No login, as the tiles need none: a receipt holds one event's bytes and
// a signed checkpoint, what the public tiles already give out
// (.github/SECURITY.md).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_RECEIPT_ROUTE_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_RECEIPT_ROUTE_H_

#include <string>

#include "adjudicator/service/game_folds.h"
#include "httplib.h"
#include "ledger/cosignature_store.h"
#include "ledger/ledger.h"

namespace arbiter::service::console {

// The path of ruling `n`'s receipt.
std::string ReceiptPath(const std::string& game_id, uint32_t n);

// Adds the route above. None of the pointers is owned; `cosignatures` may
// be null (a server with no witnesses: receipts carry the log's signature
// alone).
void RouteReceipts(httplib::Server& http, ledger::Ledger* ledger, GameFolds* folds,
                   ledger::CosignatureStore* cosignatures);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_RECEIPT_ROUTE_H_
