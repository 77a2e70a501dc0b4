#include "proto/canonical/sha256.h"
#include "rulesdb/rules.h"
#include "ledger/sqlite.h"
  #  include "adjudicator/service/names.h"
// #include "adjudicator/engine/board.h"  (a comment: not an include)
