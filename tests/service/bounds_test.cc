// Issue 13.4, "bounds in bytes everywhere", tried from outside: a real
// `arbiter serve` of each test's own (so its data directory and its process
// are the test's to read), a gRPC client that knows only the contract, and
// the `arbiter` binary. A game of several MiB exports and shows its history
// in full; watchers that do not read are cut off and the server's memory
// stays bounded; every request's strings have byte limits.
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/grpcpp.h"
#include "ledger/log_reader.h"
#include "proto/canonical/canonical_bytes.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

using google::protobuf::util::MessageDifferencer;
using grpc::StatusCode;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

constexpr size_t kNoteBytes = 1000;
constexpr size_t kPage = 1 << 20;  // DOMAIN.md "Bounds and retries"

std::unique_ptr<grpc::ClientContext> Context(const std::string& token = "") {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(30)));
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  return ctx;
}

v1::AppendEventsResponse AppendOk(v1::Arbiter::Stub& stub, const std::string& game,
                                  const std::vector<v1::Event>& events, const std::string& token) {
  v1::AppendEventsRequest req;
  req.set_game("games/" + game);
  for (const v1::Event& e : events) *req.add_events() = e;
  v1::AppendEventsResponse resp;
  const grpc::Status s = stub.AppendEvents(Context(token).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_code() << ": " << s.error_message();
  return resp;
}

uint32_t LastRuling(const v1::AppendEventsResponse& resp) {
  uint32_t last = 0;
  for (const v1::RecordedEvent& e : resp.events()) {
    for (const v1::Ruling& r : e.rulings()) last = std::max(last, r.number());
  }
  return last;
}

// Records game `id` under cn-1988 with `pairs` disturbances (24.2, pending
// {ADVICE, WARNING}), each decided ADVICE with a note of kNoteBytes: about
// 1.1 KB of events per pair, every event within its limits, and no result.
void RecordNotedGame(v1::Arbiter::Stub& stub, const std::string& id, int pairs,
                     const std::string& token = "") {
  v1::Event created = Created(id, T0());
  created.mutable_game_created()->set_ruleset("cn-1988");
  AppendOk(stub, id, {created, Started(T0())}, token);
  absl::Time t = T0();
  auto disturbance = [&] {
    t += absl::Seconds(1);
    v1::Event e = At(t);
    e.mutable_misconduct()->set_color(v1::BLACK);
    e.mutable_misconduct()->set_kind(v1::Misconduct::DISTURBANCE);
    return e;
  };
  auto advice = [&](uint32_t ruling, int n) {
    t += absl::Seconds(1);
    v1::Event e = At(t);
    e.mutable_arbiter_decision()->set_ruling(ruling);
    e.mutable_arbiter_decision()->set_choice("ADVICE");
    std::string note = absl::StrCat("disturbance ", n, ": ");
    note.resize(kNoteBytes, 'n');
    e.mutable_arbiter_decision()->set_note(note);
    return e;
  };
  // The first pair shows how many rulings a pair makes; batches follow.
  const uint32_t first = LastRuling(AppendOk(stub, id, {disturbance()}, token));
  ASSERT_GT(first, 0u) << "the disturbance made no ruling";
  const uint32_t per_pair = LastRuling(AppendOk(stub, id, {advice(first, 0)}, token)) + 1 - first;
  uint32_t next = first + per_pair;
  for (int done = 1; done < pairs;) {
    std::vector<v1::Event> batch;
    for (int k = 0; k < 200 && done < pairs; ++k, ++done, next += per_pair) {
      batch.push_back(disturbance());
      batch.push_back(advice(next, done));
    }
    const v1::AppendEventsResponse resp = AppendOk(stub, id, batch, token);
    ASSERT_EQ(LastRuling(resp), next - 1) << "the rulings of a pair are not as the first pair's";
  }
}

// One line of /proc/PID/status ("VmRSS", "VmHWM"), in KiB.
int64_t ProcStatusKiB(pid_t pid, const std::string& field) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(in, line)) {
    if (!absl::StartsWith(line, field + ":")) continue;
    int64_t kib = 0;
    std::string digits;
    for (char c : line) {
      if (c >= '0' && c <= '9') digits += c;
    }
    if (absl::SimpleAtoi(digits, &kib)) return kib;
  }
  ADD_FAILURE() << "no " << field << " in /proc/" << pid << "/status";
  return 0;
}

