#include "cli/receipt.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/ledger_path.h"
#include "ledger/cosignature_store.h"
#include "ledger/note_key.h"
#include "ledger/receipt.h"
#include "ledger/store.h"
#include "ledger/stream.h"
#include "ledger/witness_policy.h"

namespace arbiter::cli {
namespace {

// The cosignatures kept in the ledger's database at `db` (with those of a
// cosignatures.db an older release left beside a SQLite ledger), only read.
absl::StatusOr<std::unique_ptr<ledger::CosignatureStore>> CosignaturesOf(const std::string& db) {
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(db);
  if (!store.ok()) return store.status();
  std::string own_dir;
  if (!ledger::IsSharedStore(db)) {
    const std::filesystem::path dir = std::filesystem::path(db).parent_path();
    own_dir = dir.empty() ? "." : dir.string();
  }
  return ledger::CosignatureStore::OpenForReading(**store, own_dir);
}

// The reader of the ledger at `location` (a data directory, its ledger.db or
// a postgresql:// URI); `*database` becomes the name the store gives it.
absl::StatusOr<std::unique_ptr<ledger::LogSource>> OpenReaderAt(const std::string& location,
                                                                std::string* database) {
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(location);
  if (!store.ok()) return store.status();
  *database = (*store)->database();
  return (*store)->OpenReader();
}

// --witnesses K --witness VKEY...: the policy, or nullopt without --witnesses.
absl::StatusOr<std::optional<ledger::WitnessPolicy>> PolicyOf(const Args& args) {
  if (!args.Has("witnesses")) {
    if (args.Has("witness")) {
      return absl::InvalidArgumentError("--witness VKEY needs --witnesses K, how many must cosign");
    }
    return std::nullopt;
  }
  int k = 0;
  if (absl::Status s = args.Number("witnesses", &k); !s.ok()) return s;
  absl::StatusOr<ledger::WitnessPolicy> policy =
      ledger::WitnessPolicy::Make(args.Values("witness"), k);
  if (!policy.ok()) return policy.status();
  return *std::move(policy);
}

// The name of the set field of `message`'s oneof `kind`.
std::string OneofKind(const google::protobuf::Message& message) {
  const auto* kind = message.GetDescriptor()->FindOneofByName("kind");
  const auto* set =
      kind == nullptr ? nullptr : message.GetReflection()->GetOneofFieldDescriptor(message, kind);
  return set == nullptr ? "an event of no kind" : set->json_name();
}

// The event kind's name (its field in Event's oneof), for the report; a
// tournament's entry (its leaf data, ledger/stream.h) as "tournament KIND".
std::string KindOf(const std::string& bytes) {
  if (absl::StartsWith(bytes, ledger::kTournamentLeafPrefix)) {
    v1::TournamentEvent event;
    if (!event.ParseFromString(bytes.substr(ledger::kTournamentLeafPrefix.size()))) {
      return "not an arbiter.v1.TournamentEvent";
    }
    return absl::StrCat("tournament ", OneofKind(event));
  }
  v1::Event event;
  if (!event.ParseFromString(bytes)) return "not an arbiter.v1.Event";
  return OneofKind(event);
}

// The revision of the event ruling `n` of `game` was given on; nullopt
// when the game has no such ruling.
absl::StatusOr<std::optional<uint64_t>> RulingEvent(ledger::LogSource& reader,
                                                    const std::string& game, uint64_t n) {
  for (uint64_t after = 0;;) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> page = reader.ReadGame(game, after, 256);
    if (!page.ok()) return page.status();
    if (page->empty()) return std::nullopt;
    for (const v1::LedgerEntry& e : *page) {
      for (const v1::Ruling& r : e.rulings()) {
        if (r.number() == n) return r.event();
      }
      after = e.revision();
    }
  }
}

// OK when `name` ("tournaments/T") names a tournament by a valid id.
absl::Status CheckTournamentName(const std::string& name) {
  return ledger::TournamentStream(name.substr(ledger::kTournamentStreamPrefix.size())).status();
}

// What a receipt is asked for: ruling N of a game, or revision N of a
// tournament's stream (tournaments/T).
struct ReceiptSubject {
  std::string game;
  bool tournament = false;
  uint64_t n = 0;
};

// The entry the receipt proves: the event ruling N was given on, or the
// tournament's revision N. Complains and returns the exit code when there
// is none.
std::optional<int> FindReceiptEntry(ledger::LogSource& reader, const ReceiptSubject& subject,
                                    v1::LedgerEntry* entry) {
  const std::string& game = subject.game;
  absl::StatusOr<std::optional<uint64_t>> revision = subject.tournament
                                                         ? std::optional<uint64_t>(subject.n)
                                                         : RulingEvent(reader, game, subject.n);
  if (!revision.ok()) {
    return Complain("export", revision.status().message(), ExitCodeOf(revision.status()));
  }
  if (!revision->has_value()) {
    return Complain("export", absl::StrCat("game '", game, "' has no ruling ", subject.n),
                    kExitBadInput);
  }
  absl::StatusOr<std::vector<v1::LedgerEntry>> read = reader.ReadGame(game, **revision - 1, 1);
  if (subject.tournament && read.ok() && read->empty()) {
    return Complain(
        "export",
        absl::StrCat("tournament '", game.substr(ledger::kTournamentStreamPrefix.size()),
                     "' has no revision ", subject.n),
        kExitBadInput);
  }
  if (!read.ok() || read->empty()) {
    return Complain("export", absl::StrCat("the event of ruling ", subject.n, " cannot be read"),
                    kExitUnavailable);
  }
  *entry = std::move(read->front());
  return std::nullopt;
}

// The receipt on stdout, or written to --out and said so.
int DeliverReceipt(const std::string& receipt, const std::string& out,
                   const ReceiptSubject& subject, uint64_t position) {
  if (out.empty()) {
    std::fwrite(receipt.data(), 1, receipt.size(), stdout);
    return 0;
  }
  if (absl::Status s = WriteFileAtomically(out, receipt); !s.ok()) {
    return Complain("export", absl::StrCat("--out: ", s.message()), ExitCodeOf(s));
  }
  const bool tournament = subject.tournament;
  std::printf("wrote the receipt of %s %llu of %s '%s' (position %llu) to %s\n",
              tournament ? "revision" : "ruling", static_cast<unsigned long long>(subject.n),
              tournament ? "tournament" : "game",
              subject.game.substr(tournament ? ledger::kTournamentStreamPrefix.size() : 0).c_str(),
              static_cast<unsigned long long>(position), out.c_str());
  return 0;
}

}  // namespace

