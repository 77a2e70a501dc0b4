#include "adjudicator/service/webhook_messages.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/time_util.h"
#include "ledger/stream.h"

namespace arbiter::service {
namespace {

// The proto3 JSON of `message` as a Struct (int64 values stay strings).
google::protobuf::Struct AsStruct(const google::protobuf::Message& message) {
  std::string json;
  google::protobuf::Struct out;
  if (google::protobuf::util::MessageToJsonString(message, &json).ok()) {
    (void)google::protobuf::util::JsonStringToMessage(json, &out);
  }
  return out;
}

WebhookMessage Message(const v1::LedgerEntry& entry, const std::string& kind, uint32_t number,
                       const google::protobuf::Timestamp& at,
                       const google::protobuf::Message& payload) {
  WebhookMessage m;
  m.kind = kind;
  m.position = entry.position();
  m.id = absl::StrCat("msg_", entry.position(), "_", absl::StrReplaceAll(kind, {{".", "_"}}), "_",
                      number);
  m.at = google::protobuf::util::TimeUtil::ToString(at);
  m.data = AsStruct(payload);
  auto& fields = *m.data.mutable_fields();
  const bool tournament = ledger::IsTournamentStream(entry.game_id());
  fields[tournament ? "tournament" : "game"].set_string_value(
      tournament ? std::string(absl::StripPrefix(entry.game_id(), ledger::kTournamentStreamPrefix))
                 : entry.game_id());
  fields["position"].set_string_value(absl::StrCat(entry.position()));
  fields["revision"].set_string_value(absl::StrCat(entry.revision()));
  return m;
}

void OfGame(const v1::LedgerEntry& entry, const v1::Result* result,
            const std::set<std::string>& kinds, std::vector<WebhookMessage>* out) {
  v1::Event event;
  if (!event.ParseFromString(entry.event())) return;
  for (const v1::Ruling& r : entry.rulings()) {
    const std::string kind =
        r.resolves() != 0 || r.appealed() != 0 ? "ruling.decided" : "ruling.issued";
    if (kinds.contains(kind)) out->push_back(Message(entry, kind, r.number(), event.at(), r));
  }
  if (result != nullptr && kinds.contains("game.result")) {
    out->push_back(Message(entry, "game.result", 0, event.at(), *result));
  }
}

void OfTournament(const v1::LedgerEntry& entry, const std::set<std::string>& kinds,
                  std::vector<WebhookMessage>* out) {
  v1::TournamentEvent event;
  if (!event.ParseFromString(entry.event())) return;
  const google::protobuf::Message* payload = nullptr;
  std::string kind;
  if (event.has_round_paired()) {
    kind = "round.paired";
    payload = &event.round_paired();
  } else if (event.has_standings_recorded()) {
    kind = "round.standings";
    payload = &event.standings_recorded();
  } else if (event.has_corrected()) {
    kind = "tournament.corrected";
    payload = &event.corrected();
  }
  if (payload != nullptr && kinds.contains(kind)) {
    out->push_back(Message(entry, kind, 0, event.at(), *payload));
  }
}

}  // namespace

absl::StatusOr<std::set<std::string>> ParseWebhookKinds(absl::string_view list) {
  std::set<std::string> out;
  for (absl::string_view k : absl::StrSplit(list, ',', absl::SkipWhitespace())) {
    k = absl::StripAsciiWhitespace(k);
    bool known = false;
    for (const char* kind : kWebhookKinds) known = known || k == kind;
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown webhook kind '", k,
          "': game.result, ruling.issued, ruling.decided, round.paired, round.standings or "
          "tournament.corrected"));
    }
    out.insert(std::string(k));
  }
  if (out.empty()) return absl::InvalidArgumentError("a webhook wants at least one kind");
  return out;
}

std::vector<WebhookMessage> MessagesOf(const v1::LedgerEntry& entry, const v1::Result* result,
                                       const std::set<std::string>& kinds) {
  std::vector<WebhookMessage> out;
  if (ledger::IsTournamentStream(entry.game_id())) {
    OfTournament(entry, kinds, &out);
  } else {
    OfGame(entry, result, kinds, &out);
  }
  return out;
}

absl::StatusOr<std::string> WebhookBody(const WebhookMessage& message, const std::string& proof) {
  google::protobuf::Struct body;
  auto& fields = *body.mutable_fields();
  fields["type"].set_string_value(message.kind);
  fields["timestamp"].set_string_value(message.at);
  google::protobuf::Struct data = message.data;
  (*data.mutable_fields())["proof"].set_string_value(proof);
  *fields["data"].mutable_struct_value() = std::move(data);
  std::string json;
  if (auto s = google::protobuf::util::MessageToJsonString(body, &json); !s.ok()) {
    return absl::InternalError(absl::StrCat("the webhook body: ", s.ToString()));
  }
  return json;
}

}  // namespace arbiter::service
