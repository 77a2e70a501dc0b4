#include "cli/verify_export.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/tournament_at.h"
#include "adjudicator/tournament/export_checkpoint.h"
#include "adjudicator/tournament/export_formats.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "cli/client.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "ledger/note_key.h"
#include "ledger/signer.h"
#include "ledger/store.h"

namespace arbiter::cli {
namespace {

using tournament::NamedRecord;

constexpr char kCommand[] = "verify";

// "the h9 (EGD) export of tournaments/cup at checkpoint ORIGIN size N".
std::string WhatItNames(const NamedRecord& named) {
  const tournament::TournamentExportFormat* f = tournament::FindTournamentExport(named.format);
  return absl::StrCat("the ", f == nullptr ? "?" : f->label, " export of tournaments/",
                      named.tournament_id, " at checkpoint of log '", named.checkpoint.origin(),
                      "' size ", named.checkpoint.tree_size(), " root ",
                      named.checkpoint.root_hash());
}

// A negative answer: the file is not what the log gives, and why.
int NotIt(const std::string& path, absl::string_view why) {
  std::printf("%s does NOT match the log: %s\n", path.c_str(), std::string(why).c_str());
  return kExitNegative;
}

// The file against what the log gives at the size it names, line by line.
int Compare(const std::string& path, const NamedRecord& named, absl::string_view file,
            absl::string_view derived) {
  std::optional<tournament::LineDifference> d = tournament::FirstDifference(derived, file);
  if (!d.has_value()) {
    std::printf("%s matches: it is %s, as the log gives it there\n", path.c_str(),
                WhatItNames(named).c_str());
    return kExitOk;
  }
  std::printf("%s does NOT match %s: line %d differs\n  the file has:  %s\n  the log gives: %s\n",
              path.c_str(), WhatItNames(named).c_str(), d->line, d->theirs.c_str(),
              d->ours.c_str());
  return kExitNegative;
}

// The key the checkpoint must be signed by, DER: --pubkey (PEM, DER or a
// C2SP verifier key), else ledger.pub beside a SQLite ledger, else the key
// the database records (which proves integrity only relative to itself).
absl::StatusOr<std::string> TrustedKey(const Args& args, ledger::Store& store,
                                       ledger::LogSource& reader, std::string* source) {
  std::string pubkey = args.ValueOr("pubkey", "");
  if (pubkey.empty() && !store.shared()) {
    const std::filesystem::path dir = std::filesystem::path(store.database()).parent_path();
    const std::string beside =
        ((dir.empty() ? std::filesystem::path(".") : dir) / "ledger.pub").string();
    if (std::filesystem::exists(beside)) pubkey = beside;
  }
  if (pubkey.empty()) {
    *source = "recorded in the database itself: compare its id with the published one";
    return reader.RecordedPublicKey();
  }
  *source = "trusted, from " + pubkey;
  absl::StatusOr<std::string> text = ReadInput(pubkey);
  if (!text.ok()) return text.status();
  absl::string_view line = absl::StripTrailingAsciiWhitespace(*text);
  if (line.find('+') != absl::string_view::npos && !absl::StartsWith(line, "-----BEGIN") &&
      line.find('\n') == absl::string_view::npos) {
    absl::StatusOr<ledger::NoteVerifierKey> vkey = ledger::ParseVerifierKey(line);
    if (!vkey.ok()) return vkey.status();
    return vkey->Der();
  }
  return ledger::ReadPublicKeyFile(pubkey);
}

int VerifyOffline(const Args& args, const std::string& path, const NamedRecord& named,
                  const std::string& file) {
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(*args.Value("db"));
  if (!store.ok()) return Complain(kCommand, store.status().message(), kExitBadInput);
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> reader = (*store)->OpenReader();
  if (!reader.ok()) {
    return Complain(kCommand, reader.status().message(), ExitCodeOf(reader.status()));
  }
  std::string source;
  absl::StatusOr<std::string> key = TrustedKey(args, **store, **reader, &source);
  if (!key.ok()) {
    return Complain(kCommand, absl::StrCat("--pubkey: ", key.status().message()), kExitBadInput);
  }
  absl::StatusOr<tournament::VerifiedExport> derived = tournament::DeriveNamedExport(
      **store, **reader, *key, source, named.tournament_id, named.format, named.checkpoint);
  if (!derived.ok()) {
    return Complain(kCommand, derived.status().message(), ExitCodeOf(derived.status()));
  }
  if (!derived->why_not.empty()) return NotIt(path, derived->why_not);
  return Compare(path, named, file, derived->content);
}

// The server's derivation at the size the file names.
int VerifyRemote(const Args& args, const std::string& path, const NamedRecord& named,
                 const std::string& file) {
  v1::ExportTournamentRequest req;
  req.set_tournament(absl::StrCat("tournaments/", named.tournament_id));
  req.set_format(named.format);
  req.set_at_tree_size(named.checkpoint.tree_size());
  std::string content;
  const std::string server = ServerOf(args);
  auto stub = v1::TournamentService::NewStub(OpenChannel(server));
  const grpc::Status status = CallPages<v1::TournamentService::Stub, v1::ExportTournamentRequest,
                                        v1::ExportTournamentResponse>(
      *stub, &v1::TournamentService::Stub::ExportTournament, req, [&] { content.clear(); },
      [&](v1::ExportTournamentResponse& page) { content += page.content(); });
  if (status.error_code() == grpc::StatusCode::NOT_FOUND &&
      absl::StrContains(status.error_message(), "no signed checkpoint")) {
    return NotIt(path, absl::StrCat("on the server at ", server, ", ", status.error_message()));
  }
  if (!status.ok()) return Fail(kCommand, server, status);
  absl::StatusOr<NamedRecord> theirs = tournament::ReadNamedRecord(content);
  if (!theirs.ok()) return Complain(kCommand, theirs.status().message(), kExitUnavailable);
  if (theirs->checkpoint.origin() != named.checkpoint.origin()) {
    return NotIt(path, absl::StrCat("it names log '", named.checkpoint.origin(),
                                    "', and the "
                                    "server at ",
                                    server, " is log '", theirs->checkpoint.origin(),
                                    "': not this log's record"));
  }
  if (theirs->checkpoint.root_hash() != named.checkpoint.root_hash()) {
    return NotIt(path,
                 absl::StrCat("the server's checkpoint of size ", named.checkpoint.tree_size(),
                              " has root ", theirs->checkpoint.root_hash(), "; the file names ",
                              named.checkpoint.root_hash()));
  }
  return Compare(path, named, file, content);
}

}  // namespace

int RunExportVerify(const CommandSpec& spec, const Args& args) {
  const std::string path = *args.Value("export");
  for (const char* other :
       {"bundle", "receipt", "no-readjudicate", "strict", "witnesses", "json"}) {
    if (args.Has(other)) return UsageError(spec, absl::StrCat("--", other, " is not for --export"));
  }
  if (!args.positionals().empty()) return UsageError(spec, "--export takes no GAME");
  if (args.Has("db") && args.Has("server")) return UsageError(spec, "--db or --server, not both");
  if (args.Has("pubkey") && !args.Has("db")) return UsageError(spec, "--pubkey is for --db");
  absl::StatusOr<std::string> file = ReadInput(path);
  if (!file.ok()) {
    return Complain(kCommand, absl::StrCat("--export ", path, ": ", file.status().message()),
                    kExitBadInput);
  }
  // No export starts with a byte-order mark; an editor or a spreadsheet's
  // "CSV UTF-8" save adds one. Such a copy still names its record, and is
  // not the file the log gives: a negative answer, not bad input.
  constexpr absl::string_view kBom = "\xEF\xBB\xBF";
  if (absl::StartsWith(*file, kBom)) {
    absl::StatusOr<NamedRecord> named =
        tournament::ReadNamedRecord(absl::string_view(*file).substr(kBom.size()));
    if (named.ok()) {
      return NotIt(path, absl::StrCat("it starts with a byte-order mark (EF BB BF), which no "
                                      "export writes (an editor or a \"CSV UTF-8\" save adds "
                                      "one); it names ",
                                      WhatItNames(*named)));
    }
  }
  absl::StatusOr<NamedRecord> named = tournament::ReadNamedRecord(*file);
  if (!named.ok()) {
    return Complain(kCommand, absl::StrCat(path, ": ", named.status().message()), kExitBadInput);
  }
  return args.Has("db") ? VerifyOffline(args, path, *named, *file)
                        : VerifyRemote(args, path, *named, *file);
}

}  // namespace arbiter::cli
