// Standard Webhooks 1.0 signatures (issue 46): what a server puts in a
// delivery's `webhook-signature` header and what a receiver checks.
//
// The signed content is `{webhook-id}.{webhook-timestamp}.{body}`. A
// delivery carries `v1a,<base64>`, the Ed25519 signature with the server's
// webhook key, whose public half is given to receivers as `whpk_<base64 of
// the raw 32 bytes>`; and, when the endpoint was given a `whsec_<base64>`
// secret, `v1,<base64>` too, the HMAC-SHA256 keyed with the secret's bytes.
// Several signatures are separated by spaces (a receiver accepts any one).
#ifndef ARBITER_LEDGER_WEBHOOK_SIGNATURE_H_
#define ARBITER_LEDGER_WEBHOOK_SIGNATURE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ledger/signer.h"

namespace arbiter::ledger {

// The key at `path` (PEM, made if absent, as Signer::LoadOrCreate), its
// public half written beside it as `whpk_...` in WebhookPublicKeyPath(path).
absl::StatusOr<Signer> LoadWebhookKey(const std::string& path);
// `path` with its extension `.key` replaced by `.pub` (else `.pub` added).
std::string WebhookPublicKeyPath(const std::string& path);
// "whpk_" and the base64 of the key's raw 32-byte public key.
std::string WebhookPublicKey(const Signer& key);

// The secret's HMAC key: the bytes of the base64 after `whsec_`.
// INVALID_ARGUMENT for anything else (or fewer than 24 bytes).
absl::StatusOr<std::string> WebhookSecretBytes(absl::string_view whsec);

// The `webhook-signature` value: `v1a,...`, then ` v1,...` when `whsec` is
// not empty.
absl::StatusOr<std::string> SignWebhook(const Signer& key, absl::string_view whsec,
                                        absl::string_view id, absl::string_view timestamp,
                                        absl::string_view body);

// OK when one `v1a` signature of `signatures` is `whpk`'s over the content;
// INVALID_ARGUMENT for a key not in whpk_ form; DATA_LOSS when none is.
absl::Status VerifyWebhookSignature(absl::string_view whpk, absl::string_view id,
                                    absl::string_view timestamp, absl::string_view body,
                                    absl::string_view signatures);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_WEBHOOK_SIGNATURE_H_
