#include "adjudicator/service/state_merge.h"

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/tournament_migration.h"

namespace arbiter::tournament {
namespace {

// What the folders hold, each id with the folder it came from.
struct FolderContents {
  std::vector<LegacyTournaments> tournaments;  // one per folder, empty when none
  std::vector<ledger::TokenRow> tokens;
  std::map<std::string, std::string> tournament_folder;  // id -> folder
  std::map<std::string, std::string> token_folder;       // id -> folder
};

absl::Status Clash(const char* what, const std::string& id, const std::string& a,
                   const std::string& b) {
  return absl::FailedPreconditionError(
      absl::StrCat(what, " '", id, "' is in both ", a, " and ", b,
                   ": one id, two records; rename one of them (nothing was merged)"));
}

// A tournaments.db still to move: present and writable (a moved one is
// read-only).
bool ToMove(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && (st.st_mode & S_IWUSR) != 0;
}

// Reads one folder into `contents`, refusing an id another folder holds.
absl::Status ReadFolder(const std::string& folder, FolderContents& contents) {
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) {  // a typo merges nothing, silently
    return absl::NotFoundError(absl::StrCat(folder, ": no such folder"));
  }
  LegacyTournaments& legacy = contents.tournaments.emplace_back();
  const std::string path = (std::filesystem::path(folder) / kLegacyTournamentsFile).string();
  if (ToMove(path)) {
    absl::StatusOr<LegacyTournaments> read = ReadLegacyTournaments(path);
    if (!read.ok()) return read.status();
    legacy = *std::move(read);
  }
  for (const auto& [id, events] : legacy.streams) {
    auto [it, fresh] = contents.tournament_folder.emplace(id, folder);
    if (!fresh) return Clash("tournament", id, it->second, folder);
  }
  absl::StatusOr<std::vector<ledger::TokenRow>> tokens = service::ReadLegacyTokens(folder);
  if (!tokens.ok()) return tokens.status();
  for (ledger::TokenRow& t : *tokens) {
    auto [it, fresh] = contents.token_folder.emplace(t.id, folder);
    if (!fresh) return Clash("token", t.id, it->second, folder);
    contents.tokens.push_back(std::move(t));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<MergeTally> MergeStateFolders(ledger::Ledger& ledger, ledger::ServerTables& tables,
                                             const std::vector<std::string>& folders) {
  FolderContents contents;
  for (const std::string& folder : folders) {
    if (absl::Status s = ReadFolder(folder, contents); !s.ok()) return s;
  }
  // Every refusal before the first write: the store's own tournaments...
  for (size_t i = 0; i < folders.size(); ++i) {
    if (absl::Status s = CheckLegacyTournaments(ledger, contents.tournaments[i]); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat(folders[i], ": ", s.message()));
    }
  }
  // ...and its tokens, refused all at once in their one transaction.
  if (!contents.tokens.empty()) {
    absl::StatusOr<int> added = tables.ImportTokens(contents.tokens);
    if (!added.ok()) {
      return absl::Status(
          added.status().code(),
          absl::StrCat("the folders' tokens: ", added.status().message(), " (nothing was merged)"));
    }
  }
  for (const std::string& folder : folders) {
    if (absl::Status s = MigrateLegacyTournaments(ledger, folder); !s.ok()) return s;
    if (absl::Status s = service::MarkLegacyTokensImported(folder); !s.ok()) return s;
  }
  return MergeTally{contents.tournament_folder.size(), contents.tokens.size()};
}

}  // namespace arbiter::tournament
