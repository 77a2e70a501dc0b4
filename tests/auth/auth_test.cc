// Authentication, roles, the recorded actor and limits: the token store, the
// access table, and the real server (its authorization interceptor in front
// of the ArbiterService and ledger), over gRPC on loopback.
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/auth_role.h"
#include "adjudicator/service/auth_tls.h"
#include "adjudicator/service/auth_tokens.h"
#include "adjudicator/service/server.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "ledger/sqlite.h"
#include "proto/canonical/sha256.h"
#include "tests/auth/auth_server.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace arbiter::service {
namespace {

namespace fs = std::filesystem;

using ::arbiter::testing::ReadFile;
using ::arbiter::testing::TempDir;

TEST(TokenStoreTest, CreateAuthenticateRevoke) {
  TempDir dir;
  auto store = TokenStore::Open(dir.path());
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_FALSE(*(*store)->Any());

  auto secret = (*store)->Create(Role::kArbiter, "Li Wei", {"round1-board3"});
  ASSERT_TRUE(secret.ok()) << secret.status();
  EXPECT_TRUE(absl::StartsWith(*secret, "arb_"));
  EXPECT_EQ(secret->size(), 4u + 64u);
  EXPECT_TRUE(*(*store)->Any());

  auto who = (*store)->Verify(*secret);
  ASSERT_TRUE(who.ok()) << who.status();
  EXPECT_EQ(who->name, "Li Wei");
  EXPECT_EQ(who->role, Role::kArbiter);
  EXPECT_EQ(who->games, std::vector<std::string>{"round1-board3"});
  EXPECT_TRUE(absl::IsUnauthenticated((*store)->Verify(*secret + "x").status()));
  EXPECT_TRUE(absl::IsUnauthenticated((*store)->Verify("").status()));

  // Only the hash is stored: the secret appears nowhere in the files.
  for (const auto& f : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(ReadFile(f.path().string()).find(secret->substr(4)), std::string::npos) << f.path();
  }

  const std::string id = who->id;
  ASSERT_TRUE((*store)->Revoke(id).ok());
  EXPECT_TRUE((*store)->Revoke(id).ok()) << "revoking twice is fine";
  const auto revoked = (*store)->Verify(*secret);
  EXPECT_TRUE(absl::IsUnauthenticated(revoked.status()));
  EXPECT_TRUE(absl::StrContains(revoked.status().message(), "revoked")) << revoked.status();
  EXPECT_TRUE(absl::IsNotFound((*store)->Revoke("nope")));
  auto listed = (*store)->List().value();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_TRUE(listed[0].revoked.has_value());
  EXPECT_TRUE(*(*store)->Any()) << "revoking every token must not open the server";
}

// A server's store keeps its hot reads prepared (whether any token exists,
// a token by its hash): each still reads what `arbiter token`, another
// store on the same folder, commits while the server runs, and asked again
// and again answers the same.
TEST(TokenStoreTest, KeptReadsSeeWhatAnotherStoreCommits) {
  TempDir dir;
  auto server = TokenStore::Open(dir.path());
  ASSERT_TRUE(server.ok()) << server.status();
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(*(*server)->Any()) << "asked " << i + 1 << " times";
    EXPECT_TRUE(absl::IsUnauthenticated((*server)->Verify("arb_nope").status()));
  }
  auto cli = TokenStore::Open(dir.path());
  ASSERT_TRUE(cli.ok()) << cli.status();
  auto secret = (*cli)->Create(Role::kArbiter, "Li Wei", {"round1-board3"});
  ASSERT_TRUE(secret.ok()) << secret.status();
  EXPECT_TRUE(*(*server)->Any()) << "a token made while the server runs closes it";
  for (int i = 0; i < 3; ++i) {
    auto who = (*server)->Verify(*secret);
    ASSERT_TRUE(who.ok()) << "asked " << i + 1 << " times: " << who.status();
    EXPECT_EQ(who->name, "Li Wei");
  }
  ASSERT_TRUE((*cli)->Revoke((*server)->Verify(*secret)->id).ok());
  for (int i = 0; i < 3; ++i) {
    const auto revoked = (*server)->Verify(*secret);
    EXPECT_TRUE(absl::IsUnauthenticated(revoked.status())) << "asked " << i + 1 << " times";
  }
}

// What a server keeps of the tokens between calls, and for how long:
// tests/ledger/token_table_test.cc.

