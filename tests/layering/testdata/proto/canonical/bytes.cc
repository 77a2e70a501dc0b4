#include "proto/canonical/sha256.h"
#include <openssl/evp.h>
#include "rulesdb/rules.h"
#include "ledger/hash.h"
