#include "adjudicator/tournament/fold.h"
#include "arbiter/v1/tournament.pb.h"
#include "rulesdb/rules.h"
#include "adjudicator/engine/board.h"
#include "adjudicator/service/tournament_store.h"
#include "ledger/sqlite.h"
#include "grpcpp/server_context.h"
#include <sqlite3.h>
