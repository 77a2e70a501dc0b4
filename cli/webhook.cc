// `arbiter webhook`: the webhook endpoints of a server's store (issue 46;
// adjudicator/service/webhooks.h, proto/DOMAIN.md "Webhooks"), and the
// check a receiver makes of a delivery.
//
// Without --db, add, list, remove and retry call the server (--server,
// else $ARBITER_SERVER) with the chief arbiter's token ($ARBITER_TOKEN):
// the gRPC methods AddWebhook, ListWebhooks, RemoveWebhook, RetryWebhook.
// With --db they write the store itself, as `arbiter token` does: a data
// directory whose ledger.db holds the endpoints (beside a running server,
// which reads them at its next commit), or the PostgreSQL database its
// servers share; whoever may write the store is the operator.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/random/random.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/service/webhook_messages.h"
#include "adjudicator/service/webhook_sender.h"
#include "cli/client.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/ledger_path.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "ledger/note_key.h"
#include "ledger/receipt.h"
#include "ledger/server_tables.h"
#include "ledger/store.h"
#include "ledger/webhook_signature.h"
#include "ledger/witness_policy.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kDbFlag = {
    "db", "DIR|URI",
    "write the store itself, offline: the server's data directory, or the PostgreSQL database "
    "its servers share, postgresql://USER@HOST:PORT/DB (default: call the server)"};
constexpr FlagSpec kAddFlags[] = {
    {"url", "URL", "where to POST: http:// or https://", false, true},
    {"kind", "KIND[,KIND]",
     "game.result, ruling.issued, ruling.decided, round.paired, round.standings, "
     "tournament.corrected",
     true, true},
    {"secret", "whsec_...", "also sign v1 (HMAC-SHA256) with this Standard Webhooks secret"},
    kDbFlag,
    kServerFlag,
};
constexpr CommandSpec kAdd = {
    .name = "webhook add",
    .summary = "send the events of these kinds, from the next one on, to URL",
    .flags = kAddFlags,
    .notes = "Only a server started with --webhook-key FILE sends webhooks.\n",
};
constexpr FlagSpec kDbOnly[] = {kDbFlag, kServerFlag};
constexpr CommandSpec kList = {
    .name = "webhook list",
    .summary = "every endpoint (never its secret) and its deliveries waiting or failed for good",
    .flags = kDbOnly,
};
constexpr CommandSpec kRemove = {
    .name = "webhook remove",
    .positionals = "ID",
    .summary = "stop sending to an endpoint; its deliveries not made are dropped",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kDbOnly,
};
constexpr CommandSpec kRetry = {
    .name = "webhook retry",
    .positionals = "ID",
    .summary = "enable an endpoint again and send its deliveries that failed for good again",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kDbOnly,
};
constexpr FlagSpec kWebhookVerifyFlags[] = {
    {"key", "whpk_...|FILE", "the server's webhook public key", false, true},
    {"headers", "FILE", "the request's headers, one 'name: value' a line", false, true},
    {"body", "FILE", "the request's body, byte for byte", false, true},
    {"tolerance", "DURATION", "how far webhook-timestamp may be from now (default 5m)"},
    {"verifier-key", "VKEY|FILE", "the log's verifier key (ledger.vkey): check the proof too"},
    {"witnesses", "K", "with --verifier-key: K of the --witness keys must have cosigned"},
    {"witness", "VKEY", "a witness's verifier key", true},
};
constexpr CommandSpec kWebhookVerify = {
    .name = "webhook verify",
    .summary = "check a delivery: its v1a signature, its time, and its proof in the log",
    .flags = kWebhookVerifyFlags,
};

int WebhookFailed(const absl::Status& status) {
  return Complain("webhook", status.message(), ExitCodeOf(status));
}

