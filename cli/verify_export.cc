#include "cli/verify_export.h"

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/service/tournament_at.h"
#include "adjudicator/tournament/export_checkpoint.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/formats.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "cli/client.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "google/protobuf/util/json_util.h"
#include "ledger/note_key.h"
#include "ledger/signer.h"
#include "ledger/store.h"

namespace arbiter::cli {
namespace {

using tournament::NamedRecord;

constexpr char kCommand[] = "verify";
// The UTF-8 byte-order mark, which only the CSV for a spreadsheet writes.
constexpr absl::string_view kBom = "\xEF\xBB\xBF";

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

// The file against what the log gives at the size it names, line by line;
// `how`, if any, says which variant of the export matched.
int Compare(const std::string& path, const NamedRecord& named, absl::string_view file,
            absl::string_view derived, absl::string_view how = "") {
  std::optional<tournament::LineDifference> d = tournament::FirstDifference(derived, file);
  if (!d.has_value()) {
    std::printf("%s matches: it is %s, as the log gives it there%s\n", path.c_str(),
                WhatItNames(named).c_str(), std::string(how).c_str());
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

// One derivation of the export the file names: its text, or a failure
// reported only if this derivation is the one the answer rests on.
struct Derived {
  std::string content;
  std::function<int()> fail;  // set: it failed; reports why, returns the exit code
};
using Derive = std::function<Derived(const tournament::ExportOptions&)>;

// The JSON export before it listed the byes (ScoredBye): `derived` printed
// without them, when the file has none and `derived` has some; nullopt
// otherwise.
std::optional<std::string> JsonBeforeByes(absl::string_view file, absl::string_view derived) {
  google::protobuf::util::JsonParseOptions lenient;
  lenient.ignore_unknown_fields = true;
  v1::StandingsReport theirs, ours;
  if (!google::protobuf::util::JsonStringToMessage(std::string(file), &theirs, lenient).ok() ||
      !google::protobuf::util::JsonStringToMessage(std::string(derived), &ours).ok() ||
      theirs.byes_size() != 0 || ours.byes_size() == 0) {
    return std::nullopt;
  }
  ours.clear_byes();
  absl::StatusOr<std::string> before = tournament::ReportJson(ours);
  if (!before.ok()) return std::nullopt;
  return *before;
}

// What `given` gave the export, for the answer: ", with the title "..."
// given at export (...)".
std::string GivenAtExport(const tournament::GivenWords& given) {
  std::vector<std::string> words;
  if (!given.title.empty()) words.push_back(absl::StrCat("the title \"", given.title, "\""));
  if (!given.place.empty()) words.push_back(absl::StrCat("the place \"", given.place, "\""));
  return absl::StrCat(", with ", absl::StrJoin(words, " and "),
                      " given at export (tournament export ",
                      given.title.empty()   ? "--place"
                      : given.place.empty() ? "--title"
                                            : "--title, --place",
                      ": the exporter's word; the log holds the tournament's own)");
}

// The file against the export the log gives, in the variant the file is:
// the spreadsheet CSV (`options`), an .h9 or AGA file with the title or
// place given at export (taken from the file: the exporter's word, which the
// log does not hold; only where the tournament's own cannot be written, so
// an ASCII title's or location's line is still checked against the log), a
// JSON export of before the byes were listed.
int CheckAgainstLog(const std::string& path, const NamedRecord& named, const std::string& file,
                    const tournament::ExportOptions& options, const Derive& derive) {
  const Derived plain = derive(options);
  if (!plain.fail && !tournament::FirstDifference(plain.content, file).has_value()) {
    return Compare(path, named, file, plain.content,
                   options.for_spreadsheet ? " (the CSV for a spreadsheet)" : "");
  }
  if (plain.fail) {
    // Each reading of the file's words the exporter could have given; the
    // first the log's export takes and the file is, else the first it takes.
    std::optional<std::pair<Derived, tournament::GivenWords>> first;
    for (const tournament::GivenWords& given : tournament::WordsWrittenIn(named.format, file)) {
      if ((!given.title.empty() && !tournament::CheckExportTitle(named.format, given.title).ok()) ||
          (!given.place.empty() && !tournament::CheckExportPlace(named.format, given.place).ok())) {
        continue;
      }
      tournament::ExportOptions with = options;
      with.title = given.title;
      with.place = given.place;
      Derived derived = derive(with);
      if (derived.fail) continue;
      if (!tournament::FirstDifference(derived.content, file).has_value()) {
        return Compare(path, named, file, derived.content, GivenAtExport(given));
      }
      if (!first.has_value()) first.emplace(std::move(derived), given);
    }
    if (first.has_value()) {
      return Compare(path, named, file, first->first.content, GivenAtExport(first->second));
    }
    return plain.fail();
  }
  if (named.format == v1::ExportTournamentRequest::JSON) {
    if (std::optional<std::string> before = JsonBeforeByes(file, plain.content);
        before.has_value() && !tournament::FirstDifference(*before, file).has_value()) {
      return Compare(path, named, file, *before,
                     " as the JSON export wrote it before it listed the byes (the file has no "
                     "\"byes\"; the log's byes are in this release's export)");
    }
  }
  return Compare(path, named, file, plain.content);
}

int VerifyOffline(const Args& args, const std::string& path, const NamedRecord& named,
                  const std::string& file, const tournament::ExportOptions& options) {
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
  // The log checked once: each reading of the file's words is derived from
  // it without hashing its leaves again.
  absl::StatusOr<tournament::NamedLog> log =
      tournament::CheckNamedLog(**store, **reader, *key, source, named.checkpoint);
  if (!log.ok()) return Complain(kCommand, log.status().message(), ExitCodeOf(log.status()));
  if (!log->why_not.empty()) return NotIt(path, log->why_not);
  return CheckAgainstLog(
      path, named, file, options, [&](const tournament::ExportOptions& o) -> Derived {
        absl::StatusOr<tournament::VerifiedExport> derived =
            tournament::DeriveNamedExport(*log, **reader, named.tournament_id, named.format, o);
        if (!derived.ok()) {
          return {"", [s = derived.status()] {
                    return Complain(kCommand, s.message(), ExitCodeOf(s));
                  }};
        }
        if (!derived->why_not.empty()) {
          return {"", [&path, why = derived->why_not] { return NotIt(path, why); }};
        }
        return {std::move(derived->content), nullptr};
      });
}

// The server's derivation at the size the file names.
int VerifyRemote(const Args& args, const std::string& path, const NamedRecord& named,
                 const std::string& file, const tournament::ExportOptions& options) {
  const std::string server = ServerOf(args);
  auto stub = v1::TournamentService::NewStub(OpenChannel(server));
  return CheckAgainstLog(
      path, named, file, options, [&](const tournament::ExportOptions& o) -> Derived {
        v1::ExportTournamentRequest req;
        req.set_tournament(absl::StrCat("tournaments/", named.tournament_id));
        req.set_format(named.format);
        req.set_at_tree_size(named.checkpoint.tree_size());
        req.set_title(o.title);
        req.set_place(o.place);
        req.set_for_spreadsheet(o.for_spreadsheet);
        std::string content;
        const grpc::Status status =
            CallPages<v1::TournamentService::Stub, v1::ExportTournamentRequest,
                      v1::ExportTournamentResponse>(
                *stub, &v1::TournamentService::Stub::ExportTournament, req,
                [&] { content.clear(); },
                [&](v1::ExportTournamentResponse& page) { content += page.content(); });
        if (status.error_code() == grpc::StatusCode::NOT_FOUND &&
            absl::StrContains(status.error_message(), "no signed checkpoint")) {
          return {"",
                  [&path, why = absl::StrCat("on the server at ", server, ", ",
                                             status.error_message())] { return NotIt(path, why); }};
        }
        if (!status.ok()) return {"", [&server, status] { return Fail(kCommand, server, status); }};
        // The server's file names the record it was derived from: the same
        // log and root as the file, or the server is not this log.
        const absl::string_view bare = absl::StartsWith(content, kBom)
                                           ? absl::string_view(content).substr(kBom.size())
                                           : absl::string_view(content);
        absl::StatusOr<NamedRecord> theirs = tournament::ReadNamedRecord(bare);
        if (!theirs.ok()) {
          return {"", [s = theirs.status()] {
                    return Complain(kCommand, s.message(), kExitUnavailable);
                  }};
        }
        if (theirs->checkpoint.origin() != named.checkpoint.origin()) {
          return {"",
                  [&path, why = absl::StrCat(
                              "it names log '", named.checkpoint.origin(), "', and the server at ",
                              server, " is log '", theirs->checkpoint.origin(),
                              "': not this log's record")] { return NotIt(path, why); }};
        }
        if (theirs->checkpoint.root_hash() != named.checkpoint.root_hash()) {
          return {"", [&path, why = absl::StrCat(
                                  "the server's checkpoint of size ", named.checkpoint.tree_size(),
                                  " has root ", theirs->checkpoint.root_hash(), "; the file names ",
                                  named.checkpoint.root_hash())] { return NotIt(path, why); }};
        }
        return {std::move(content), nullptr};
      });
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
  // Only the CSV for a spreadsheet (tournament export --for-spreadsheet)
  // starts with a byte-order mark; an editor or a spreadsheet's "CSV UTF-8"
  // save adds one to the others. Such a copy still names its record, and is
  // not the file the log gives: a negative answer, not bad input.
  tournament::ExportOptions options;
  if (absl::StartsWith(*file, kBom)) {
    absl::StatusOr<NamedRecord> named =
        tournament::ReadNamedRecord(absl::string_view(*file).substr(kBom.size()));
    if (named.ok() && named->format != v1::ExportTournamentRequest::CSV) {
      return NotIt(path, absl::StrCat("it starts with a byte-order mark (EF BB BF), which no "
                                      "export but the CSV for a spreadsheet writes (an editor "
                                      "or a \"CSV UTF-8\" save adds one); it names ",
                                      WhatItNames(*named)));
    }
    if (named.ok()) {
      options.for_spreadsheet = true;
      return args.Has("db") ? VerifyOffline(args, path, *named, *file, options)
                            : VerifyRemote(args, path, *named, *file, options);
    }
  }
  absl::StatusOr<NamedRecord> named = tournament::ReadNamedRecord(*file);
  if (!named.ok()) {
    return Complain(kCommand, absl::StrCat(path, ": ", named.status().message()), kExitBadInput);
  }
  return args.Has("db") ? VerifyOffline(args, path, *named, *file, options)
                        : VerifyRemote(args, path, *named, *file, options);
}

}  // namespace arbiter::cli
