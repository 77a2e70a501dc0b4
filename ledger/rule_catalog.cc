#include "ledger/rule_catalog.h"

#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"
#include "rulesdb/builtin_rules.h"
#include "rulesdb/validate.h"

namespace arbiter::ledger {
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

std::string SanctionNames(const google::protobuf::RepeatedField<int>& sanctions) {
  return OptionId(sanctions);
}

std::string OptionIds(const v1::Sanctioning& s) {
  std::vector<std::string> ids;
  for (const v1::RulingOption& o : s.options()) ids.push_back(o.id());
  return absl::StrJoin(ids, " | ");
}

absl::Status InsertSanctionings(Db& db, const std::string& kind, const std::string& id,
                                const std::string& version,
                                const google::protobuf::RepeatedPtrField<v1::Sanctioning>& list) {
  absl::StatusOr<Stmt> insert = Stmt::Prepare(
      db,
      "INSERT INTO sanctions (owner_kind, owner_id, version, position, incident, clause,"
      " occurrence, venue, against, sanctions, options, decided_by, reason, note)"
      " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!insert.ok()) return insert.status();
  int64_t position = 0;
  for (const v1::Sanctioning& s : list) {
    insert->Bind(1, kind)
        .Bind(2, id)
        .Bind(3, version)
        .Bind(4, position++)
        .Bind(5, v1::Incident_Name(s.incident()))
        .Bind(6, s.clause())
        .Bind(7, static_cast<int64_t>(s.occurrence()))
        .Bind(8, v1::GameCreated::Venue_Name(s.venue()))
        .Bind(9, v1::Target_Name(s.against()))
        .Bind(10, SanctionNames(s.sanctions()))
        .Bind(11, OptionIds(s))
        .Bind(12, v1::Authority_Name(s.decided_by()))
        .Bind(13, v1::Result::Reason_Name(s.reason()))
        .Bind(14, s.note());
    if (absl::Status st = insert->Run(); !st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::Status InsertArticles(Db& db, const v1::Ruleset& ruleset) {
  absl::StatusOr<Stmt> article = Stmt::Prepare(
      db,
      "INSERT INTO articles (ruleset_id, version, number, id, title_zh, title_en, text_zh,"
      " summary_en, interpretation) VALUES (?,?,?,?,?,?,?,?,?)");
  if (!article.ok()) return article.status();
  absl::StatusOr<Stmt> clause = Stmt::Prepare(
      db,
      "INSERT INTO clauses (ruleset_id, version, article_id, id, text_zh, title_en, summary_en,"
      " interpretation) VALUES (?,?,?,?,?,?,?,?)");
  if (!clause.ok()) return clause.status();
  for (const v1::Article& a : ruleset.articles()) {
    article->Bind(1, ruleset.id())
        .Bind(2, ruleset.version())
        .Bind(3, static_cast<int64_t>(a.number()))
        .Bind(4, a.id())
        .Bind(5, a.title_zh())
        .Bind(6, a.title_en())
        .Bind(7, a.text_zh())
        .Bind(8, a.summary_en())
        .Bind(9, a.interpretation());
    if (absl::Status st = article->Run(); !st.ok()) return st;
    for (const v1::Clause& c : a.clauses()) {
      clause->Bind(1, ruleset.id())
          .Bind(2, ruleset.version())
          .Bind(3, a.id())
          .Bind(4, c.id())
          .Bind(5, c.text_zh())
          .Bind(6, c.title_en())
          .Bind(7, c.summary_en())
          .Bind(8, c.interpretation());
      if (absl::Status st = clause->Run(); !st.ok()) return st;
    }
  }
  return absl::OkStatus();
}

// The hash already published for (id, version) in `table`, or "" if none.
absl::StatusOr<std::string> PublishedHash(Db& db, const char* table, const std::string& id,
                                          const std::string& version) {
  absl::StatusOr<Stmt> select =
      Stmt::Prepare(db, absl::StrCat("SELECT hash FROM ", table, " WHERE id = ? AND version = ?"));
  if (!select.ok()) return select.status();
  select->Bind(1, id).Bind(2, version);
  absl::StatusOr<bool> row = select->Step();
  if (!row.ok()) return row.status();
  return *row ? select->Text(0) : std::string();
}

// Publishes `message` (a `kind`, stored in table `kind`s) in one
// transaction: `insert` writes its rows unless this very content is
// published already; ALREADY_EXISTS when other content holds the version.
// Returns the content hash.
absl::StatusOr<std::string> Publish(
    Db& db, const std::string& kind, const google::protobuf::Message& message,
    const std::string& id, const std::string& version,
    const std::function<absl::Status(const std::string& bytes, const std::string& hash)>& insert) {
  const std::string bytes = CanonicalBytes(message);
  const std::string hash = Sha256Hex(bytes);
  absl::StatusOr<Transaction> tx = Transaction::Write(db);
  if (!tx.ok()) return tx.status();
  absl::StatusOr<std::string> published = PublishedHash(db, (kind + "s").c_str(), id, version);
  if (!published.ok()) return published.status();
  if (*published == hash) return hash;  // the same content: nothing to do
  if (!published->empty()) {
    return absl::AlreadyExistsError(
        absl::StrCat(kind, " ", id, " version ", version, " is published with hash ", *published,
                     "; this content hashes to ", hash,
                     ". Published versions are immutable: give the change a new version id."));
  }
  if (absl::Status st = insert(bytes, hash); !st.ok()) return st;
  if (absl::Status st = tx->Commit(); !st.ok()) return st;
  return hash;
}

// The message stored as `bytes` (whose hash LoadContent checked).
template <typename M>
absl::StatusOr<M> Parse(const char* kind, std::string_view id, const std::string& bytes) {
  absl::StatusOr<M> message = ParseCanonical<M>(bytes);
  if (!message.ok()) {
    return absl::DataLossError(
        absl::StrCat(kind, " ", std::string(id), ": ", message.status().message()));
  }
  return message;
}

}  // namespace

absl::StatusOr<std::unique_ptr<RuleCatalog>> RuleCatalog::Open(const std::string& path) {
  absl::StatusOr<Db> db = Db::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) {
    return absl::Status(db.status().code(), absl::StrCat("rules catalog: ", db.status().message()));
  }
  if (absl::Status st = db->Exec(kSchema); !st.ok()) return st;
  for (const char* table : {"rulesets", "articles", "clauses", "sanctions", "supplements"}) {
    if (absl::Status st = db->Exec(absl::StrReplaceAll(kImmutable, {{"$table", table}}));
        !st.ok()) {
      return st;
    }
  }
  return std::unique_ptr<RuleCatalog>(new RuleCatalog(*std::move(db)));
}

absl::StatusOr<std::string> RuleCatalog::PublishRuleset(const v1::Ruleset& ruleset) {
  if (absl::Status st = ValidateRuleset(ruleset); !st.ok()) return st;
  return Publish(db_, "ruleset", ruleset, ruleset.id(), ruleset.version(),
                 [&](const std::string& bytes, const std::string& hash) -> absl::Status {
                   absl::StatusOr<Stmt> insert = Stmt::Prepare(
                       db_,
                       "INSERT INTO rulesets (id, version, hash, title_zh, title_en, source,"
                       " content) VALUES (?,?,?,?,?,?,?)");
                   if (!insert.ok()) return insert.status();
                   insert->Bind(1, ruleset.id())
                       .Bind(2, ruleset.version())
                       .Bind(3, hash)
                       .Bind(4, ruleset.title_zh())
                       .Bind(5, ruleset.title_en())
                       .Bind(6, ruleset.source())
                       .BindBlob(7, bytes);
                   if (absl::Status st = insert->Run(); !st.ok()) return st;
                   if (absl::Status st = InsertArticles(db_, ruleset); !st.ok()) return st;
                   return InsertSanctionings(db_, "ruleset", ruleset.id(), ruleset.version(),
                                             ruleset.sanctionings());
                 });
}

absl::StatusOr<std::string> RuleCatalog::PublishSupplement(const v1::Supplement& supplement) {
  absl::StatusOr<v1::Ruleset> base = LoadRuleset(supplement.base_ruleset());
  if (!base.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("supplement ", supplement.id(), ": publish its base ruleset \"",
                     supplement.base_ruleset(), "\" first (", base.status().message(), ")"));
  }
  if (absl::Status st = ValidateSupplement(supplement, *base); !st.ok()) return st;
  return Publish(db_, "supplement", supplement, supplement.id(), supplement.version(),
                 [&](const std::string& bytes, const std::string& hash) -> absl::Status {
                   absl::StatusOr<Stmt> insert = Stmt::Prepare(
                       db_,
                       "INSERT INTO supplements (id, version, base_ruleset, hash, title, content)"
                       " VALUES (?,?,?,?,?,?)");
                   if (!insert.ok()) return insert.status();
                   insert->Bind(1, supplement.id())
                       .Bind(2, supplement.version())
                       .Bind(3, supplement.base_ruleset())
                       .Bind(4, hash)
                       .Bind(5, supplement.title())
                       .BindBlob(6, bytes);
                   if (absl::Status st = insert->Run(); !st.ok()) return st;
                   return InsertSanctionings(db_, "supplement", supplement.id(),
                                             supplement.version(), supplement.sanctionings());
                 });
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

absl::StatusOr<RuleCatalog::Content> RuleCatalog::LoadContent(const char* table,
                                                              std::string_view id,
                                                              std::string_view version) {
  const std::string id_s(id), version_s(version);
  absl::StatusOr<Stmt> select = Stmt::Prepare(
      db_, absl::StrCat("SELECT content, hash FROM ", table, " WHERE id = ?",
                        version.empty() ? " ORDER BY seq DESC LIMIT 1" : " AND version = ?"));
  if (!select.ok()) return select.status();
  select->Bind(1, id_s);
  if (!version.empty()) select->Bind(2, version_s);
  absl::StatusOr<bool> row = select->Step();
  if (!row.ok()) return row.status();
  if (!*row) {
    return absl::NotFoundError(absl::StrCat("no published ", table, " entry \"", id_s, "\"",
                                            version.empty() ? "" : " version " + version_s));
  }
  Content content{select->Text(0), select->Text(1)};
  const std::string actual = Sha256Hex(content.bytes);
  if (actual != content.hash) {
    return absl::DataLossError(absl::StrCat(table, " ", id_s, ": stored content hashes to ", actual,
                                            ", not its published ", content.hash));
  }
  return content;
}

absl::StatusOr<v1::Ruleset> RuleCatalog::LoadRuleset(std::string_view id,
                                                     std::string_view version) {
  absl::StatusOr<Content> content = LoadContent("rulesets", id, version);
  if (!content.ok()) return content.status();
  return Parse<v1::Ruleset>("ruleset", id, content->bytes);
}

absl::StatusOr<v1::Supplement> RuleCatalog::LoadSupplement(std::string_view id,
                                                           std::string_view version) {
  absl::StatusOr<Content> content = LoadContent("supplements", id, version);
  if (!content.ok()) return content.status();
  return Parse<v1::Supplement>("supplement", id, content->bytes);
}

absl::StatusOr<v1::Ruleset> RuleCatalog::LoadRulesetByHash(std::string_view hash) {
  const std::string wanted(hash);
  absl::StatusOr<Stmt> select =
      Stmt::Prepare(db_, "SELECT id, version FROM rulesets WHERE hash = ? ORDER BY seq LIMIT 1");
  if (!select.ok()) return select.status();
  select->Bind(1, wanted);
  absl::StatusOr<bool> row = select->Step();
  if (!row.ok()) return row.status();
  if (!*row) return absl::NotFoundError("no published ruleset has hash " + wanted);
  return LoadRuleset(select->Text(0), select->Text(1));
}

absl::StatusOr<std::string> RuleCatalog::RulesetHash(std::string_view id,
                                                     std::string_view version) {
  absl::StatusOr<Content> content = LoadContent("rulesets", id, version);
  if (!content.ok()) return content.status();
  return content->hash;
}

absl::StatusOr<std::vector<RuleCatalog::Entry>> RuleCatalog::List() {
  std::vector<Entry> entries;
  absl::StatusOr<Stmt> select =
      Stmt::Prepare(db_,
                    "SELECT 'ruleset', id, version, hash, '', published_at FROM rulesets"
                    " UNION ALL SELECT 'supplement', id, version, hash, base_ruleset, published_at"
                    " FROM supplements ORDER BY 6, 1, 2");
  if (!select.ok()) return select.status();
  for (;;) {
    absl::StatusOr<bool> row = select->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    entries.push_back(
        {select->Text(0), select->Text(1), select->Text(2), select->Text(3), select->Text(4)});
  }
  return entries;
}

}  // namespace arbiter::ledger
