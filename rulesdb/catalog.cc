#include "rulesdb/catalog.h"

#include <sqlite3.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/content_hash.h"
#include "rulesdb/validate.h"

namespace arbiter {
namespace {

constexpr char kSchema[] = R"sql(
CREATE TABLE IF NOT EXISTS rulesets (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL, version TEXT NOT NULL, hash TEXT NOT NULL,
  title_zh TEXT, title_en TEXT, source TEXT,
  content BLOB NOT NULL,  -- canonical serialization of arbiter.v1.Ruleset
  published_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (id, version));
CREATE TABLE IF NOT EXISTS articles (
  ruleset_id TEXT NOT NULL, version TEXT NOT NULL, number INTEGER NOT NULL,
  id TEXT NOT NULL, title_zh TEXT, title_en TEXT, text_zh TEXT, summary_en TEXT,
  interpretation TEXT, PRIMARY KEY (ruleset_id, version, id));
CREATE TABLE IF NOT EXISTS clauses (
  ruleset_id TEXT NOT NULL, version TEXT NOT NULL, article_id TEXT NOT NULL,
  id TEXT NOT NULL, text_zh TEXT, title_en TEXT, summary_en TEXT, interpretation TEXT,
  PRIMARY KEY (ruleset_id, version, id));
CREATE TABLE IF NOT EXISTS sanctions (
  owner_kind TEXT NOT NULL, owner_id TEXT NOT NULL, version TEXT NOT NULL,
  position INTEGER NOT NULL, incident TEXT NOT NULL, clause TEXT NOT NULL,
  occurrence INTEGER NOT NULL, venue TEXT NOT NULL, against TEXT NOT NULL,
  sanctions TEXT NOT NULL, options TEXT NOT NULL, decided_by TEXT NOT NULL,
  reason TEXT NOT NULL, note TEXT,
  PRIMARY KEY (owner_kind, owner_id, version, position));
CREATE TABLE IF NOT EXISTS supplements (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL, version TEXT NOT NULL, base_ruleset TEXT NOT NULL,
  hash TEXT NOT NULL, title TEXT,
  content BLOB NOT NULL,  -- canonical serialization of arbiter.v1.Supplement
  published_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (id, version));
)sql";

// Published rows never change: the database itself refuses it.
constexpr char kImmutable[] = R"sql(
CREATE TRIGGER IF NOT EXISTS $table_no_update BEFORE UPDATE ON $table
  BEGIN SELECT RAISE(ABORT, 'published rules are immutable'); END;
CREATE TRIGGER IF NOT EXISTS $table_no_delete BEFORE DELETE ON $table
  BEGIN SELECT RAISE(ABORT, 'published rules are immutable'); END;
)sql";

