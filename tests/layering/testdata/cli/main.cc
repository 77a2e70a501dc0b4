// The top: anything but tests.
#include "adjudicator/service/server.h"
#include "ledger/ledger.h"
#include "tests/support/files.h"
