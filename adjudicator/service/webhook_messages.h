// What a webhook delivers (issue 46; proto/DOMAIN.md, "Webhooks"): the
// kinds of message, which log entries give which, their ids and bodies.
//
// A game's entry gives `ruling.issued` for each ruling it issued,
// `ruling.decided` for each that decides a pending ruling or an appeal
// (Ruling.resolves or Ruling.appealed set), and `game.result` when it gave
// the game its result. A tournament's entry gives `round.paired`
// (roundPaired), `round.standings` (standingsRecorded) or
// `tournament.corrected` (corrected). The id is fixed by the entry's log
// position, the kind and the ruling's number (0 for the others), so every
// server of a log names a message alike.
#ifndef ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_MESSAGES_H_
#define ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_MESSAGES_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/rulings.pb.h"
#include "google/protobuf/struct.pb.h"

namespace arbiter::service {

inline constexpr const char* kWebhookKinds[] = {"game.result",     "ruling.issued",
                                                "ruling.decided",  "round.paired",
                                                "round.standings", "tournament.corrected"};

// The kinds of a comma-separated list, each once, in kWebhookKinds' order.
// INVALID_ARGUMENT naming an unknown kind, or for none.
absl::StatusOr<std::set<std::string>> ParseWebhookKinds(absl::string_view list);

struct WebhookMessage {
  std::string id;  // webhook-id
  std::string kind;
  uint64_t position = 0;          // of the entry that carries it
  std::string at;                 // the event's time, RFC 3339
  google::protobuf::Struct data;  // the result, ruling or tournament event, and where it is
};

// The messages of `kinds` that `entry` gives; `result` is the result the
// entry gave its game (null when it gave none).
std::vector<WebhookMessage> MessagesOf(const v1::LedgerEntry& entry, const v1::Result* result,
                                       const std::set<std::string>& kinds);

// The body: {"type", "timestamp", "data"} with `proof` (the tlog-proof of
// the entry) added to data.
absl::StatusOr<std::string> WebhookBody(const WebhookMessage& message, const std::string& proof);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_MESSAGES_H_
