#include "tests/layering/include_rules.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::layering {
namespace {

namespace fs = std::filesystem;

// What an include names, by the path or header it is.
bool Grpc(const std::string& inc) {
  return absl::StartsWith(inc, "grpcpp/") || absl::StartsWith(inc, "grpc++/") ||
         absl::StartsWith(inc, "grpc/") || absl::EndsWith(inc, ".grpc.pb.h");
}
bool Sqlite(const std::string& inc) { return inc == "sqlite3.h" || inc == "sqlite3ext.h"; }
bool Postgres(const std::string& inc) { return inc == "libpq-fe.h" || inc == "libpq-events.h"; }
bool Under(const std::string& inc, const char* folder) { return absl::StartsWith(inc, folder); }
bool Cli(const std::string& inc) { return Under(inc, "cli/"); }
bool Tests(const std::string& inc) { return Under(inc, "tests/"); }
bool Adjudicator(const std::string& inc) { return Under(inc, "adjudicator/"); }
bool Engine(const std::string& inc) { return Under(inc, "adjudicator/engine/"); }
bool Service(const std::string& inc) { return Under(inc, "adjudicator/service/"); }
bool Judge(const std::string& inc) { return Under(inc, "adjudicator/judge/"); }
bool Tournament(const std::string& inc) { return Under(inc, "adjudicator/tournament/"); }
bool Ledger(const std::string& inc) { return Under(inc, "ledger/"); }
bool Rulesdb(const std::string& inc) { return Under(inc, "rulesdb/"); }

// The ledger's public face is the headers at the top of ledger/ (open,
// append, read, audit, export, sync, keys, the proof and note formats, the
// commit feed); what only the ledger itself needs lives in ledger/internal/,
// and each backend's own in ledger/sqlite/ and ledger/postgres/. The folders
// above the ledger reach those only through the public headers, so the
// ledger's internals can change without touching them.
bool LedgerInternal(const std::string& inc) { return Under(inc, "ledger/internal/"); }
bool LedgerBackend(const std::string& inc) {
  return Under(inc, "ledger/sqlite/") || Under(inc, "ledger/postgres/");
}
bool NotLedgerPublic(const std::string& inc) { return LedgerInternal(inc) || LedgerBackend(inc); }

bool AboveProto(const std::string& i) {
  return Rulesdb(i) || Adjudicator(i) || Ledger(i) || Cli(i) || Tests(i);
}
bool AdjudicatorOrCli(const std::string& i) { return Adjudicator(i) || Cli(i); }
bool NotPure(const std::string& i) { return Grpc(i) || Sqlite(i) || Postgres(i) || Ledger(i); }
bool AboveEngine(const std::string& i) { return Judge(i) || Service(i) || Tournament(i) || Cli(i); }
bool NotTournament(const std::string& i) {
  return Engine(i) || Judge(i) || Service(i) || Ledger(i) || Grpc(i) || Sqlite(i) || Postgres(i) ||
         Cli(i);
}
// The judge adapter sits on the engine and the ledger's Judge interface only:
// the ledger's storage stays out of it, so `arbiter verify` re-adjudicates
// with exactly what the service judges with and nothing more.
bool NotJudge(const std::string& i) {
  return Service(i) || Tournament(i) || Cli(i) || Grpc(i) || Sqlite(i) || Postgres(i) ||
         (Ledger(i) && i != "ledger/judge.h");
}

// Each backend's folder (ledger/README.md, "Backends") stands on the
// backend-independent ledger and its own client alone: what both need
// (the schema version, the audit's snapshot interface) lives in ledger/.
bool SqliteSide(const std::string& i) {
  return Sqlite(i) || Under(i, "ledger/sqlite/") || i == "ledger/sqlite.h";
}
bool PostgresSide(const std::string& i) { return Postgres(i) || Under(i, "ledger/postgres/"); }

struct Rule {
  const char* folder;  // the files it applies to
  bool (*forbidden)(const std::string& include);
  const char* says;
  const char* except = nullptr;  // a subfolder of `folder` it does not apply to
};

const Rule kRules[] = {
    {"proto/", AboveProto, "proto/ is the bottom layer: it includes nothing of the project"},
    {"rulesdb/", AdjudicatorOrCli, "rulesdb/ includes nothing from adjudicator/ or cli/"},
    {"rulesdb/", Ledger, "rulesdb/ (the rules as data) includes nothing from ledger/ (storage)"},
    {"ledger/", AdjudicatorOrCli, "ledger/ includes nothing from adjudicator/ or cli/"},
    {"ledger/postgres/", SqliteSide,
     "ledger/postgres/ includes nothing of SQLite: not ledger/sqlite/, ledger/sqlite.h or "
     "sqlite3.h"},
    {"ledger/sqlite/", PostgresSide,
     "ledger/sqlite/ includes nothing of PostgreSQL: not ledger/postgres/ or libpq"},
    {"adjudicator/engine/", NotPure,
     "the engine is pure: no gRPC, SQLite, PostgreSQL or ledger/ header"},
    {"adjudicator/engine/", AboveEngine,
     "the engine includes nothing from adjudicator/judge, adjudicator/service, "
     "adjudicator/tournament or cli/"},
    {"adjudicator/tournament/", NotTournament,
     "tournament scoring is pure: no engine, judge, service, ledger, cli, gRPC, SQLite or "
     "PostgreSQL header"},
    {"adjudicator/judge/", NotJudge,
     "the judge adapter includes the engine, rulesdb/ and ledger/judge.h only: no service, "
     "tournament, cli, other ledger/, gRPC, SQLite or PostgreSQL header"},
    {"adjudicator/service/", Cli, "the service layer includes nothing from cli/ (cli is on top)"},
    {"adjudicator/", NotLedgerPublic,
     "adjudicator/ includes no ledger internals (ledger/internal/, ledger/sqlite/, "
     "ledger/postgres/), only the public headers at the top of ledger/"},
    {"cli/", NotLedgerPublic,
     "cli/ includes no ledger internals (ledger/internal/, ledger/sqlite/, ledger/postgres/), "
     "only the public headers at the top of ledger/"},
    // The ledger's own tests are white-box (the batch loop, the audit's
    // snapshot, the schema version, tampering behind the writer); every
    // other test drives the ledger as the service does. Tests may still
    // read a backend's rows directly (its log reader, libpq for a cluster).
    {"tests/", LedgerInternal,
     "tests outside tests/ledger/ include nothing of ledger/internal/, only the ledger's public "
     "headers",
     "tests/ledger/"},
};

// Production code never includes test code.
const char* const kProductionFolders[] = {"proto/", "rulesdb/", "ledger/", "adjudicator/", "cli/"};
constexpr char kNoTests[] = "only tests/ includes tests/";
// The folders read: the production code and the tests, but not the tree of
// deliberate violations the rules' own test reads.
const char* const kFolders[] = {"proto/", "rulesdb/", "ledger/", "adjudicator/", "cli/", "tests/"};
constexpr char kViolationsTree[] = "tests/layering/testdata/";

bool Production(const std::string& file) {
  for (const char* folder : kProductionFolders) {
    if (absl::StartsWith(file, folder)) return true;
  }
  return false;
}

bool Applies(const Rule& rule, const std::string& file) {
  return absl::StartsWith(file, rule.folder) &&
         (rule.except == nullptr || !absl::StartsWith(file, rule.except));
}

const std::regex& IncludeLine() {
  static const std::regex re(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  return re;
}

bool CppFile(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".h" || ext == ".cc" || ext == ".hpp" || ext == ".cpp" || ext == ".inc";
}

}  // namespace

std::vector<Violation> CheckIncludes(const std::string& root) {
  std::vector<Violation> out;
  for (const char* folder : kFolders) {
    const fs::path dir = fs::path(root) / folder;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file() || !CppFile(entry.path())) continue;
      const std::string file = fs::relative(entry.path(), root).generic_string();
      if (absl::StartsWith(file, kViolationsTree)) continue;
      std::ifstream in(entry.path());
      std::string text;
      int line = 0;
      while (std::getline(in, text)) {
        ++line;
        std::smatch m;
        if (!std::regex_search(text, m, IncludeLine())) continue;
        const std::string inc = m[1].str();
        if (Production(file) && Tests(inc)) out.push_back({file, line, inc, kNoTests});
        for (const Rule& rule : kRules) {
          if (Applies(rule, file) && rule.forbidden(inc)) {
            out.push_back({file, line, inc, rule.says});
          }
        }
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Violation& a, const Violation& b) {
    return std::tie(a.file, a.line, a.rule) < std::tie(b.file, b.line, b.rule);
  });
  return out;
}

std::string Describe(const Violation& v) {
  return absl::StrCat(v.file, ":", v.line, ": includes \"", v.include, "\": ", v.rule);
}

}  // namespace arbiter::layering
