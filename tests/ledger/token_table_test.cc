// A SQLite ledger's tokens as a running server reads them (server_tables.h):
// asked on every call, answered from what was last read while the tokens'
// stamp (ledger.db-tokens) is unchanged, and read again once the stamp moves
// or StoreOptions::tokens_kept_for has passed, whichever comes first.
#include <memory>
#include <optional>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "ledger/server_tables.h"
#include "ledger/sqlite.h"
#include "ledger/store.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::TempDir;

std::unique_ptr<ServerTables> Tables(const TempDir& dir, absl::Duration kept_for) {
  StoreOptions options;
  options.tokens_kept_for = kept_for;
  absl::StatusOr<std::unique_ptr<Store>> store = OpenStore(dir.path(), options);
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<ServerTables>> tables = (*store)->OpenServerTables(false);
  EXPECT_TRUE(tables.ok()) << tables.status();
  return tables.ok() ? *std::move(tables) : nullptr;
}

TokenRow Token(const std::string& id, const std::string& sha256, const std::string& name) {
  TokenRow t;
  t.id = id;
  t.sha256 = sha256;
  t.role = "ARBITER";
  t.name = name;
  t.created = 1'780'000'000;
  return t;
}

// Writes to ledger.db as an sqlite3 shell would: behind the tables' back,
// the stamp left as it is.
void ByHand(const TempDir& dir, const std::string& sql) {
  absl::StatusOr<Db> db = Db::Open(dir.path() + "/ledger.db", SQLITE_OPEN_READWRITE);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(db->Exec(sql).ok()) << sql;
}

std::string NameOf(ServerTables& tables, const std::string& sha256) {
  absl::StatusOr<std::optional<TokenRow>> row = tables.TokenByHash(sha256);
  EXPECT_TRUE(row.ok()) << row.status();
  return row.ok() && row->has_value() ? (*row)->name : "(none)";
}

// Asks `ask` until it gives `want` or 20 seconds have passed; true when it did.
template <typename Ask, typename T>
bool Eventually(Ask ask, const T& want) {
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (absl::Now() < deadline) {
    if (ask() == want) return true;
  }
  return ask() == want;
}

const std::string kHash(32, 'h');

// A server running open asks whether any token exists on every call; with
// no bound on what it keeps it reads the table again only once the stamp
// moves: a row slipped in behind the tables' back is not read, the next
// token made through the tables (another process's: `arbiter token`) is.
TEST(TokenTableTest, WhatWasReadIsKeptUntilTheStampMoves) {
  TempDir dir;
  std::unique_ptr<ServerTables> server = Tables(dir, absl::InfiniteDuration());
  std::unique_ptr<ServerTables> cli = Tables(dir, absl::InfiniteDuration());
  ASSERT_TRUE(server != nullptr && cli != nullptr);
  ASSERT_FALSE(*server->AnyToken());
  ByHand(dir,
         "INSERT INTO tokens (id, sha256, role, name, games, created) VALUES "
         "('0badc0de', x'00', 'SOFTWARE', 'behind its back', '', 0)");
  EXPECT_FALSE(*server->AnyToken()) << "the table was read again with its stamp unchanged";

  ASSERT_TRUE(cli->InsertToken(Token("tok1", kHash, "Li Wei")).ok());
  EXPECT_TRUE(*server->AnyToken()) << "a token made through the tables moves the stamp";
  EXPECT_EQ(NameOf(*server, kHash), "Li Wei");
  ByHand(dir, "UPDATE tokens SET name = 'Wang Ru' WHERE id = 'tok1'");
  EXPECT_EQ(NameOf(*server, kHash), "Li Wei") << "read again with the stamp unchanged";
  ASSERT_TRUE(cli->InsertToken(Token("tok2", std::string(32, 'i'), "Zhou Min")).ok());
  EXPECT_EQ(NameOf(*server, kHash), "Wang Ru") << "read again once the stamp moved";
}

// A revocation committed whose stamp was never bumped after it (the disk
// filled between the two), or a row changed by hand: a server reads it once
// tokens_kept_for has passed since it last read the table, without any
// other change to move the stamp.
TEST(TokenTableTest, AChangeTheStampMissedIsReadWithinTheBound) {
  TempDir dir;
  std::unique_ptr<ServerTables> server = Tables(dir, absl::Milliseconds(50));
  ASSERT_TRUE(server != nullptr);
  ASSERT_TRUE(server->InsertToken(Token("tok1", kHash, "Li Wei")).ok());
  ASSERT_EQ(NameOf(*server, kHash), "Li Wei");
  ByHand(dir, "UPDATE tokens SET revoked = 1780000100 WHERE id = 'tok1'");
  EXPECT_TRUE(Eventually(
      [&] {
        absl::StatusOr<std::optional<TokenRow>> row = server->TokenByHash(kHash);
        return row.ok() && row->has_value() && (*row)->revoked.has_value();
      },
      true))
      << "a revocation the stamp did not tell is still read";

  ByHand(dir, "DELETE FROM tokens");
  EXPECT_TRUE(Eventually([&] { return *server->AnyToken(); }, false))
      << "an open server's answer is read again too";
}

// Zero keeps nothing: every ask reads the table.
TEST(TokenTableTest, ZeroReadsTheTableOnEveryAsk) {
  TempDir dir;
  std::unique_ptr<ServerTables> server = Tables(dir, absl::ZeroDuration());
  ASSERT_TRUE(server != nullptr);
  ASSERT_TRUE(server->InsertToken(Token("tok1", kHash, "Li Wei")).ok());
  ASSERT_EQ(NameOf(*server, kHash), "Li Wei");
  ByHand(dir, "UPDATE tokens SET name = 'Wang Ru' WHERE id = 'tok1'");
  EXPECT_EQ(NameOf(*server, kHash), "Wang Ru");
}

}  // namespace
}  // namespace arbiter::ledger