int RunReceiptExport(const CommandSpec& spec, const Args& args) {
  if (!args.Has("db")) return UsageError(spec, "--receipt is written offline: give --db PATH");
  for (const char* other : {"bundle", "format", "server"}) {
    if (args.Has(other))
      return UsageError(spec, absl::StrCat("--", other, " is not for --receipt"));
  }
  ReceiptSubject subject;
  subject.game = args.positionals()[0];
  const std::string& game = subject.game;
  // A tournament's event is named by its stream and revision
  // (tournaments/T --receipt N); a game's by its ruling.
  subject.tournament = ledger::IsTournamentStream(game);
  if (absl::Status s = args.Number("receipt", &subject.n); !s.ok() || subject.n == 0) {
    return UsageError(spec, subject.tournament
                                ? "--receipt N: the tournament event's revision (1, 2, ...)"
                                : "--receipt N: the ruling's number (1, 2, ...), as on its slip");
  }
  if (absl::Status s = subject.tournament ? CheckTournamentName(game) : absl::OkStatus(); !s.ok()) {
    return UsageError(spec, absl::StrCat(game, ": ", s.message()));
  }
  std::string db = *args.Value("db");
  const std::string out = args.ValueOr("out", "");
  if (!out.empty()) {
    if (absl::Status s = CheckWritable(out); !s.ok()) {
      return Complain("export", absl::StrCat("--out ", out, ": ", s.message()), kExitBadInput);
    }
  }
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> reader = OpenReaderAt(db, &db);
  if (!reader.ok()) {
    return Complain(
        "export", absl::StrCat("--db ", db, ": ", reader.status().message()),
        absl::IsNotFound(reader.status()) ? kExitBadInput : ExitCodeOf(reader.status()));
  }
  v1::LedgerEntry entry;
  if (std::optional<int> exit = FindReceiptEntry(**reader, subject, &entry)) return *exit;
  absl::StatusOr<std::unique_ptr<ledger::CosignatureStore>> store = CosignaturesOf(db);
  if (!store.ok()) return Complain("export", store.status().message(), ExitCodeOf(store.status()));
  absl::StatusOr<std::string> receipt =
      ledger::ExportReceipt(**reader, store->get(), entry.position());
  if (!receipt.ok()) {
    return Complain("export", receipt.status().message(),
                    absl::IsDataLoss(receipt.status())             ? kExitNegative
                    : absl::IsFailedPrecondition(receipt.status()) ? kExitBadInput
                                                                   : ExitCodeOf(receipt.status()));
  }
  return DeliverReceipt(*receipt, out, subject, entry.position());
}