absl::StatusOr<std::unique_ptr<ledger::ServerTables>> OpenTables(
    const Args& args, std::unique_ptr<ledger::Store>* store) {
  absl::StatusOr<std::unique_ptr<ledger::Store>> s = ledger::OpenStore(DataDirectory(args));
  if (!s.ok()) return s.status();
  *store = *std::move(s);
  return (*store)->OpenServerTables(/*read_only=*/false);
}

std::string NewId() {
  absl::BitGen gen;
  return absl::StrCat("wh_", absl::Hex(absl::Uniform<uint64_t>(gen), absl::kZeroPad16));
}

// The server's answer to one webhook method, or the exit code of its refusal.
template <typename Request, typename Response>
int CallServer(const Args& args,
               grpc::Status (v1::Arbiter::Stub::*method)(grpc::ClientContext*, const Request&,
                                                         Response*),
               const Request& request, Response* response) {
  const std::string server = ServerOf(args);
  std::unique_ptr<v1::Arbiter::Stub> stub = Connect(server);
  grpc::ClientContext context;
  SetDeadline(&context);
  grpc::Status s = ((*stub).*method)(&context, request, response);
  return s.ok() ? kExitOk : cli::Fail("webhook", server, s);
}

int AddRemote(const Args& args, const v1::AddWebhookRequest& request) {
  v1::Webhook out;
  if (int exit = CallServer(args, &v1::Arbiter::Stub::AddWebhook, request, &out); exit != 0) {
    return exit;
  }
  std::printf("%s\n", out.id().c_str());
  return kExitOk;
}

int Add(const Args& args) {
  const std::string url = *args.Value("url");
  if (absl::StatusOr<service::WebhookUrl> u = service::ParseWebhookUrl(url); !u.ok()) {
    return UsageError(kAdd, u.status().message());
  }
  absl::StatusOr<std::set<std::string>> kinds =
      service::ParseWebhookKinds(absl::StrJoin(args.Values("kind"), ","));
  if (!kinds.ok()) return UsageError(kAdd, kinds.status().message());
  const std::string secret = args.ValueOr("secret", "");
  if (!secret.empty()) {
    if (absl::StatusOr<std::string> b = ledger::WebhookSecretBytes(secret); !b.ok()) {
      return UsageError(kAdd, absl::StrCat("--secret: ", b.status().message()));
    }
  }
  if (!args.Has("db")) {
    v1::AddWebhookRequest request;
    request.set_url(url);
    for (const std::string& k : *kinds) request.add_kinds(k);
    request.set_secret(secret);
    return AddRemote(args, request);
  }
  std::unique_ptr<ledger::Store> store;
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables = OpenTables(args, &store);
  if (!tables.ok()) return WebhookFailed(tables.status());
  // From the next event on: the cursor starts at the log's head.
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> log = store->OpenReader();
  if (!log.ok()) return WebhookFailed(log.status());
  absl::StatusOr<uint64_t> head = (*log)->Head();
  if (!head.ok()) return WebhookFailed(head.status());
  ledger::WebhookRow row{.id = NewId(),
                         .url = url,
                         .kinds = absl::StrJoin(*kinds, ","),
                         .secret = secret,
                         .created = absl::ToUnixSeconds(absl::Now()),
                         .cursor = *head};
  if (absl::Status s = (*tables)->AddWebhook(row); !s.ok()) return WebhookFailed(s);
  std::printf("%s\n", row.id.c_str());
  std::fprintf(stderr, "arbiter webhook: %s sends %s to %s from log position %llu on\n",
               row.id.c_str(), row.kinds.c_str(), url.c_str(),
               static_cast<unsigned long long>(*head + 1));
  return kExitOk;
}

