// The ledger as a C2SP tiled log over `arbiter serve --http` (console/
// tlog_tiles.h), checked from outside with an HTTP client against the text
// of tlog-tiles: the checkpoint note, tile and bundle bodies recomputed
// here from the ledger file, the cache headers (full tiles immutable,
// partial ones and the checkpoint short-lived), tiles beyond the latest
// checkpoint 404, one spelling per path, and no sign-in needed even on a
// server with tokens.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "ledger/hash.h"
#include "ledger/merkle.h"
#include "ledger/sqlite/log_reader.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter {
namespace {

TEST(TlogTilesHttpTest, ServesTheSignedTreeAsTiles) {
  testing::TempDir dir;
  const std::string data = dir.File("data");
  std::filesystem::create_directories(data);
  for (const char* f : {"ledger.db", "ledger.key", "ledger.pub"}) {
    std::filesystem::copy_file(testing::TestDataPath(std::string("ledger-v0/") + f),
                               data + "/" + f);
  }
  // Grow the log past one full tile: board 2 of the same round (156 more).
  {
    auto server = testing::ServerProcess::Start(data);
    ASSERT_NE(server, nullptr);
    std::string board2 = absl::StrReplaceAll(
        testing::ReadFile(testing::SourcePath("cli/examples/tournament-round3.jsonl")),
        {{"tournament-round3-board1", "tournament-round3-board2"}});
    ASSERT_EQ(testing::RunCli({"record", "--replay", "-"}, board2, server->address()).exit, 0);
  }
  // What the tiles must hold, from the file itself.
  std::vector<v1::LedgerEntry> entries;
  ledger::MerkleTree tree;
  uint64_t signed_size = 0;
  {
    absl::StatusOr<ledger::LogReader> reader = ledger::LogReader::Open(data + "/ledger.db");
    ASSERT_TRUE(reader.ok());
    entries = reader->ReadLog(0, 1000).value();
    for (const v1::LedgerEntry& e : entries) tree.Append(ledger::LeafHash(e.event()));
    signed_size = reader->Checkpoints().value().back().tree_size();
  }
  ASSERT_EQ(entries.size(), 312u);
  ASSERT_EQ(signed_size, 312u);  // signed at the game's end and at the close

  // A server with a token: the tiles still need none.
  ASSERT_FALSE(testing::CreateToken(data, "AUDITOR", "auditor").empty());
  auto server = testing::ServerProcess::Start(data, {"--http", "127.0.0.1:0"});
  ASSERT_NE(server, nullptr);
  httplib::Client http(absl::StrCat("http://", server->console_address()));

  auto cp = http.Get("/checkpoint");
  ASSERT_TRUE(cp);
  EXPECT_EQ(cp->status, 200);
  EXPECT_EQ(cp->get_header_value("Content-Type"), "text/plain; charset=utf-8");
  EXPECT_EQ(cp->get_header_value("Cache-Control"), "public, max-age=2");
  // The origin is the verifier key's name (its text before the first '+').
  const std::string vkey = testing::ReadFile(data + "/ledger.vkey");
  const std::string origin = vkey.substr(0, vkey.find('+'));
  EXPECT_TRUE(absl::StartsWith(
      cp->body,
      absl::StrCat(origin, "\n312\n", absl::Base64Escape(AsBytes(tree.Root(312).value())), "\n\n")))
      << cp->body;

  // Level 0, tile 0: full, the first 256 leaf hashes.
  auto full = http.Get("/tile/0/000");
  ASSERT_TRUE(full);
  ASSERT_EQ(full->status, 200);
  EXPECT_EQ(full->get_header_value("Cache-Control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(full->get_header_value("Content-Type"), "application/octet-stream");
  ASSERT_EQ(full->body.size(), 256u * 32);
  for (int i = 0; i < 256; i += 51) {
    EXPECT_EQ(full->body.substr(i * 32, 32), AsBytes(ledger::LeafHash(entries[i].event())));
  }
  // Level 0, tile 1: partial, 312 - 256 = 56 leaves; short-lived.
  auto partial = http.Get("/tile/0/001.p/56");
  ASSERT_TRUE(partial);
  ASSERT_EQ(partial->status, 200);
  EXPECT_EQ(partial->get_header_value("Cache-Control"), "public, max-age=10");
  EXPECT_EQ(partial->body.substr(55 * 32), AsBytes(ledger::LeafHash(entries[311].event())));
  // Level 1, tile 0: partial of width 1, the root of the first 256 leaves.
  auto level1 = http.Get("/tile/1/000.p/1");
  ASSERT_TRUE(level1);
  ASSERT_EQ(level1->status, 200);
  EXPECT_EQ(level1->body, AsBytes(tree.Root(256).value()));
  // The entries: big-endian uint16 lengths, then the bytes each leaf hashes.
  auto bundle = http.Get("/tile/entries/001.p/56");
  ASSERT_TRUE(bundle);
  ASSERT_EQ(bundle->status, 200);
  std::string expected;
  for (size_t i = 256; i < 312; ++i) {
    const std::string& e = entries[i].event();
    expected += static_cast<char>(e.size() >> 8);
    expected += static_cast<char>(e.size() & 0xFF);
    expected += e;
  }
  EXPECT_EQ(bundle->body, expected);
  auto full_bundle = http.Get("/tile/entries/000");
  ASSERT_TRUE(full_bundle);
  EXPECT_EQ(full_bundle->status, 200);
  EXPECT_EQ(full_bundle->get_header_value("Cache-Control"), "public, max-age=31536000, immutable");

  // Beyond the latest checkpoint: 404, never cached.
  for (const char* beyond : {"/tile/0/001", "/tile/0/001.p/57", "/tile/1/000", "/tile/2/000.p/1",
                             "/tile/entries/002.p/1", "/tile/0/x001/000"}) {
    auto r = http.Get(beyond);
    ASSERT_TRUE(r) << beyond;
    EXPECT_EQ(r->status, 404) << beyond << ": " << r->body;
    EXPECT_EQ(r->get_header_value("Cache-Control"), "no-store") << beyond;
  }
  // One spelling per tile.
  for (const char* bad : {"/tile/0/0", "/tile/0/0000", "/tile/00/000", "/tile/0/x000/001",
                          "/tile/0/001.p/0", "/tile/0/001.p/256", "/tile/0/001.p/056",
                          "/tile/64/000", "/tile/0/001/", "/tile/data/000"}) {
    auto r = http.Get(bad);
    ASSERT_TRUE(r) << bad;
    EXPECT_EQ(r->status, 400) << bad << ": " << r->body;
  }
  // The pages themselves still ask for a sign-in.
  auto hall = http.Get("/api/games");
  ASSERT_TRUE(hall);
  EXPECT_EQ(hall->status, 401);
}

}  // namespace
}  // namespace arbiter