// One prepared statement; finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  absl::Status status() const {
    return rc_ == SQLITE_OK ? absl::OkStatus()
                            : absl::InternalError(absl::StrCat("sqlite: ", sqlite3_errmsg(db_)));
  }
  Statement& Bind(const std::string& text) {
    sqlite3_bind_text(stmt_, ++index_, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
    return *this;
  }
  Statement& BindBlob(const std::string& bytes) {
    sqlite3_bind_blob(stmt_, ++index_, bytes.data(), static_cast<int>(bytes.size()),
                      SQLITE_TRANSIENT);
    return *this;
  }
  Statement& Bind(int64_t value) {
    sqlite3_bind_int64(stmt_, ++index_, value);
    return *this;
  }
  // True while rows come; false at the end; an error status otherwise.
  absl::StatusOr<bool> Step() {
    if (rc_ != SQLITE_OK) return status();
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return absl::InternalError(absl::StrCat("sqlite: ", sqlite3_errmsg(db_)));
  }
  absl::Status Run() {
    absl::StatusOr<bool> row = Step();
    return row.ok() ? absl::OkStatus() : row.status();
  }
  std::string Column(int i) const {
    const void* data = sqlite3_column_blob(stmt_, i);
    const int size = sqlite3_column_bytes(stmt_, i);
    return data == nullptr ? std::string() : std::string(static_cast<const char*>(data), size);
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int rc_;
  int index_ = 0;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back unless Commit() succeeds, so a
// failed publication leaves nothing half-written.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) {
    began_ = sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
  }
  ~Transaction() {
    if (began_ && !committed_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  absl::Status status() const {
    return began_ ? absl::OkStatus()
                  : absl::UnavailableError(absl::StrCat("sqlite: ", sqlite3_errmsg(db_)));
  }
  absl::Status Commit() {
    if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
      return absl::InternalError(absl::StrCat("sqlite: ", sqlite3_errmsg(db_)));
    }
    committed_ = true;
    return absl::OkStatus();
  }

 private:
  sqlite3* db_;
  bool began_ = false;
  bool committed_ = false;
};

std::string SanctionNames(const google::protobuf::RepeatedField<int>& sanctions) {
  return OptionId(sanctions);
}

std::string OptionIds(const v1::Sanctioning& s) {
  std::vector<std::string> ids;
  for (const v1::RulingOption& o : s.options()) ids.push_back(o.id());
  return absl::StrJoin(ids, " | ");
}

absl::Status InsertSanctionings(sqlite3* db, const std::string& kind, const std::string& id,
                                const std::string& version,
                                const google::protobuf::RepeatedPtrField<v1::Sanctioning>& list) {
  int64_t position = 0;
  for (const v1::Sanctioning& s : list) {
    Statement insert(db,
                     "INSERT INTO sanctions (owner_kind, owner_id, version, position, incident,"
                     " clause, occurrence, venue, against, sanctions, options, decided_by,"
                     " reason, note) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    insert.Bind(kind).Bind(id).Bind(version).Bind(position++)
        .Bind(v1::Incident_Name(s.incident())).Bind(s.clause())
        .Bind(static_cast<int64_t>(s.occurrence()))
        .Bind(v1::GameCreated::Venue_Name(s.venue())).Bind(v1::Target_Name(s.against()))
        .Bind(SanctionNames(s.sanctions())).Bind(OptionIds(s))
        .Bind(v1::Authority_Name(s.decided_by())).Bind(v1::Result::Reason_Name(s.reason()))
        .Bind(s.note());
    if (absl::Status st = insert.Run(); !st.ok()) return st;
  }
  return absl::OkStatus();
}

// The hash already published for (id, version) in `table`, or "" if none.
absl::StatusOr<std::string> PublishedHash(sqlite3* db, const char* table, const std::string& id,
                                          const std::string& version) {
  Statement select(db, absl::StrCat("SELECT hash FROM ", table,
                                    " WHERE id = ? AND version = ?").c_str());
  select.Bind(id).Bind(version);
  absl::StatusOr<bool> row = select.Step();
  if (!row.ok()) return row.status();
  return *row ? select.Column(0) : std::string();
}

absl::Status Immutable(const std::string& kind, const std::string& id, const std::string& version,
                       const std::string& published, const std::string& offered) {
  return absl::AlreadyExistsError(absl::StrCat(
      kind, " ", id, " version ", version, " is published with hash ", published,
      "; this content hashes to ", offered,
      ". Published versions are immutable: give the change a new version id."));
}

}  // namespace

RuleCatalog::RuleCatalog(sqlite3* db) : db_(db) {}

RuleCatalog::~RuleCatalog() { sqlite3_close(db_); }

absl::StatusOr<std::unique_ptr<RuleCatalog>> RuleCatalog::Open(const std::string& path) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::unique_ptr<RuleCatalog> catalog(new RuleCatalog(db));
  if (rc != SQLITE_OK) {
    return absl::UnavailableError(absl::StrCat("cannot open rules catalog ", path, ": ",
                                               db ? sqlite3_errmsg(db) : "out of memory"));
  }
  sqlite3_busy_timeout(db, 5000);
  if (absl::Status st = catalog->Exec(kSchema); !st.ok()) return st;
  for (const char* table : {"rulesets", "articles", "clauses", "sanctions", "supplements"}) {
    const std::string sql = absl::StrReplaceAll(kImmutable, {{"$table", table}});
    if (absl::Status st = catalog->Exec(sql.c_str()); !st.ok()) return st;
  }
  return catalog;
}

