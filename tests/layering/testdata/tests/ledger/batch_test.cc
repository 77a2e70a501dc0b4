// The ledger's own tests are white-box: they may include its internals.
#include "ledger/internal/batch.h"
#include "ledger/ledger.h"