// The server's endpoints, as `List` prints the store's.
int ListRemote(const Args& args) {
  v1::ListWebhooksResponse out;
  if (int exit =
          CallServer(args, &v1::Arbiter::Stub::ListWebhooks, v1::ListWebhooksRequest(), &out);
      exit != 0) {
    return exit;
  }
  for (const v1::Webhook& w : out.webhooks()) {
    std::printf(
        "%s  %s  %s  %s  through position %llu  %s\n", w.id().c_str(), w.url().c_str(),
        absl::StrJoin(w.kinds(), ",").c_str(), w.has_secret() ? "v1a+v1 (secret set)" : "v1a",
        static_cast<unsigned long long>(w.cursor()),
        w.has_disabled() ? absl::StrCat("disabled (", w.disabled_why(), ")").c_str() : "enabled");
    for (const v1::Webhook::Delivery& d : w.waiting()) {
      std::printf("  %s  %s  position %llu  %s after %d attempt(s)%s%s\n", d.id().c_str(),
                  d.kind().c_str(), static_cast<unsigned long long>(d.position()),
                  d.failed() ? "FAILED for good" : "waiting", d.attempts(),
                  d.last_error().empty() ? "" : ": ", d.last_error().c_str());
    }
  }
  return kExitOk;
}

int List(const Args& args) {
  if (!args.Has("db")) return ListRemote(args);
  std::unique_ptr<ledger::Store> store;
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables = OpenTables(args, &store);
  if (!tables.ok()) return WebhookFailed(tables.status());
  absl::StatusOr<std::vector<ledger::WebhookRow>> hooks = (*tables)->Webhooks();
  if (!hooks.ok()) return WebhookFailed(hooks.status());
  for (const ledger::WebhookRow& w : *hooks) {
    const std::string state =
        w.disabled.has_value() ? absl::StrCat("disabled ",
                                              absl::FormatTime("%Y-%m-%dT%H:%M:%SZ",
                                                               absl::FromUnixSeconds(*w.disabled),
                                                               absl::UTCTimeZone()),
                                              " (", w.disabled_why, ")")
                               : "enabled";
    // The secret is never shown: only whether there is one.
    std::printf("%s  %s  %s  %s  through position %llu  %s\n", w.id.c_str(), w.url.c_str(),
                w.kinds.c_str(), w.secret.empty() ? "v1a" : "v1a+v1 (secret set)",
                static_cast<unsigned long long>(w.cursor), state.c_str());
    absl::StatusOr<std::vector<ledger::DeliveryRow>> deliveries = (*tables)->Deliveries(w.id);
    if (!deliveries.ok()) return WebhookFailed(deliveries.status());
    for (const ledger::DeliveryRow& d : *deliveries) {
      std::printf("  %s  %s  position %llu  %s after %d attempt(s)%s%s\n", d.id.c_str(),
                  d.kind.c_str(), static_cast<unsigned long long>(d.position),
                  d.failed ? "FAILED for good" : "waiting", d.attempts,
                  d.last_error.empty() ? "" : ": ", d.last_error.c_str());
    }
  }
  return kExitOk;
}

int Remove(const Args& args) {
  if (!args.Has("db")) {
    v1::RemoveWebhookRequest request;
    request.set_id(args.positionals()[0]);
    v1::RemoveWebhookResponse out;
    if (int exit = CallServer(args, &v1::Arbiter::Stub::RemoveWebhook, request, &out); exit != 0) {
      return exit;
    }
    std::printf("removed %s\n", request.id().c_str());
    return kExitOk;
  }
  std::unique_ptr<ledger::Store> store;
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables = OpenTables(args, &store);
  if (!tables.ok()) return WebhookFailed(tables.status());
  const std::string& id = args.positionals()[0];
  absl::StatusOr<bool> removed = (*tables)->RemoveWebhook(id);
  if (!removed.ok()) return WebhookFailed(removed.status());
  if (!*removed) return Complain("webhook", absl::StrCat("no webhook ", id), kExitBadInput);
  std::printf("removed %s\n", id.c_str());
  return kExitOk;
}