TEST(TokenStoreTest, ExpiresAfterItsTtl) {
  TempDir dir;
  absl::Time now = absl::FromUnixSeconds(1'780'000'000);
  auto store = TokenStore::Open(dir.path(), [&now] { return now; });
  ASSERT_TRUE(store.ok()) << store.status();
  auto day = (*store)->Create(Role::kSoftware, "broadcast", {}, absl::Hours(24));
  auto forever = (*store)->Create(Role::kAuditor, "KPMG", {});
  ASSERT_TRUE(day.ok() && forever.ok());
  for (const TokenInfo& t : std::vector<TokenInfo>((*store)->List().value())) {
    if (t.name == "broadcast") {
      EXPECT_EQ(t.expires, now + absl::Hours(24));
    } else {
      EXPECT_FALSE(t.expires.has_value()) << t.name;
    }
  }

  now += absl::Hours(24) - absl::Seconds(1);
  EXPECT_TRUE((*store)->Verify(*day).ok()) << "valid until its last second";
  now += absl::Seconds(1);
  const auto expired = (*store)->Verify(*day);
  EXPECT_TRUE(absl::IsUnauthenticated(expired.status())) << expired.status();
  EXPECT_TRUE(absl::StrContains(expired.status().message(), "expired at 2026-05-29T"))
      << expired.status();
  now += absl::Hours(24 * 365);
  EXPECT_TRUE((*store)->Verify(*forever).ok()) << "no ttl: valid until revoked";
  const auto unknown = (*store)->Verify("arb_nope");
  EXPECT_TRUE(absl::IsUnauthenticated(unknown.status()));
  EXPECT_FALSE(absl::StrContains(unknown.status().message(), "expired"));

  EXPECT_TRUE(absl::IsInvalidArgument(
      (*store)->Create(Role::kSoftware, "x", {}, absl::ZeroDuration()).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      (*store)->Create(Role::kSoftware, "x", {}, -absl::Hours(1)).status()));
  EXPECT_EQ((*store)->List()->size(), 2u) << "a refused token writes nothing";
}

// A tokens.db of schema version 0 (before expiries), as the first release
// wrote it, with one live token.
void WriteVersion0Store(const std::string& dir, const std::string& secret) {
  auto db = ledger::Db::Open(dir + "/tokens.db", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_TRUE(db->Exec("CREATE TABLE tokens (id TEXT PRIMARY KEY, sha256 BLOB NOT NULL UNIQUE,"
                       " role TEXT NOT NULL, name TEXT NOT NULL, games TEXT NOT NULL,"
                       " created INTEGER NOT NULL, revoked INTEGER)")
                  .ok());
  const Sha256Digest hash = Sha256(secret);
  auto insert = ledger::Stmt::Prepare(*db, "INSERT INTO tokens VALUES (?,?,?,?,?,?,NULL)");
  ASSERT_TRUE(insert.ok());
  insert->Bind(1, ToHex(hash).substr(0, 8))
      .BindBlob(2, AsBytes(hash))
      .Bind(3, "ARBITER")
      .Bind(4, "Li Wei")
      .Bind(5, "g1,g2")
      .Bind(6, int64_t{1'700'000'000});
  ASSERT_TRUE(insert->Run().ok());
}

int64_t UserVersion(const std::string& dir) {
  auto db = ledger::Db::Open(dir + "/tokens.db", SQLITE_OPEN_READONLY);
  EXPECT_TRUE(db.ok());
  auto q = ledger::Stmt::Prepare(*db, "PRAGMA user_version");
  EXPECT_TRUE(q.ok() && *q->Step());
  return q->Int(0);
}

// An earlier release's tokens.db (here of schema 0) is imported into the
// ledger's database once: its tokens keep working, and the file is left
// beside, unchanged and read-only.
TEST(TokenStoreTest, ImportsAnEarlierReleasesStoreOnce) {
  TempDir dir;
  const std::string secret = "arb_" + std::string(64, '7');
  WriteVersion0Store(dir.path(), secret);
  ASSERT_EQ(UserVersion(dir.path()), 0);
  {
    auto store = TokenStore::Open(dir.path());
    ASSERT_TRUE(store.ok()) << store.status();
    auto who = (*store)->Verify(secret);
    ASSERT_TRUE(who.ok()) << who.status() << ": an old token still works";
    EXPECT_EQ(who->name, "Li Wei");
    EXPECT_EQ(who->games, (std::vector<std::string>{"g1", "g2"}));
    EXPECT_FALSE(who->expires.has_value()) << "an old token keeps no expiry";
    EXPECT_EQ(who->created, absl::FromUnixSeconds(1'700'000'000));
    auto fresh = (*store)->Create(Role::kSoftware, "new", {}, absl::Hours(1));
    ASSERT_TRUE(fresh.ok()) << fresh.status();
    EXPECT_TRUE((*store)->List()->back().expires.has_value());
    ASSERT_TRUE((*store)->Revoke(who->id).ok());
  }
  EXPECT_EQ(UserVersion(dir.path()), 0) << "the old file is left as it was";
  EXPECT_EQ(fs::status(dir.File("tokens.db")).permissions() & fs::perms::owner_write,
            fs::perms::none)
      << "and read-only";
  auto again = TokenStore::Open(dir.path());
  ASSERT_TRUE(again.ok()) << again.status() << ": opening an imported folder again";
  EXPECT_EQ((*again)->List()->size(), 2u);
  EXPECT_TRUE(absl::IsUnauthenticated((*again)->Verify(secret).status()))
      << "imported once: a revocation since stays";
}

TEST(TokenStoreTest, RefusesAStoreOfANewerSchema) {
  TempDir dir;
  WriteVersion0Store(dir.path(), "arb_" + std::string(64, '8'));
  {
    auto db = ledger::Db::Open(dir.path() + "/tokens.db", SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok() && db->Exec("PRAGMA user_version = 9").ok());
  }
  auto store = TokenStore::Open(dir.path());
  ASSERT_TRUE(absl::IsFailedPrecondition(store.status())) << store.status();
  EXPECT_TRUE(absl::StrContains(store.status().message(), "version 9")) << store.status();
  EXPECT_EQ(UserVersion(dir.path()), 9) << "refusing changes nothing";
}

TEST(TokenStoreTest, RefusesBadTokens) {
  TempDir dir;
  auto store = TokenStore::Open(dir.path());
  ASSERT_TRUE(store.ok());
  EXPECT_TRUE(absl::IsInvalidArgument((*store)->Create(Role::kArbiter, "A", {}).status()));
  EXPECT_TRUE(absl::IsInvalidArgument((*store)->Create(Role::kAuditor, "A", {"g"}).status()));
  EXPECT_TRUE(absl::IsInvalidArgument((*store)->Create(Role::kSoftware, "", {}).status()));
  EXPECT_TRUE(absl::IsInvalidArgument((*store)->Create(Role::kSoftware, "a\nb", {}).status()));
  EXPECT_FALSE(*(*store)->Any()) << "a refused token writes nothing";
}

TEST(RoleTest, WhoMayCallWhat) {
  EXPECT_EQ(MethodAccess("/arbiter.v1.Arbiter/AppendEvents"), v1::RECORD);
  EXPECT_EQ(MethodAccess("/arbiter.v1.Arbiter/Decide"), v1::RECORD);
  EXPECT_EQ(MethodAccess("/arbiter.v1.Arbiter/CreateGame"), v1::CREATE);
  EXPECT_EQ(MethodAccess("/arbiter.v1.Arbiter/ExportGame"), v1::AUDIT);
  EXPECT_EQ(MethodAccess("/arbiter.v1.Arbiter/WatchAll"), v1::READ);
  EXPECT_EQ(MethodAccess("/grpc.health.v1.Health/Check"), v1::PUBLIC);
  EXPECT_EQ(MethodAccess("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"),
            v1::READ);
  EXPECT_EQ(MethodAccess("/arbiter.v1.Arbiter/DropTables"), v1::ACCESS_UNSPECIFIED);
  for (Role r :
       {Role::kArbiter, Role::kChiefArbiter, Role::kAuditor, Role::kSoftware, Role::kVenue}) {
    EXPECT_TRUE(Permits(r, v1::READ));
    EXPECT_FALSE(Permits(r, v1::ACCESS_UNSPECIFIED));
    EXPECT_EQ(ParseRole(RoleName(r)), r);
    // Only a venue's sync writes a venue's games, and it writes nothing else.
    EXPECT_EQ(Permits(r, v1::SYNC), r == Role::kVenue) << RoleName(r);
  }
  EXPECT_EQ(MethodAccess("/arbiter.v1.Arbiter/SyncVenueGame"), v1::SYNC);
  EXPECT_TRUE(IsWrite(v1::SYNC));
  for (v1::Access a :
       {v1::AUDIT, v1::RECORD, v1::CREATE, v1::ORGANISE, v1::RULE_ON_APPEAL, v1::CORRECT}) {
    EXPECT_FALSE(Permits(Role::kVenue, a)) << a;
  }
  EXPECT_TRUE(Permits(Role::kChiefArbiter, v1::CREATE));
  EXPECT_FALSE(Permits(Role::kArbiter, v1::CREATE));
  EXPECT_TRUE(Permits(Role::kArbiter, v1::RECORD));
  EXPECT_FALSE(Permits(Role::kAuditor, v1::RECORD));
  EXPECT_FALSE(Permits(Role::kSoftware, v1::RECORD));
  EXPECT_TRUE(Permits(Role::kAuditor, v1::AUDIT));
  EXPECT_FALSE(Permits(Role::kSoftware, v1::AUDIT));
  EXPECT_TRUE(Permits(Role::kChiefArbiter, v1::RULE_ON_APPEAL));
  EXPECT_FALSE(Permits(Role::kArbiter, v1::RULE_ON_APPEAL));
  EXPECT_FALSE(ParseRole("ROOT").has_value());
}

// The contract declares an access for every method of both services and for
// every kind of event, so nothing is reachable by accident.
TEST(RoleTest, EveryMethodAndEveryEventKindDeclaresItsAccess) {
  for (const google::protobuf::ServiceDescriptor* s :
       {v1::CreateGameRequest::descriptor()->file()->FindServiceByName("Arbiter"),
        v1::CreateTournamentRequest::descriptor()->file()->FindServiceByName(
            "TournamentService")}) {
    ASSERT_NE(s, nullptr);
    for (int i = 0; i < s->method_count(); ++i) {
      const std::string method = absl::StrCat("/", s->full_name(), "/", s->method(i)->name());
      EXPECT_NE(MethodAccess(method), v1::ACCESS_UNSPECIFIED) << method;
    }
  }
  const google::protobuf::OneofDescriptor* kind = v1::Event::descriptor()->FindOneofByName("kind");
  ASSERT_NE(kind, nullptr);
  for (int i = 0; i < kind->field_count(); ++i) {
    v1::Event e;
    e.GetReflection()->MutableMessage(&e, kind->field(i));
    EXPECT_NE(EventAccess(e), v1::ACCESS_UNSPECIFIED) << kind->field(i)->name();
  }
  v1::Event created;
  created.mutable_game_created();
  EXPECT_EQ(EventAccess(created), v1::CREATE) << "only who may create games sends gameCreated";
  v1::Event appeal;
  appeal.mutable_appeal_decided();
  EXPECT_EQ(EventAccess(appeal), v1::RULE_ON_APPEAL);
  EXPECT_EQ(EventAccess(v1::Event()), v1::ACCESS_UNSPECIFIED);
}

TEST(RoleTest, TournamentsAreTheChiefArbitersToOrganise) {
  constexpr absl::string_view kT = "/arbiter.v1.TournamentService/";
  EXPECT_EQ(MethodAccess(absl::StrCat(kT, "CreateTournament")), v1::CREATE);
  EXPECT_EQ(MethodAccess(absl::StrCat(kT, "ImportTournament")), v1::CREATE);
  for (const char* m : {"AddPlayers", "PairRound", "ScheduleReplay", "WithdrawPlayer",
                        "DecideTieBreak", "CorrectTournament", "SetLineup"}) {
    EXPECT_EQ(MethodAccess(absl::StrCat(kT, m)), v1::ORGANISE) << m;
  }
  for (const char* m : {"GetTournament", "GetStandings", "ExportTournament", "ListTournaments"}) {
    EXPECT_EQ(MethodAccess(absl::StrCat(kT, m)), v1::READ) << m;
  }
  EXPECT_EQ(MethodAccess(absl::StrCat(kT, "DeleteTournament")), v1::ACCESS_UNSPECIFIED);
  EXPECT_EQ(MethodAccess("/arbiter.v1.Arbiter/PairRound"), v1::ACCESS_UNSPECIFIED);
  EXPECT_TRUE(Permits(Role::kChiefArbiter, v1::ORGANISE));
  for (Role r : {Role::kArbiter, Role::kAuditor, Role::kSoftware}) {
    EXPECT_FALSE(Permits(r, v1::ORGANISE));
    EXPECT_FALSE(Permits(r, v1::CREATE));
  }
  EXPECT_TRUE(IsWrite(v1::ORGANISE));
  EXPECT_TRUE(IsWrite(v1::CREATE));
  EXPECT_TRUE(IsWrite(v1::RECORD));
  EXPECT_FALSE(IsWrite(v1::READ));
  EXPECT_FALSE(IsWrite(v1::AUDIT));
}

TEST(TlsTest, CredentialsAndLoopback) {
  EXPECT_TRUE(ServerCredentialsFor({}).ok());
  EXPECT_TRUE(absl::IsInvalidArgument(ServerCredentialsFor({"", "key.pem", ""}).status()));
  EXPECT_TRUE(
      absl::IsInvalidArgument(ServerCredentialsFor({"/nonexistent.pem", "k", ""}).status()));
  EXPECT_TRUE(IsLoopback("127.0.0.1:50051"));
  EXPECT_TRUE(IsLoopback("localhost:0"));
  EXPECT_TRUE(IsLoopback("[::1]:50051"));
  EXPECT_FALSE(IsLoopback("0.0.0.0:50051"));
  EXPECT_FALSE(IsLoopback("[::]:50051"));
}

TEST_F(AuthServiceTest, OpenWithoutTokensAndNoActorCanBeClaimed) {
  Start();
  ASSERT_TRUE(Create("", "g1").ok());
  ASSERT_TRUE(Phone("", "g1", 1'780'000'010).ok());
  const auto events = Events("", "g1");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].event().actor(), "") << "an unauthenticated client cannot name an actor";
}

TEST_F(AuthServiceTest, RolesDecideAndNothingIsWrittenOnRefusal) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string arbiter = Token(Role::kArbiter, "Li Wei", {"g1"});
  const std::string auditor = Token(Role::kAuditor, "KPMG");
  const std::string software = Token(Role::kSoftware, "broadcast");

  ASSERT_TRUE(Create(chief, "g1").ok());
  ASSERT_TRUE(Create(chief, "g2").ok());
  const uint64_t head = Head();

  EXPECT_EQ(Create("", "g3").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Create("arb_00", "g3").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Create(arbiter, "g3").error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Phone("", "g1", 1'780'000'010).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Phone(software, "g1", 1'780'000'010).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Phone(auditor, "g1", 1'780'000'010).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Phone(arbiter, "g2", 1'780'000'010).error_code(), grpc::StatusCode::PERMISSION_DENIED)
      << "an arbiter records only in the games assigned to them";
  EXPECT_EQ(Head(), head) << "a refused call wrote something";

  ASSERT_TRUE(Phone(arbiter, "g1", 1'780'000'010).ok());
  ASSERT_TRUE(Phone(chief, "g2", 1'780'000'010).ok());
  const auto g1 = Events(software, "g1");
  ASSERT_EQ(g1.size(), 2u);
  EXPECT_TRUE(absl::StartsWith(g1[0].event().actor(), "Wang Ru (CHIEF_ARBITER, token "))
      << g1[0].event().actor();
  EXPECT_TRUE(absl::StartsWith(g1[1].event().actor(), "Li Wei (ARBITER, token "))
      << g1[1].event().actor() << ": the authenticated caller, not what the client claimed";

  {
    grpc::ClientContext c;
    Auth(&c, software);
    v1::VerifyGameRequest req;
    req.set_name("games/g1");
    v1::VerifyGameResponse out;
    EXPECT_EQ(stub_->VerifyGame(&c, req, &out).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  }
  {
    grpc::ClientContext c;
    Auth(&c, auditor);
    v1::VerifyGameRequest req;
    req.set_name("games/g1");
    v1::VerifyGameResponse out;
    grpc::Status s = stub_->VerifyGame(&c, req, &out);
    EXPECT_NE(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
    EXPECT_NE(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << s.error_message();
  }

  // Revocation takes effect on the next call.
  for (const TokenInfo& t : std::vector<TokenInfo>(tokens_->List().value())) {
    if (t.name == "Li Wei") {
      ASSERT_TRUE(tokens_->Revoke(t.id).ok());
    }
  }
  EXPECT_EQ(Phone(arbiter, "g1", 1'780'000'020).error_code(), grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(AuthServiceTest, ChiefArbiterClausesAreTheChiefArbiters) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string arbiter = Token(Role::kArbiter, "Li Wei", {"*"});
  ASSERT_TRUE(Create(chief, "g1").ok());
  {  // Black plays, then a disputed displacement (17.5): the chief arbiter rules.
    grpc::ClientContext c;
    Auth(&c, arbiter);
    v1::AppendEventsRequest req;
    req.set_game("games/g1");
    v1::Event* move = req.add_events();
    move->mutable_at()->set_seconds(1'780'000'010);
    move->mutable_move()->set_color(v1::BLACK);
    move->mutable_move()->set_point("Q16");
    v1::Event* displaced = req.add_events();
    displaced->mutable_at()->set_seconds(1'780'000'020);
    v1::Displacement* d = displaced->mutable_stones_displaced()->add_points();
    d->set_from("Q16");
    d->set_to("R16");
    displaced->mutable_stones_displaced()->set_agreement(v1::StonesDisplaced::NONE);
    displaced->mutable_stones_displaced()->set_by_color(v1::WHITE);
    v1::AppendEventsResponse out;
    grpc::Status s = stub_->AppendEvents(&c, req, &out);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  uint32_t pending = 0;
  {
    grpc::ClientContext c;
    Auth(&c, arbiter);
    v1::ListRulingsRequest req;
    req.set_game("games/g1");
    v1::ListRulingsResponse out;
    ASSERT_TRUE(stub_->ListRulings(&c, req, &out).ok());
    for (const v1::Ruling& r : out.rulings()) {
      if (r.pending() && r.decided_by() == v1::CHIEF_ARBITER) pending = r.number();
    }
  }
  ASSERT_NE(pending, 0u) << "the disputed displacement awaits the chief arbiter";
  const uint64_t head = Head();
  auto decide = [&](const std::string& token) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::DecideRequest req;
    req.set_game("games/g1");
    req.set_ruling(pending);
    req.set_choice("RESTORE");
    req.mutable_at()->set_seconds(1'780'000'030);
    v1::AppendEventsResponse out;
    return stub_->Decide(&c, req, &out);
  };
  grpc::Status s = decide(arbiter);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  EXPECT_EQ(Head(), head);
  // Nor through AppendEvents: the same decision, or a ruling on an appeal,
  // sent as an event by an arbiter is refused and writes nothing.
  auto append = [&](const std::string& token, const std::function<void(v1::Event*)>& fill) {
    grpc::ClientContext c;
    Auth(&c, token);
    v1::AppendEventsRequest req;
    req.set_game("games/g1");
    v1::Event* e = req.add_events();
    e->mutable_at()->set_seconds(1'780'000'030);
    fill(e);
    v1::AppendEventsResponse out;
    return stub_->AppendEvents(&c, req, &out);
  };
  s = append(arbiter, [&](v1::Event* e) {
    e->mutable_arbiter_decision()->set_ruling(pending);
    e->mutable_arbiter_decision()->set_choice("RESTORE");
  });
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  s = append(arbiter, [&](v1::Event* e) {
    e->mutable_appeal_decided()->set_ruling(pending);
    e->mutable_appeal_decided()->set_upheld(true);
  });
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  EXPECT_EQ(Head(), head);
  s = decide(chief);
  EXPECT_NE(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
}

// Authority is decided per event, against the game as it stands after the
// earlier events of the same batch: an arbiter cannot create the chief
// arbiter's pending ruling and decide it in one AppendEvents.
TEST_F(AuthServiceTest, ABatchCannotDecideTheChiefArbitersRulingItCreates) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string arbiter = Token(Role::kArbiter, "Li Wei", {"*"});
  ASSERT_TRUE(Create(chief, "g1").ok());
  const uint64_t head = Head();
  grpc::ClientContext c;
  Auth(&c, arbiter);
  v1::AppendEventsRequest req;
  req.set_game("games/g1");
  v1::Event* move = req.add_events();
  move->mutable_at()->set_seconds(1'780'000'010);
  move->mutable_move()->set_color(v1::BLACK);
  move->mutable_move()->set_point("Q16");
  v1::Event* displaced = req.add_events();
  displaced->mutable_at()->set_seconds(1'780'000'020);
  v1::Displacement* d = displaced->mutable_stones_displaced()->add_points();
  d->set_from("Q16");
  d->set_to("R16");
  displaced->mutable_stones_displaced()->set_agreement(v1::StonesDisplaced::NONE);
  displaced->mutable_stones_displaced()->set_by_color(v1::WHITE);
  v1::Event* decision = req.add_events();
  decision->mutable_at()->set_seconds(1'780'000'030);
  decision->mutable_arbiter_decision()->set_ruling(1);  // the 17.5 ruling the batch creates
  decision->mutable_arbiter_decision()->set_choice("RESTORE");
  v1::AppendEventsResponse out;
  const grpc::Status s = stub_->AppendEvents(&c, req, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  EXPECT_TRUE(absl::StrContains(s.error_message(), "chief arbiter")) << s.error_message();
  EXPECT_EQ(Head(), head) << "the whole batch is refused";
}

// Only a role that may create games creates one, whatever the RPC: a
// gameCreated sent through AppendEvents by an arbiter (even for a game id
// assigned to them) is refused.
TEST_F(AuthServiceTest, AnArbiterCreatesNoGameThroughAppendEvents) {
  Start();
  const std::string arbiter = Token(Role::kArbiter, "Li Wei", {"g9"});
  const grpc::Status s = Append(arbiter, "g9", 1'780'000'000, [](v1::Event* e) {
    e->mutable_game_created()->set_game_id("g9");
    e->mutable_game_created()->set_ruleset("cn-2002");
    e->mutable_game_created()->set_board_size(19);
  });
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  EXPECT_TRUE(absl::StrContains(s.error_message(), "gameCreated")) << s.error_message();
  EXPECT_EQ(Head(), 0u);
}

TEST_F(AuthServiceTest, AnExpiredTokenIsUnauthenticatedAndSaysSo) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru", {}, absl::Hours(720));
  ASSERT_TRUE(Create(chief, "g1").ok());
  const uint64_t head = Head();
  now_ = now_.load() + absl::Hours(720);
  const grpc::Status s = Phone(chief, "g1", 1'780'000'010);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << s.error_message();
  EXPECT_TRUE(absl::StrContains(s.error_message(), "expired")) << s.error_message();
  EXPECT_EQ(Head(), head);
  EXPECT_EQ(Create("", "g2").error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << "expired tokens do not reopen the server";
}

// A call names one caller: with two authorization headers (an ARBITER's
// token and a chief arbiter's) it was admitted as whichever came first, so
// the order of headers a proxy or a client library wrote chose the role.
// Refused either way, whatever the method, and nothing written.
TEST_F(AuthServiceTest, ACallWithTwoAuthorizationHeadersIsRefused) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string arbiter = Token(Role::kArbiter, "Li Wei", {"g1"});
  ASSERT_TRUE(Create(chief, "g1").ok());
  ASSERT_TRUE(Create(chief, "g2").ok());
  const uint64_t head = Head();
  for (const auto& [first, second] :
       {std::pair{arbiter, chief}, std::pair{chief, arbiter}, std::pair{chief, chief}}) {
    grpc::ClientContext c;
    Auth(&c, first);
    Auth(&c, second);
    v1::AppendEventsRequest req;
    req.set_game("games/g2");
    v1::Event* e = req.add_events();
    e->mutable_at()->set_seconds(1'780'000'010);
    e->mutable_phone_rang()->set_color(v1::BLACK);
    v1::AppendEventsResponse out;
    const grpc::Status s = stub_->AppendEvents(&c, req, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED) << s.error_message();
    EXPECT_TRUE(absl::StrContains(s.error_message(), "2 authorization headers"))
        << s.error_message();
    EXPECT_FALSE(absl::StrContains(s.error_message(), "arb_")) << s.error_message();
  }
  grpc::ClientContext c;
  Auth(&c, chief);
  Auth(&c, chief);
  v1::GetGameRequest get;
  get.set_name("games/g1");
  v1::Game game;
  EXPECT_EQ(stub_->GetGame(&c, get, &game).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Head(), head);
  // One header, as ever.
  EXPECT_TRUE(Phone(chief, "g2", 1'780'000'010).ok());
}

// 16.3-16.4, 23.1: the result is confirmed by both players and the arbiter of
// the game, so only an arbiter assigned to it (or the chief arbiter) records
// the confirmation, and only of a result not yet confirmed.
TEST_F(AuthServiceTest, OnlyTheGamesArbiterConfirmsItsResultOnce) {
  Start();
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string arbiter = Token(Role::kArbiter, "Li Wei", {"g1"});
  const std::string neighbour = Token(Role::kArbiter, "Zhao Lin", {"g2"});
  const std::string auditor = Token(Role::kAuditor, "KPMG");
  const std::string software = Token(Role::kSoftware, "broadcast");
  ASSERT_TRUE(Create(chief, "g1").ok());
  ASSERT_TRUE(Create(chief, "g2").ok());

  uint64_t head = Head();
  grpc::Status s = Confirm(arbiter, "g1", 1'780'000'010);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << s.error_message();
  EXPECT_TRUE(absl::StrContains(s.error_message(), "no result yet")) << s.error_message();
  EXPECT_EQ(Head(), head);

  ASSERT_TRUE(Append(arbiter, "g1", 1'780'000'020, [](v1::Event* e) {
                e->mutable_resign()->set_color(v1::WHITE);
              }).ok());
  head = Head();
  for (const std::string& t : {software, auditor, neighbour}) {
    s = Confirm(t, "g1", 1'780'000'030);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED) << s.error_message();
  }
  EXPECT_EQ(Confirm("", "g1", 1'780'000'030).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Head(), head) << "a refused confirmation wrote something";

  s = Confirm(arbiter, "g1", 1'780'000'030);
  ASSERT_TRUE(s.ok()) << s.error_message();
  const auto events = Events(software, "g1");
  ASSERT_TRUE(events.back().event().has_result_confirmed());
  EXPECT_TRUE(absl::StartsWith(events.back().event().actor(), "Li Wei (ARBITER, token "))
      << events.back().event().actor();

  head = Head();
  s = Confirm(chief, "g1", 1'780'000'040);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << s.error_message();
  EXPECT_TRUE(absl::StrContains(s.error_message(), "already confirmed")) << s.error_message();
  EXPECT_EQ(Head(), head);

  // The chief arbiter confirms in any game.
  ASSERT_TRUE(Append(neighbour, "g2", 1'780'000'020, [](v1::Event* e) {
                e->mutable_resign()->set_color(v1::BLACK);
              }).ok());
  s = Confirm(chief, "g2", 1'780'000'030);
  EXPECT_TRUE(s.ok()) << s.error_message();
}

TEST_F(AuthServiceTest, RateLimitPerCaller) {
  AuthLimits limits;
  limits.writes_per_second = 0.001;
  limits.write_burst = 2;
  Start(limits);
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  const std::string other = Token(Role::kChiefArbiter, "Deputy");
  ASSERT_TRUE(Create(chief, "g1").ok());
  ASSERT_TRUE(Phone(chief, "g1", 1'780'000'010).ok());
  const uint64_t head = Head();
  grpc::Status s = Phone(chief, "g1", 1'780'000'020);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  // When the next write is allowed: a token a thousand seconds at this rate.
  const std::string& m = s.error_message();
  const std::string said = "rate limit: at most 0.001 writes per second; the next is allowed in ";
  ASSERT_EQ(m.rfind(said, 0), 0u) << m;
  int ms = 0;
  ASSERT_TRUE(absl::SimpleAtoi(m.substr(said.size(), m.find(' ', said.size()) - said.size()), &ms))
      << m;
  EXPECT_GT(ms, 990'000) << m;
  EXPECT_LE(ms, 1'000'000) << m;
  EXPECT_TRUE(absl::EndsWith(m, " ms: retry then, with backoff")) << m;
  EXPECT_EQ(Head(), head);
  EXPECT_TRUE(Phone(other, "g1", 1'780'000'030).ok()) << "limits are per caller";
}

// A bucket that never holds a whole call (a burst under one, which the
// server's flags never set) admits nothing, and says so rather than a wait
// after which the call would be refused again.
TEST_F(AuthServiceTest, ABurstUnderOneCallSaysNoneIsAllowed) {
  AuthLimits limits;
  limits.writes_per_second = 0.1;
  limits.write_burst = 0.5;
  Start(limits);
  const grpc::Status s = Create(Token(Role::kChiefArbiter, "Wang Ru"), "g1");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  EXPECT_EQ(s.error_message(),
            "rate limit: at most 0.1 writes per second, in bursts of less than one call: none is "
            "ever allowed");
}

TEST_F(AuthServiceTest, RateZeroMeansNoLimit) {
  AuthLimits limits;
  limits.writes_per_second = 0;
  limits.write_burst = 0;
  Start(limits);
  const std::string chief = Token(Role::kChiefArbiter, "Wang Ru");
  for (int i = 0; i < 50; ++i) {
    const grpc::Status s = Create(chief, absl::StrCat("g", i));
    ASSERT_TRUE(s.ok()) << "write " << i << ": " << s.error_message();
  }
}

// The stamped actor read back for the slip (issue 43.4): the name, role and
// token of one the service wrote, brackets in the name kept; any other
// actor whole as the name.
TEST(AuthActor, TheStampedActorReadsBackAsNameRoleAndToken) {
  const RecordedActor li = ParseActor(ActorOf("Li Wei", Role::kChiefArbiter, "52bd175a"));
  EXPECT_EQ(li.name, "Li Wei");
  EXPECT_EQ(li.role, Role::kChiefArbiter);
  EXPECT_EQ(li.token_id, "52bd175a");
  EXPECT_EQ(ActorOf("Li Wei", Role::kChiefArbiter, "52bd175a"),
            "Li Wei (CHIEF_ARBITER, token 52bd175a)");
  const RecordedActor bracketed = ParseActor(ActorOf("Wang (Ru)", Role::kArbiter, "1a2b3c4d"));
  EXPECT_EQ(bracketed.name, "Wang (Ru)");
  EXPECT_EQ(bracketed.role, Role::kArbiter);
  for (const char* other : {"server:clock", "Zhang San", "Zhang San (floor)",
                            "Zhang San (REFEREE, token 1a2b3c4d)", "Zhang San (ARBITER, token )"}) {
    const RecordedActor actor = ParseActor(other);
    EXPECT_EQ(actor.name, other);
    EXPECT_FALSE(actor.role.has_value()) << other;
    EXPECT_EQ(actor.token_id, "") << other;
  }
}

}  // namespace
}  // namespace arbiter::service