// 1. Every response under the message limit: ExportGame in pages of at most
// 1 MiB that the CLI follows; the history and the export hold every event,
// byte for byte as the ledger stores it. Before paging, `export` of such a
// game failed with "message larger than max".
TEST(BoundsTest, AGameOfSeveralMiBExportsAndShowsItsHistoryInFull) {
  TempDir dir("arbiter-bounds-export");
  auto server = ServerProcess::Start(dir.File("data"));
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  constexpr int kPairs = 2500;
  RecordNotedGame(*stub, "big-1", kPairs);
  if (HasFatalFailure()) return;
  absl::SleepFor(absl::Milliseconds(1500));  // the tail's checkpoint (--sign-within 1s) is signed

  // The ledger, read directly: every event of the game as stored.
  absl::StatusOr<ledger::LogReader> reader = ledger::LogReader::Open(dir.File("data/ledger.db"));
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<std::vector<v1::LedgerEntry>> stored = reader->ReadGame("big-1", 0, 1 << 20);
  ASSERT_TRUE(stored.ok()) << stored.status();
  ASSERT_EQ(stored->size(), 2u + 2 * kPairs);
  size_t event_bytes = 0;
  for (const v1::LedgerEntry& e : *stored) event_bytes += e.event().size();
  EXPECT_GT(event_bytes, size_t{2} << 20) << "the game is not several MiB";

  // The pages, as a client sees them.
  v1::ExportGameRequest req;
  req.set_name("games/big-1");
  req.set_format(v1::ExportGameRequest::JSON);
  std::string paged;
  int pages = 0;
  do {
    v1::ExportGameResponse page;
    const grpc::Status s = stub->ExportGame(Context().get(), req, &page);
    ASSERT_TRUE(s.ok()) << s.error_code() << ": " << s.error_message();
    EXPECT_LE(page.ByteSizeLong(), kPage + 1024);
    EXPECT_LE(page.content().size(), kPage);
    paged += page.content();
    if (!page.next_page_token().empty()) {
      EXPECT_GT(page.total_bytes(), paged.size());
    }
    req.set_page_token(page.next_page_token());
    ++pages;
  } while (!req.page_token().empty());
  EXPECT_GT(pages, 4);

  // A token of this export does not cut another file.
  v1::ExportGameRequest other = req;
  other.set_format(v1::ExportGameRequest::SGF);
  other.set_page_token(absl::StrCat("x", kPage, ".0123456789abcdef"));
  v1::ExportGameResponse refused;
  EXPECT_EQ(stub->ExportGame(Context().get(), other, &refused).error_code(), StatusCode::ABORTED);

  // `arbiter export --format json`: the same file, and the ledger's events.
  ProcessResult r = RunCli({"export", "big-1", "--format", "json"}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err.substr(0, 300);
  EXPECT_TRUE(r.out == paged) << "the CLI's file is not the pages' (" << r.out.size() << " and "
                              << paged.size() << " bytes)";
  v1::GameRecord exported;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &exported).ok());
  ASSERT_EQ(exported.events_size(), static_cast<int>(stored->size()));
  for (int i = 0; i < exported.events_size(); ++i) {
    SCOPED_TRACE(i);
    const v1::RecordedEvent& e = exported.events(i);
    const v1::LedgerEntry& s = (*stored)[i];
    ASSERT_EQ(CanonicalBytes(e.event()), s.event());
    ASSERT_EQ(e.position(), s.position());
    ASSERT_EQ(e.revision(), s.revision());
    ASSERT_EQ(e.rulings_size(), s.rulings_size());
    for (int k = 0; k < e.rulings_size(); ++k) {
      ASSERT_TRUE(MessageDifferencer::Equals(e.rulings(k), s.rulings(k)));
    }
  }

  // `arbiter history`: the same record.
  r = RunCli({"history", "big-1", "--json"}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err.substr(0, 300);
  v1::GameRecord history;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &history).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(history, exported));
  r = RunCli({"history", "big-1"}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err.substr(0, 300);
  EXPECT_TRUE(absl::StrContains(r.out, absl::StrCat("events (", stored->size(), "):")));

  // The audit bundle through gRPC is the one read offline from the ledger.
  r = RunCli({"export", "big-1", "--format", "bundle", "--out", dir.File("served.bundle")}, "",
             server->address());
  ASSERT_EQ(r.exit, 0) << r.err.substr(0, 300);
  r = RunArbiter(
      {"export", "big-1", "--db", dir.File("data"), "--bundle", dir.File("offline.bundle")});
  ASSERT_EQ(r.exit, 0) << r.err.substr(0, 300);
  const std::string served = ReadFile(dir.File("served.bundle"));
  EXPECT_GT(served.size(), kPage);
  EXPECT_TRUE(served == ReadFile(dir.File("offline.bundle")));
  r = RunArbiter({"verify", "--bundle", dir.File("served.bundle")});
  EXPECT_EQ(r.exit, 0) << r.out << r.err;

  // SGF, whose comments carry every note.
  r = RunCli({"export", "big-1", "--format", "sgf"}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err.substr(0, 300);
  EXPECT_TRUE(absl::StartsWith(r.out, "(;"));
  EXPECT_TRUE(absl::StrContains(r.out, absl::StrCat("disturbance ", kPairs - 1, ": ")));
}

// 2. Watchers that never read: the documented maximum of streams (16 per
// caller, 64 on a server) all open and stalled while many MiB are recorded.
// Each is cut off with RESOURCE_EXHAUSTED once its buffer passes 1 MiB, and
// the server's peak memory stays within what the buffers allow. Before, a
// stalled watcher was never cut off.
TEST(BoundsTest, WatchersThatDoNotReadAreCutOffAndTheServerStaysBounded) {
  TempDir dir("arbiter-bounds-watch");
  const std::string data = dir.File("data");
  const std::string writer = CreateToken(data, "CHIEF_ARBITER", "writer");
  std::vector<std::string> watchers;
  for (int i = 0; i < 5; ++i) watchers.push_back(CreateToken(data, "SOFTWARE", "watcher"));
  for (const std::string& t : watchers) ASSERT_FALSE(t.empty());
  ASSERT_FALSE(writer.empty());
  auto server = ServerProcess::Start(data);
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  RecordNotedGame(*stub, "watched-1", 10, writer);  // there is something to catch up on
  if (HasFatalFailure()) return;

  // A client that reads nothing: no window growth, small windows.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 16 * 1024);
  struct Stalled {
    std::unique_ptr<grpc::ClientContext> ctx;
    std::unique_ptr<grpc::ClientReader<v1::WatchResponse>> reader;
  };
  std::vector<std::unique_ptr<v1::Arbiter::Stub>> stubs;
  std::vector<Stalled> stalled;
  const int64_t rss_before = ProcStatusKiB(server->pid(), "VmRSS");
  for (int caller = 0; caller < 4; ++caller) {
    stubs.push_back(v1::Arbiter::NewStub(
        grpc::CreateCustomChannel(server->address(), grpc::InsecureChannelCredentials(), args)));
    for (int i = 0; i < 16; ++i) {
      Stalled w;
      w.ctx = std::make_unique<grpc::ClientContext>();
      w.ctx->AddMetadata("authorization", "Bearer " + watchers[caller]);
      v1::WatchAllRequest req;
      w.reader = stubs.back()->WatchAll(w.ctx.get(), req);
      stalled.push_back(std::move(w));
    }
  }
  absl::SleepFor(absl::Milliseconds(300));  // all 64 admitted
  // The caps: a 17th stream of one caller, a 65th of the server.
  for (const auto& [token, why] : {std::pair{watchers[0], std::string("per caller")},
                                   std::pair{watchers[4], std::string("on this server")}}) {
    auto ctx = Context(token);
    v1::WatchAllRequest req;
    auto reader = stub->WatchAll(ctx.get(), req);
    v1::WatchResponse m;
    while (reader->Read(&m)) {
    }
    const grpc::Status s = reader->Finish();
    EXPECT_EQ(s.error_code(), StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
    EXPECT_TRUE(absl::StrContains(s.error_message(), why)) << s.error_message();
  }

  // Many MiB recorded while they do not read (each stream sees all of it).
  RecordNotedGame(*stub, "flood-1", 3000, writer);
  if (HasFatalFailure()) return;
  absl::SleepFor(absl::Seconds(1));  // the streams' feeders are past the last event
  const int64_t peak = ProcStatusKiB(server->pid(), "VmHWM");
  // 64 streams of at most 1 MiB of buffer each (plus the message being
  // written, a read batch and a reader's page cache), and the recording
  // itself: under this (measured: about 140 MiB). Unbounded, each stream
  // would hold what was recorded, 64 times 6 MiB. Under AddressSanitizer the
  // server's memory is not its own (shadow memory, quarantine).
  constexpr int64_t kBoundKiB = (64 + 128) * 1024;
  if (!kSanitized) {
    EXPECT_LT(peak - rss_before, kBoundKiB)
        << "the server grew from " << rss_before << " KiB to a peak of " << peak << " KiB";
  }

  // Each reads at last: what was sent to it, then RESOURCE_EXHAUSTED.
  for (size_t i = 0; i < stalled.size(); ++i) {
    SCOPED_TRACE(i);
    int events = 0;
    v1::WatchResponse m;
    while (stalled[i].reader->Read(&m)) events += m.has_event() ? 1 : 0;
    const grpc::Status s = stalled[i].reader->Finish();
    EXPECT_EQ(s.error_code(), StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
    EXPECT_TRUE(absl::StrContains(s.error_message(), "after_position ")) << s.error_message();
    EXPECT_LT(s.error_message().size(), 1024u);
    EXPECT_GT(events, 0);
    EXPECT_LT(events, 3000) << "it was not cut off";
  }

  // A watcher that reads gets all of it, history included, without a cut.
  absl::SleepFor(absl::Milliseconds(300));  // the server has closed the cut streams
  auto ctx = Context(watchers[0]);
  v1::WatchAllRequest req;
  auto reader = stub->WatchAll(ctx.get(), req);
  v1::WatchResponse m;
  int events = 0;
  while (reader->Read(&m) && !m.has_caught_up()) ++events;
  EXPECT_EQ(events, 2 + 2 * 10 + 2 + 2 * 3000);
  ctx->TryCancel();
  while (reader->Read(&m)) {
  }
  reader->Finish();
}

// 3. Every string of every request has a byte limit, checked before a
// handler reads it: INVALID_ARGUMENT naming the field, quoting 16 bytes.
TEST(BoundsTest, EveryRequestStringHasAByteLimit) {
  TempDir dir("arbiter-bounds-requests");
  auto server = ServerProcess::Start(dir.File("data"));
  ASSERT_NE(server, nullptr);
  auto stub = StubFor(server->address());
  auto tournaments = v1::TournamentService::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  RecordNotedGame(*stub, "fields-1", 1);
  if (HasFatalFailure()) return;
  const std::string x8k(8000, 'x'), x100k(100000, 'x'), x3m(3 << 20, 'x');

  auto refused = [](const grpc::Status& s, const std::string& field) {
    SCOPED_TRACE(field);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << s.error_message().substr(0, 200);
    EXPECT_TRUE(absl::StrContains(s.error_message(), field + ":"))
        << s.error_message().substr(0, 200);
    EXPECT_LT(s.error_message().size(), 200u) << s.error_message().substr(0, 200);
    EXPECT_TRUE(absl::StrContains(s.error_message(), "\"xxxxxxxxxxxxxxxx\"…"))
        << s.error_message().substr(0, 200);
  };
  {
    v1::CreateGameRequest req;
    req.mutable_game()->set_game_id("fields-2");
    req.set_request_id(x3m);
    v1::Game out;
    refused(stub->CreateGame(Context().get(), req, &out), "requestId");
  }
  {
    v1::GetGameRequest req;
    req.set_name(x100k);
    v1::Game out;
    refused(stub->GetGame(Context().get(), req, &out), "name");
  }
  {
    v1::ListEventsRequest req;
    req.set_game("games/fields-1");
    req.set_page_token(x8k);
    v1::ListEventsResponse out;
    refused(stub->ListEvents(Context().get(), req, &out), "pageToken");
  }
  {
    v1::ExportGameRequest req;
    req.set_name("games/fields-1");
    req.set_format(v1::ExportGameRequest::JSON);
    req.set_page_token(std::string(200, 'x'));
    v1::ExportGameResponse out;
    refused(stub->ExportGame(Context().get(), req, &out), "pageToken");
  }
  {
    v1::DecideRequest req;
    req.set_game("games/fields-1");
    req.set_ruling(1);
    req.set_choice("ADVICE");
    req.set_note(x8k);
    v1::AppendEventsResponse out;
    refused(stub->Decide(Context().get(), req, &out), "note");
    req.set_note("");
    req.set_choice(x100k);
    refused(stub->Decide(Context().get(), req, &out), "choice");
  }
  {
    v1::WatchGameRequest req;
    req.set_game(x100k);
    auto ctx = Context();
    auto reader = stub->WatchGame(ctx.get(), req);
    v1::WatchResponse m;
    EXPECT_FALSE(reader->Read(&m));
    refused(reader->Finish(), "game");
  }
  {
    v1::CreateTournamentRequest req;
    req.mutable_tournament()->set_tournament_id(std::string(1000, 'x'));
    v1::Tournament out;
    refused(tournaments->CreateTournament(Context().get(), req, &out), "tournament.tournamentId");
    req.mutable_tournament()->set_tournament_id("cup");
    req.add_players()->set_name(x8k);
    refused(tournaments->CreateTournament(Context().get(), req, &out), "players[0].name");
  }
  {
    v1::GetStandingsRequest req;
    req.set_tournament(x100k);
    v1::StandingsReport out;
    refused(tournaments->GetStandings(Context().get(), req, &out), "tournament");
  }
  // A tournament whose players, each within the limits, would pass 2 MiB:
  // refused, so GetTournament's answer stays under the message limit.
  {
    v1::CreateTournamentRequest create;
    create.mutable_tournament()->set_tournament_id("cup");
    create.mutable_tournament()->mutable_settings()->set_system(v1::TournamentSettings::SWISS);
    v1::Tournament out;
    const grpc::Status created = tournaments->CreateTournament(Context().get(), create, &out);
    ASSERT_TRUE(created.ok()) << created.error_message();
    grpc::Status added;
    int batches = 0;
    // Players of about 1.3 KB (five strings of 250 bytes): the record
    // passes 2 MiB at the fourth batch of 500.
    for (int player = 0; added.ok() && batches < 6; ++batches) {
      v1::AddPlayersRequest req;
      req.set_tournament("tournaments/cup");
      for (int k = 0; k < 500; ++k, ++player) {
        v1::TournamentPlayer* p = req.add_players();
        p->set_id(absl::StrCat("p", player));
        p->set_rank("1D");
        for (std::string* field :
             {p->mutable_name(), p->mutable_first_name(), p->mutable_club(),
              p->mutable_romanized_family_name(), p->mutable_romanized_given_name()}) {
          *field = std::string(250, 'n');
        }
      }
      added = tournaments->AddPlayers(Context().get(), req, &out);
    }
    EXPECT_EQ(added.error_code(), StatusCode::INVALID_ARGUMENT) << added.error_message();
    EXPECT_TRUE(absl::StrContains(added.error_message(), "at most 2097152"))
        << added.error_message();
    v1::GetTournamentRequest get;
    get.set_name("tournaments/cup");
    const grpc::Status got = tournaments->GetTournament(Context().get(), get, &out);
    ASSERT_TRUE(got.ok()) << got.error_message();
    EXPECT_LE(out.ByteSizeLong(), size_t{2} << 20);
  }
  // A batch of events, each within 16 KiB, over 1 MiB together.
  {
    std::vector<v1::Event> batch;
    for (int i = 0; i < 100; ++i) {
      v1::Event e = At(T0() + absl::Hours(2) + absl::Seconds(i));
      e.mutable_capture_error()->set_color(v1::WHITE);
      e.mutable_capture_error()->set_kind(v1::CaptureError::REMOVED_LIVE);
      for (int k = 0; k < 2500; ++k) e.mutable_capture_error()->add_points("Q16");
      batch.push_back(std::move(e));
    }
    v1::AppendEventsResponse out;
    const grpc::Status s = Append(*stub, "fields-1", batch, &out);
    EXPECT_EQ(s.error_code(), StatusCode::INVALID_ARGUMENT) << s.error_message();
    EXPECT_TRUE(absl::StrContains(s.error_message(), "in one batch")) << s.error_message();
  }
  v1::Game game;
  ASSERT_TRUE(GetGame(*stub, "fields-1", &game).ok());
  EXPECT_EQ(game.revision(), 4u) << "a refused request wrote something";
}

}  // namespace
}  // namespace arbiter::testing