int Retry(const Args& args) {
  if (!args.Has("db")) {
    v1::RetryWebhookRequest request;
    request.set_id(args.positionals()[0]);
    v1::RetryWebhookResponse out;
    if (int exit = CallServer(args, &v1::Arbiter::Stub::RetryWebhook, request, &out); exit != 0) {
      return exit;
    }
    std::printf("%s enabled; %d delivery(ies) failed for good are sent again\n",
                request.id().c_str(), out.failed_sent_again());
    return kExitOk;
  }
  std::unique_ptr<ledger::Store> store;
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables = OpenTables(args, &store);
  if (!tables.ok()) return WebhookFailed(tables.status());
  const std::string& id = args.positionals()[0];
  absl::StatusOr<int> n = (*tables)->RetryWebhook(id, absl::ToUnixMillis(absl::Now()));
  if (absl::IsNotFound(n.status())) return Complain("webhook", n.status().message(), kExitBadInput);
  if (!n.ok()) return WebhookFailed(n.status());
  std::printf("%s enabled; %d delivery(ies) failed for good are sent again\n", id.c_str(), *n);
  return kExitOk;
}

// A value given inline or as a file holding it.
absl::StatusOr<std::string> InlineOrFile(const std::string& value) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(value, ec)) return value;
  absl::StatusOr<std::string> text = ReadInput(value);
  if (!text.ok()) return text.status();
  return std::string(absl::StripAsciiWhitespace(*text));
}

// The webhook-* headers of a file of "name: value" lines.
absl::StatusOr<std::map<std::string, std::string>> ReadHeaders(const std::string& path) {
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) return text.status();
  std::map<std::string, std::string> out;
  for (absl::string_view line : absl::StrSplit(*text, '\n', absl::SkipWhitespace())) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    out[absl::AsciiStrToLower(absl::StripAsciiWhitespace(line.substr(0, colon)))] =
        std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
  }
  for (const char* h : {"webhook-id", "webhook-timestamp", "webhook-signature"}) {
    if (!out.contains(h)) {
      return absl::InvalidArgumentError(absl::StrCat("--headers ", path, ": no ", h, " header"));
    }
  }
  return out;
}

// The proof of the body's data checked with the log's key: the entry at
// data.position in a checkpoint the key signed (and K witnesses cosigned).
absl::StatusOr<ledger::VerifiedReceipt> CheckProof(const Args& args, const std::string& body) {
  google::protobuf::Struct parsed;
  if (!google::protobuf::util::JsonStringToMessage(body, &parsed).ok()) {
    return absl::DataLossError("the body is not JSON");
  }
  const auto& data = parsed.fields().contains("data")
                         ? parsed.fields().at("data").struct_value().fields()
                         : google::protobuf::Map<std::string, google::protobuf::Value>();
  if (!data.contains("proof") || !data.contains("position")) {
    return absl::DataLossError("the body's data has no proof or no position");
  }
  absl::StatusOr<std::string> vkey = InlineOrFile(*args.Value("verifier-key"));
  if (!vkey.ok()) return vkey.status();
  absl::StatusOr<ledger::NoteVerifierKey> key = ledger::ParseVerifierKey(*vkey);
  if (!key.ok())
    return absl::InvalidArgumentError(absl::StrCat("--verifier-key: ", key.status().message()));
  std::optional<ledger::WitnessPolicy> policy;
  if (args.Has("witnesses")) {
    int k = 0;
    if (absl::Status s = args.Number("witnesses", &k); !s.ok()) return s;
    absl::StatusOr<ledger::WitnessPolicy> p =
        ledger::WitnessPolicy::Make(args.Values("witness"), k);
    if (!p.ok()) return p.status();
    policy = *std::move(p);
  }
  absl::StatusOr<ledger::VerifiedReceipt> v = ledger::VerifyReceipt(
      data.at("proof").string_value(), *key, policy.has_value() ? &*policy : nullptr);
  if (!v.ok()) return absl::DataLossError(absl::StrCat("the proof: ", v.status().message()));
  if (absl::StrCat(v->position) != data.at("position").string_value()) {
    return absl::DataLossError(absl::StrCat("the proof is of position ", v->position,
                                            ", the data of ", data.at("position").string_value()));
  }
  return v;
}