int RunReceiptVerify(const CommandSpec& spec, const Args& args) {
  for (const char* other : {"db", "bundle", "pubkey", "server", "strict"}) {
    if (args.Has(other))
      return UsageError(spec, absl::StrCat("--", other, " is not for --receipt"));
  }
  if (!args.Has("key")) {
    return UsageError(spec,
                      "--receipt needs --key VKEY|FILE, the log's verifier key (ledger.vkey)");
  }
  std::string vkey = *args.Value("key");
  if (std::error_code ec; std::filesystem::is_regular_file(vkey, ec)) {
    absl::StatusOr<std::string> text = ReadInput(vkey);
    if (!text.ok()) return Complain("verify", text.status().message(), kExitBadInput);
    vkey = std::string(absl::StripAsciiWhitespace(*text));
  }
  absl::StatusOr<ledger::NoteVerifierKey> key = ledger::ParseVerifierKey(vkey);
  if (!key.ok()) return UsageError(spec, absl::StrCat("--key: ", key.status().message()));
  absl::StatusOr<std::optional<ledger::WitnessPolicy>> policy = PolicyOf(args);
  if (!policy.ok()) return UsageError(spec, policy.status().message());
  const std::string path = *args.Value("receipt");
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) {
    return Complain("verify", absl::StrCat("--receipt ", path, ": ", text.status().message()),
                    kExitBadInput);
  }
  absl::StatusOr<ledger::VerifiedReceipt> v =
      ledger::VerifyReceipt(*text, *key, policy->has_value() ? &**policy : nullptr);
  if (absl::IsDataLoss(v.status())) {
    std::printf("receipt %s is NOT valid: %s\n", path.c_str(),
                std::string(v.status().message()).c_str());
    return kExitNegative;
  }
  if (!v.ok()) {
    return Complain("verify", absl::StrCat("--receipt ", path, ": ", v.status().message()),
                    kExitBadInput);
  }
  std::printf(
      "receipt valid: the event at position %llu (%s) is in the log %s at size %llu, "
      "root %s\n",
      static_cast<unsigned long long>(v->position), KindOf(v->entry).c_str(),
      v->checkpoint.origin.c_str(), static_cast<unsigned long long>(v->checkpoint.tree_size),
      absl::Base64Escape(AsBytes(v->checkpoint.root)).c_str());
  if (policy->has_value()) {
    std::printf("cosigned by %zu of the %d witness(es) required: %s\n", v->witnesses.size(),
                (*policy)->required(), absl::StrJoin(v->witnesses, ", ").c_str());
  } else {
    std::printf("no witness asked for (--witnesses K --witness VKEY): the log's word alone\n");
  }
  return 0;
}

int VerifyWitnessed(const CommandSpec& spec, const Args& args, ledger::Store& ledger_store) {
  absl::StatusOr<std::optional<ledger::WitnessPolicy>> policy = PolicyOf(args);
  if (!policy.ok()) return UsageError(spec, policy.status().message());
  if (!policy->has_value()) return 0;
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> reader = ledger_store.OpenReader();
  if (!reader.ok())
    return Complain("verify", reader.status().message(), ExitCodeOf(reader.status()));
  absl::StatusOr<std::unique_ptr<ledger::CosignatureStore>> store =
      CosignaturesOf(ledger_store.database());
  if (!store.ok()) return Complain("verify", store.status().message(), ExitCodeOf(store.status()));
  absl::StatusOr<std::vector<v1::Checkpoint>> checkpoints = (*reader)->Checkpoints();
  absl::StatusOr<uint64_t> head = (*reader)->Head();
  if (!checkpoints.ok() || !head.ok()) {
    const absl::Status s = !checkpoints.ok() ? checkpoints.status() : head.status();
    return Complain("verify", s.message(), ExitCodeOf(s));
  }
  absl::StatusOr<std::optional<ledger::Witnessed>> w =
      ledger::LatestWitnessed(*checkpoints, **store, **policy);
  if (!w.ok()) return Complain("verify", w.status().message(), ExitCodeOf(w.status()));
  if (!w->has_value()) {
    std::printf(
        "ledger is NOT witnessed: no checkpoint is cosigned by %d of the %zu witness(es) "
        "given\n",
        (*policy)->required(), (*policy)->known());
    return kExitNegative;
  }
  const uint64_t size = (*w)->checkpoint.tree_size();
  std::printf(
      "witnessed: checkpoint at size %llu cosigned by %zu of %zu witness(es) (%s); "
      "%llu event(s) after it\n",
      static_cast<unsigned long long>(size), (*w)->witnesses.size(), (*policy)->known(),
      absl::StrJoin((*w)->witnesses, ", ").c_str(), static_cast<unsigned long long>(*head - size));
  return 0;
}

}  // namespace arbiter::cli