absl::Status RuleCatalog::Exec(const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    absl::Status st = absl::InternalError(absl::StrCat("sqlite: ", error ? error : "error"));
    sqlite3_free(error);
    return st;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> RuleCatalog::PublishRuleset(const v1::Ruleset& ruleset) {
  if (absl::Status st = ValidateRuleset(ruleset); !st.ok()) return st;
  absl::StatusOr<std::string> bytes = CanonicalBytes(ruleset);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<std::string> hash = Sha256Hex(*bytes);
  if (!hash.ok()) return hash.status();
  Transaction tx(db_);
  if (!tx.status().ok()) return tx.status();
  absl::StatusOr<std::string> published =
      PublishedHash(db_, "rulesets", ruleset.id(), ruleset.version());
  if (!published.ok()) return published.status();
  if (*published == *hash) return *hash;  // the same content: nothing to do
  if (!published->empty()) {
    return Immutable("ruleset", ruleset.id(), ruleset.version(), *published, *hash);
  }
  Statement insert(db_,
                   "INSERT INTO rulesets (id, version, hash, title_zh, title_en, source, content)"
                   " VALUES (?,?,?,?,?,?,?)");
  insert.Bind(ruleset.id()).Bind(ruleset.version()).Bind(*hash).Bind(ruleset.title_zh())
      .Bind(ruleset.title_en()).Bind(ruleset.source()).BindBlob(*bytes);
  if (absl::Status st = insert.Run(); !st.ok()) return st;
  for (const v1::Article& a : ruleset.articles()) {
    Statement article(db_,
                      "INSERT INTO articles (ruleset_id, version, number, id, title_zh, title_en,"
                      " text_zh, summary_en, interpretation) VALUES (?,?,?,?,?,?,?,?,?)");
    article.Bind(ruleset.id()).Bind(ruleset.version()).Bind(static_cast<int64_t>(a.number()))
        .Bind(a.id()).Bind(a.title_zh()).Bind(a.title_en()).Bind(a.text_zh())
        .Bind(a.summary_en()).Bind(a.interpretation());
    if (absl::Status st = article.Run(); !st.ok()) return st;
    for (const v1::Clause& c : a.clauses()) {
      Statement clause(db_,
                       "INSERT INTO clauses (ruleset_id, version, article_id, id, text_zh,"
                       " title_en, summary_en, interpretation) VALUES (?,?,?,?,?,?,?,?)");
      clause.Bind(ruleset.id()).Bind(ruleset.version()).Bind(a.id()).Bind(c.id())
          .Bind(c.text_zh()).Bind(c.title_en()).Bind(c.summary_en()).Bind(c.interpretation());
      if (absl::Status st = clause.Run(); !st.ok()) return st;
    }
  }
  if (absl::Status st = InsertSanctionings(db_, "ruleset", ruleset.id(), ruleset.version(),
                                           ruleset.sanctionings());
      !st.ok()) {
    return st;
  }
  if (absl::Status st = tx.Commit(); !st.ok()) return st;
  return *hash;
}

absl::StatusOr<std::string> RuleCatalog::PublishSupplement(const v1::Supplement& supplement) {
  absl::StatusOr<v1::Ruleset> base = LoadRuleset(supplement.base_ruleset());
  if (!base.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "supplement ", supplement.id(), ": publish its base ruleset \"",
        supplement.base_ruleset(), "\" first (", base.status().message(), ")"));
  }
  if (absl::Status st = ValidateSupplement(supplement, *base); !st.ok()) return st;
  absl::StatusOr<std::string> bytes = CanonicalBytes(supplement);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<std::string> hash = Sha256Hex(*bytes);
  if (!hash.ok()) return hash.status();
  Transaction tx(db_);
  if (!tx.status().ok()) return tx.status();
  absl::StatusOr<std::string> published =
      PublishedHash(db_, "supplements", supplement.id(), supplement.version());
  if (!published.ok()) return published.status();
  if (*published == *hash) return *hash;
  if (!published->empty()) {
    return Immutable("supplement", supplement.id(), supplement.version(), *published, *hash);
  }
  Statement insert(db_,
                   "INSERT INTO supplements (id, version, base_ruleset, hash, title, content)"
                   " VALUES (?,?,?,?,?,?)");
  insert.Bind(supplement.id()).Bind(supplement.version()).Bind(supplement.base_ruleset())
      .Bind(*hash).Bind(supplement.title()).BindBlob(*bytes);
  if (absl::Status st = insert.Run(); !st.ok()) return st;
  if (absl::Status st = InsertSanctionings(db_, "supplement", supplement.id(),
                                           supplement.version(), supplement.sanctionings());
      !st.ok()) {
    return st;
  }
  if (absl::Status st = tx.Commit(); !st.ok()) return st;
  return *hash;
}