int Verify(const Args& args) {
  absl::StatusOr<std::string> whpk = InlineOrFile(*args.Value("key"));
  if (!whpk.ok()) return Complain("webhook", whpk.status().message(), kExitBadInput);
  absl::Duration tolerance = absl::Minutes(5);
  if (auto t = args.Value("tolerance");
      t.has_value() && (!absl::ParseDuration(*t, &tolerance) || tolerance < absl::ZeroDuration())) {
    return UsageError(kWebhookVerify, "--tolerance: a duration such as 5m or 30s");
  }
  if (args.Has("witnesses") && !args.Has("verifier-key")) {
    return UsageError(kWebhookVerify, "--witnesses needs --verifier-key, the log's key");
  }
  absl::StatusOr<std::map<std::string, std::string>> headers = ReadHeaders(*args.Value("headers"));
  if (!headers.ok()) return Complain("webhook", headers.status().message(), kExitBadInput);
  absl::StatusOr<std::string> body = ReadInput(*args.Value("body"));
  if (!body.ok()) return Complain("webhook", body.status().message(), kExitBadInput);
  const std::string& id = headers->at("webhook-id");
  const std::string& ts = headers->at("webhook-timestamp");
  absl::Status sig =
      ledger::VerifyWebhookSignature(*whpk, id, ts, *body, headers->at("webhook-signature"));
  if (absl::IsInvalidArgument(sig))
    return UsageError(kWebhookVerify, absl::StrCat("--key: ", sig.message()));
  int64_t seconds = 0;
  std::string why;
  if (!sig.ok()) {
    why = std::string(sig.message());
  } else if (!absl::SimpleAtoi(ts, &seconds)) {
    why = "webhook-timestamp is not unix seconds";
  } else if (absl::AbsDuration(absl::Now() - absl::FromUnixSeconds(seconds)) > tolerance) {
    why = absl::StrCat("webhook-timestamp ", ts, " is more than ", absl::FormatDuration(tolerance),
                       " from now (a replay?)");
  }
  std::optional<ledger::VerifiedReceipt> proof;
  if (why.empty() && args.Has("verifier-key")) {
    absl::StatusOr<ledger::VerifiedReceipt> v = CheckProof(args, *body);
    if (absl::IsInvalidArgument(v.status()))
      return UsageError(kWebhookVerify, v.status().message());
    if (!v.ok()) why = std::string(v.status().message());
    if (v.ok()) proof = *std::move(v);
  }
  if (!why.empty()) {
    std::printf("webhook %s is NOT valid: %s\n", id.c_str(), why.c_str());
    return kExitNegative;
  }
  std::printf("webhook %s valid: signed v1a by %s at %s\n", id.c_str(),
              std::string(absl::StripAsciiWhitespace(*whpk)).c_str(), ts.c_str());
  if (proof.has_value()) {
    std::printf("its event is at position %llu of the log %s (checkpoint of size %llu)%s%s\n",
                static_cast<unsigned long long>(proof->position), proof->checkpoint.origin.c_str(),
                static_cast<unsigned long long>(proof->checkpoint.tree_size),
                proof->witnesses.empty() ? "" : ", cosigned by ",
                absl::StrJoin(proof->witnesses, ", ").c_str());
  } else {
    std::printf("its proof not checked (--verifier-key VKEY, the log's ledger.vkey)\n");
  }
  return kExitOk;
}

constexpr Subcommand kSubcommands[] = {
    {&kAdd, Add}, {&kList, List}, {&kRemove, Remove}, {&kRetry, Retry}, {&kWebhookVerify, Verify}};
constexpr CommandGroup kWebhook = {
    .name = "webhook",
    .summary = "signed webhooks of a server's store (Standard Webhooks 1.0, with proofs)",
    .subcommands = kSubcommands,
};

}  // namespace

int RunWebhook(int argc, char** argv) { return RunGroup(kWebhook, argc, argv); }

}  // namespace arbiter::cli
