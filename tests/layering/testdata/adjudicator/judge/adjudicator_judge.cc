// Allowed: the engine, the rules, proto, the ledger's judge.h interface.
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"
#include "ledger/judge.h"
#include "rulesdb/rules.h"
// Not allowed:
#include "ledger/ledger.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/tournament/fold.h"
#include <grpcpp/grpcpp.h>
#include <sqlite3.h>
#include "cli/commands.h"