absl::Status RuleCatalog::PublishBuiltins() {
  absl::StatusOr<const RulesData*> data = BuiltinRulesData();
  if (!data.ok()) return data.status();
  for (const v1::Ruleset& r : (*data)->rulesets) {
    if (absl::StatusOr<std::string> h = PublishRuleset(r); !h.ok()) return h.status();
  }
  for (const v1::Supplement& s : (*data)->supplements) {
    if (absl::StatusOr<std::string> h = PublishSupplement(s); !h.ok()) return h.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> RuleCatalog::LoadContent(const char* table, std::string_view id,
                                                     std::string_view version,
                                                     std::string* hash) {
  const std::string id_s(id), version_s(version);
  Statement select(
      db_, absl::StrCat("SELECT content, hash FROM ", table, " WHERE id = ?",
                        version.empty() ? " ORDER BY seq DESC LIMIT 1" : " AND version = ?")
               .c_str());
  select.Bind(id_s);
  if (!version.empty()) select.Bind(version_s);
  absl::StatusOr<bool> row = select.Step();
  if (!row.ok()) return row.status();
  if (!*row) {
    return absl::NotFoundError(absl::StrCat("no published ", table, " entry \"", id_s, "\"",
                                            version.empty() ? "" : " version " + version_s));
  }
  std::string content = select.Column(0);
  *hash = select.Column(1);
  absl::StatusOr<std::string> actual = Sha256Hex(content);
  if (!actual.ok()) return actual.status();
  if (*actual != *hash) {
    return absl::DataLossError(absl::StrCat(table, " ", id_s, ": stored content hashes to ",
                                            *actual, ", not its published ", *hash));
  }
  return content;
}

absl::StatusOr<v1::Ruleset> RuleCatalog::LoadRuleset(std::string_view id,
                                                     std::string_view version) {
  std::string hash;
  absl::StatusOr<std::string> content = LoadContent("rulesets", id, version, &hash);
  if (!content.ok()) return content.status();
  v1::Ruleset ruleset;
  if (!ruleset.ParseFromString(*content)) {
    return absl::DataLossError(absl::StrCat("ruleset ", std::string(id), ": unreadable content"));
  }
  return ruleset;
}

absl::StatusOr<v1::Supplement> RuleCatalog::LoadSupplement(std::string_view id,
                                                           std::string_view version) {
  std::string hash;
  absl::StatusOr<std::string> content = LoadContent("supplements", id, version, &hash);
  if (!content.ok()) return content.status();
  v1::Supplement supplement;
  if (!supplement.ParseFromString(*content)) {
    return absl::DataLossError(
        absl::StrCat("supplement ", std::string(id), ": unreadable content"));
  }
  return supplement;
}

absl::StatusOr<v1::Ruleset> RuleCatalog::LoadRulesetByHash(std::string_view hash) {
  const std::string wanted(hash);
  Statement select(db_, "SELECT id, version FROM rulesets WHERE hash = ? ORDER BY seq LIMIT 1");
  select.Bind(wanted);
  absl::StatusOr<bool> row = select.Step();
  if (!row.ok()) return row.status();
  if (!*row) return absl::NotFoundError("no published ruleset has hash " + wanted);
  return LoadRuleset(select.Column(0), select.Column(1));
}

absl::StatusOr<std::string> RuleCatalog::RulesetHash(std::string_view id,
                                                     std::string_view version) {
  std::string hash;
  absl::StatusOr<std::string> content = LoadContent("rulesets", id, version, &hash);
  if (!content.ok()) return content.status();
  return hash;
}

absl::StatusOr<std::vector<RuleCatalog::Entry>> RuleCatalog::List() {
  std::vector<Entry> entries;
  Statement select(db_,
                   "SELECT 'ruleset', id, version, hash, '', published_at FROM rulesets"
                   " UNION ALL SELECT 'supplement', id, version, hash, base_ruleset,"
                   " published_at FROM supplements ORDER BY 6, 1, 2");
  for (;;) {
    absl::StatusOr<bool> row = select.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    entries.push_back({select.Column(0), select.Column(1), select.Column(2), select.Column(3),
                       select.Column(4)});
  }
  return entries;
}

}  // namespace arbiter
