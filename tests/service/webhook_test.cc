// Signed webhooks (issue 46.1-2) through real `arbiter serve` processes and
// a receiver in the test (an HTTP server on 127.0.0.1): every delivery's
// Standard Webhooks signature (v1a, with the whpk_ written beside the
// key) and proof (a tlog-proof against ledger.vkey) is checked as it
// arrives; a server killed (SIGKILL) mid-delivery and started again loses
// none and sends no id with two bodies; a 410 disables an endpoint.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "ledger/ledger.h"
#include "ledger/note_key.h"
#include "ledger/receipt.h"
#include "ledger/webhook_signature.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/event_lines.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

constexpr absl::Duration kPatience = absl::Seconds(60);

struct Delivery {
  std::string id;
  std::string timestamp;
  std::string signature;
  std::string body;
  std::string type;
  std::string stream;  // data.game or data.tournament
  std::string check;   // "" when its signature and proof verify, else why not
};

// An HTTP server on 127.0.0.1 that keeps every request to /hook and checks it.
class Receiver {
 public:
  Receiver(std::string whpk, std::string vkey) : whpk_(std::move(whpk)), vkey_(std::move(vkey)) {
    server_.Post("/hook", [this](const httplib::Request& req, httplib::Response& res) {
      Delivery d = Check(req);
      absl::MutexLock lock(&mu_);
      deliveries_.push_back(d);
      if (hang_at_ == static_cast<int>(deliveries_.size())) {
        hung_ = true;  // the test kills the server now
        mu_.Await(absl::Condition(&released_));
      }
      res.status = status_;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~Receiver() {
    Release();
    server_.stop();
    thread_.join();
  }
  std::string url() const { return absl::StrCat("http://127.0.0.1:", port_, "/hook"); }
  void AnswerWith(int status) {
    absl::MutexLock lock(&mu_);
    status_ = status;
  }
  // The n-th request (from 1) is held until Release().
  void HangAt(int n) {
    absl::MutexLock lock(&mu_);
    hang_at_ = n;
  }
  bool AwaitHung() {
    absl::MutexLock lock(&mu_);
    return mu_.AwaitWithTimeout(absl::Condition(&hung_), kPatience);
  }
  void Release() {
    absl::MutexLock lock(&mu_);
    released_ = true;
  }
  // Waits until `done` holds of the deliveries; false after kPatience.
  bool AwaitDeliveries(std::function<bool(const std::vector<Delivery>&)> done) {
    absl::MutexLock lock(&mu_);
    auto met = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return done(deliveries_); };
    return mu_.AwaitWithTimeout(absl::Condition(&met), kPatience);
  }
  std::vector<Delivery> deliveries() {
    absl::MutexLock lock(&mu_);
    return deliveries_;
  }

 private:
  Delivery Check(const httplib::Request& req) const {
    Delivery d{req.get_header_value("webhook-id"), req.get_header_value("webhook-timestamp"),
               req.get_header_value("webhook-signature"), req.body};
    if (absl::Status s =
            ledger::VerifyWebhookSignature(whpk_, d.id, d.timestamp, d.body, d.signature);
        !s.ok()) {
      d.check = absl::StrCat("signature: ", s.message());
      return d;
    }
    int64_t ts = 0;
    if (!absl::SimpleAtoi(d.timestamp, &ts) ||
        absl::AbsDuration(absl::Now() - absl::FromUnixSeconds(ts)) > absl::Minutes(5)) {
      d.check = "timestamp out of tolerance";
      return d;
    }
    google::protobuf::Struct body;
    if (!google::protobuf::util::JsonStringToMessage(d.body, &body).ok()) {
      d.check = "body is not JSON";
      return d;
    }
    d.type = body.fields().at("type").string_value();
    const auto& data = body.fields().at("data").struct_value().fields();
    d.stream = data.contains("game") ? data.at("game").string_value()
                                     : data.at("tournament").string_value();
    absl::StatusOr<ledger::NoteVerifierKey> key = ledger::ParseVerifierKey(vkey_);
    absl::StatusOr<ledger::VerifiedReceipt> v =
        ledger::VerifyReceipt(data.at("proof").string_value(), *key, nullptr);
    if (!v.ok()) {
      d.check = absl::StrCat("proof: ", v.status().message());
    } else if (absl::StrCat(v->position) != data.at("position").string_value()) {
      d.check = "proof of another position";
    }
    return d;
  }

  const std::string whpk_;
  const std::string vkey_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  absl::Mutex mu_;
  std::vector<Delivery> deliveries_ ABSL_GUARDED_BY(mu_);
  int status_ ABSL_GUARDED_BY(mu_) = 200;
  int hang_at_ ABSL_GUARDED_BY(mu_) = 0;
  bool hung_ ABSL_GUARDED_BY(mu_) = false;
  bool released_ ABSL_GUARDED_BY(mu_) = false;
};

class WebhookTest : public ::testing::Test {
 protected:
  std::unique_ptr<ServerProcess> Serve() {
    return ServerProcess::Start(data_, {"--webhook-key", key_, "--webhook-allow-private"});
  }
  std::string Whpk() {
    return std::string(absl::StripAsciiWhitespace(ReadFile(temp_.File("webhook.pub"))));
  }
  std::string Vkey() {
    return std::string(absl::StripAsciiWhitespace(ReadFile(data_ + "/ledger.vkey")));
  }
  std::string AddWebhook(const std::string& url, const std::string& kinds) {
    ProcessResult r = RunArbiter({"webhook", "add", "--db", data_, "--url", url, "--kind", kinds});
    EXPECT_EQ(r.exit, 0) << r.err;
    return std::string(absl::StripAsciiWhitespace(r.out));
  }
  // A game whose 4th event gives ruling 1 (ruling.issued).
  void RecordRulingGame(const ServerProcess& server, const std::string& id) {
    const std::string path = temp_.File(id + ".jsonl");
    WriteFile(path, ClockFailureGame(id));
    ProcessResult r = RunCli({"record", path}, "", server.address());
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  const TempDir temp_{"arbiter-webhook"};
  const std::string data_ = temp_.File("data");
  const std::string key_ = temp_.File("webhook.key");
};

// Distinct games among the deliveries.
std::set<std::string> Games(const std::vector<Delivery>& ds) {
  std::set<std::string> out;
  for (const Delivery& d : ds) out.insert(d.stream);
  return out;
}

TEST_F(WebhookTest, KilledMidDeliveryLosesNoneAndKeepsEachIdsBody) {
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  Receiver receiver(Whpk(), Vkey());
  AddWebhook(receiver.url(), "ruling.issued");
  receiver.HangAt(2);  // the second delivery is in flight when the server dies
  for (int i = 1; i <= 3; ++i) RecordRulingGame(*server, absl::StrCat("g", i));
  ASSERT_TRUE(receiver.AwaitHung()) << server->log();
  EXPECT_EQ(server->Stop(SIGKILL), -1);
  receiver.Release();
  server = Serve();
  ASSERT_NE(server, nullptr);
  for (int i = 4; i <= 5; ++i) RecordRulingGame(*server, absl::StrCat("g", i));
  ASSERT_TRUE(receiver.AwaitDeliveries([](const std::vector<Delivery>& ds) {
    return Games(ds).size() == 5;
  })) << server->log();
  std::map<std::string, std::string> body_of;
  std::map<std::string, int> times;
  for (const Delivery& d : receiver.deliveries()) {
    EXPECT_EQ(d.check, "") << d.id;
    EXPECT_EQ(d.type, "ruling.issued");
    auto [it, first] = body_of.emplace(d.id, d.body);
    EXPECT_EQ(it->second, d.body) << d.id << " delivered with two bodies";
    ++times[d.id];
  }
  EXPECT_EQ(body_of.size(), 5u);
  // The delivery cut off by the kill was sent again, the same.
  int again = 0;
  for (const auto& [id, n] : times) again += n > 1 ? 1 : 0;
  EXPECT_GE(again, 1);
}

TEST_F(WebhookTest, A410DisablesTheEndpoint) {
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  Receiver gone(Whpk(), Vkey());
  gone.AnswerWith(410);
  Receiver witness(Whpk(), Vkey());
  const std::string id = AddWebhook(gone.url(), "ruling.issued");
  // Made after `gone`'s, so served after it in every pass of the deliverer.
  AddWebhook(witness.url(), "ruling.issued");
  RecordRulingGame(*server, "g1");
  ASSERT_TRUE(gone.AwaitDeliveries([](const auto& ds) { return ds.size() == 1; }));
  RecordRulingGame(*server, "g2");
  // The later endpoint has g2's ruling: the pass that sent it would have
  // sent `gone` its own first, had it not been disabled.
  ASSERT_TRUE(witness.AwaitDeliveries([](const auto& ds) { return Games(ds).contains("g2"); }));
  EXPECT_EQ(gone.deliveries().size(), 1u);
  ProcessResult list = RunArbiter({"webhook", "list", "--db", data_});
  EXPECT_NE(list.out.find(id + "  " + gone.url()), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("disabled"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("410 Gone"), std::string::npos) << list.out;
}

TEST_F(WebhookTest, AddRefusesBadUrlsKindsAndSecretsAndListNeverShowsTheSecret) {
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"--url", "ftp://x/", "--kind", "game.result"},
           {"--url", "http://x/", "--kind", "game.over"},
           {"--url", "http://x/", "--kind", "game.result", "--secret", "hunter2"}}) {
    std::vector<std::string> args = {"webhook", "add", "--db", data_};
    args.insert(args.end(), bad.begin(), bad.end());
    ProcessResult r = RunArbiter(args);
    EXPECT_EQ(r.exit, 2) << r.out << r.err;
  }
  EXPECT_NE(
      RunArbiter({"webhook", "add", "--db", data_, "--url", "ftp://x/", "--kind", "game.result"})
          .err.find("only http:// and https://"),
      std::string::npos);
  // No space or control character (an outside probe had CR/LF and NUL stored; a
  // NUL cannot pass through argv, the server refuses it the same way).
  for (const std::string& url :
       {std::string("http://x/crlf\r\nX-Evil: 1"), std::string("http://x/sp ace")}) {
    ProcessResult r =
        RunArbiter({"webhook", "add", "--db", data_, "--url", url, "--kind", "game.result"});
    EXPECT_EQ(r.exit, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("a space or a control character"), std::string::npos) << r.err;
  }
  const std::string secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  ProcessResult ok = RunArbiter({"webhook", "add", "--db", data_, "--url", "https://x.example/h",
                                 "--kind", "game.result,round.standings", "--secret", secret});
  ASSERT_EQ(ok.exit, 0) << ok.err;
  ProcessResult list = RunArbiter({"webhook", "list", "--db", data_});
  EXPECT_EQ(list.out.find("MfKQ9r8G"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("secret set"), std::string::npos) << list.out;
}

// A game Black wins by resignation on its 4th event (art. 13), with a
// clock malfunction's ruling before it.
TEST_F(WebhookTest, AGamesResultIsDeliveredOnceFromTheEventThatGaveIt) {
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  Receiver receiver(Whpk(), Vkey());
  AddWebhook(receiver.url(), "game.result");
  const std::string path = temp_.File("r1.jsonl");
  WriteFile(path,
            absl::StrCat(ClockFailureGame("r1"),
                         R"({"at": "2026-06-02T09:00:30Z", "resign": {"color": "WHITE"}})", "\n"));
  ProcessResult r = RunCli({"record", path}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err;
  RecordRulingGame(*server, "after");  // a later game's events: no result of r1 again
  Receiver later(Whpk(), Vkey());
  AddWebhook(later.url(), "ruling.issued");
  RecordRulingGame(*server, "last");
  // `later` is served after the first endpoint in each pass: once it has
  // the last game's ruling, the first endpoint was given every result.
  ASSERT_TRUE(later.AwaitDeliveries([](const auto& ds) { return !ds.empty(); }));
  ASSERT_TRUE(receiver.AwaitDeliveries([](const auto& ds) { return !ds.empty(); }));
  const std::vector<Delivery> ds = receiver.deliveries();
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].check, "");
  EXPECT_EQ(ds[0].type, "game.result");
  EXPECT_EQ(ds[0].stream, "r1");
  EXPECT_NE(ds[0].body.find(R"("outcome":"BLACK_WINS")"), std::string::npos) << ds[0].body;
  EXPECT_NE(ds[0].body.find(R"("revision":"5")"), std::string::npos) << ds[0].body;
}

// A chief arbiter's decision of a pending ruling goes out as
// `ruling.decided` (DOMAIN.md §10): an endpoint that asked for it alone gets
// the decision, not the pending ruling it resolves. Deliveries follow the
// log, so once the later decision is in, the earlier ruling was passed over.
TEST_F(WebhookTest, ADecisionOfAPendingRulingIsDeliveredAsRulingDecided) {
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  Receiver receiver(Whpk(), Vkey());
  AddWebhook(receiver.url(), "ruling.decided");
  RecordRulingGame(*server, "d1");  // art. 12.4.6: pending, four options
  ProcessResult r = RunCli({"decide", "d1", "1", "REPLACE_CLOCK"}, "", server->address());
  ASSERT_EQ(r.exit, 0) << r.err;
  ASSERT_TRUE(receiver.AwaitDeliveries([](const auto& ds) { return !ds.empty(); }));
  const std::vector<Delivery> ds = receiver.deliveries();
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].check, "");
  EXPECT_EQ(ds[0].type, "ruling.decided");
  EXPECT_EQ(ds[0].stream, "d1");
  EXPECT_NE(ds[0].body.find(R"("resolves":1)"), std::string::npos) << ds[0].body;
}

// The gRPC methods are the chief arbiter's; they refuse what `webhook add`
// refuses, and list an endpoint without its secret.
TEST_F(WebhookTest, TheWebhookMethodsAreTheChiefArbitersAndNeverShowTheSecret) {
  const std::string chief = CreateToken(data_, "CHIEF_ARBITER", "Chief");
  const std::string software = CreateToken(data_, "SOFTWARE", "Pairgoth");
  ASSERT_FALSE(chief.empty());
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  auto stub = v1::Arbiter::NewStub(
      grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  auto call = [&](const std::string& token, const v1::AddWebhookRequest& req) {
    grpc::ClientContext c;
    c.AddMetadata("authorization", "Bearer " + token);
    v1::Webhook out;
    return stub->AddWebhook(&c, req, &out);
  };
  v1::AddWebhookRequest req;
  req.set_url("https://results.example/hook");
  req.add_kinds("game.result");
  req.set_secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
  EXPECT_EQ(call(software, req).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::AddWebhookRequest bad = req;
  bad.set_url("ftp://results.example/");
  EXPECT_EQ(call(chief, bad).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  bad = req;
  bad.add_kinds("game.over");
  EXPECT_EQ(call(chief, bad).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  ASSERT_TRUE(call(chief, req).ok());
  grpc::ClientContext c;
  c.AddMetadata("authorization", "Bearer " + chief);
  v1::ListWebhooksResponse list;
  ASSERT_TRUE(stub->ListWebhooks(&c, {}, &list).ok());
  ASSERT_EQ(list.webhooks_size(), 1);
  EXPECT_TRUE(list.webhooks(0).has_secret());
  EXPECT_EQ(list.DebugString().find("MfKQ9r8G"), std::string::npos);
  // `arbiter webhook` without --db calls these methods with $ARBITER_TOKEN.
  const ProcessResult cli_list =
      RunCli({"webhook", "list"}, "", server->address(), {{"ARBITER_TOKEN", chief}});
  EXPECT_EQ(cli_list.exit, 0) << cli_list.err;
  EXPECT_NE(cli_list.out.find(list.webhooks(0).id() + "  https://results.example/hook"),
            std::string::npos)
      << cli_list.out;
  EXPECT_EQ(cli_list.out.find("MfKQ9r8G"), std::string::npos);
  const ProcessResult cli_add =
      RunCli({"webhook", "add", "--url", "http://x.example/", "--kind", "ruling.issued"}, "",
             server->address(), {{"ARBITER_TOKEN", software}});
  EXPECT_NE(cli_add.exit, 0);
  EXPECT_NE(cli_add.err.find("PERMISSION_DENIED"), std::string::npos) << cli_add.err;
  grpc::ClientContext r;
  r.AddMetadata("authorization", "Bearer " + chief);
  v1::RemoveWebhookRequest remove;
  remove.set_id(list.webhooks(0).id());
  v1::RemoveWebhookResponse removed;
  EXPECT_TRUE(stub->RemoveWebhook(&r, remove, &removed).ok());
}

// Two servers of one PostgreSQL database, both sending webhooks with the
// same key, both taking games: each delivery is made by one server at a
// time (the endpoint's lease), so no id arrives twice.
TEST_F(WebhookTest, TwoServersOfOneDatabaseSendEachDeliveryOnce) {
  absl::StatusOr<std::string> uri = SharedPgCluster().NewDatabase();
  ASSERT_TRUE(uri.ok()) << uri.status();
  const std::vector<std::string> flags = {"--webhook-key", key_, "--webhook-allow-private"};
  std::filesystem::create_directories(temp_.File("a"));
  auto a = ServerProcess::StartShared(*uri, temp_.File("a"), flags);
  ASSERT_NE(a, nullptr);
  std::filesystem::create_directories(temp_.File("b"));
  WriteFile(temp_.File("b") + "/ledger.key", ReadFile(temp_.File("a") + "/ledger.key"));
  auto b = ServerProcess::StartShared(*uri, temp_.File("b"), flags);
  ASSERT_NE(b, nullptr);
  Receiver receiver(
      Whpk(), std::string(absl::StripAsciiWhitespace(ReadFile(temp_.File("a") + "/ledger.vkey"))));
  ProcessResult add = RunArbiter(
      {"webhook", "add", "--db", *uri, "--url", receiver.url(), "--kind", "ruling.issued"});
  ASSERT_EQ(add.exit, 0) << add.err;
  for (int i = 1; i <= 6; ++i) RecordRulingGame(i % 2 ? *a : *b, absl::StrCat("g", i));
  ASSERT_TRUE(receiver.AwaitDeliveries([](const std::vector<Delivery>& ds) {
    return Games(ds).size() == 6;
  })) << a->log()
      << b->log();
  // A last game: once it is in, every delivery before it was made (in
  // order), by whichever server made it.
  RecordRulingGame(*b, "z");
  ASSERT_TRUE(receiver.AwaitDeliveries(
      [](const std::vector<Delivery>& ds) { return Games(ds).contains("z"); }));
  std::map<std::string, int> times;
  for (const Delivery& d : receiver.deliveries()) {
    EXPECT_EQ(d.check, "") << d.id;
    ++times[d.id];
  }
  for (const auto& [id, n] : times) EXPECT_EQ(n, 1) << id;
}

// Round 1's standings appended to the log as their producer will append
// them (a tournament's AppendRequest, with the server stopped), and signed.
void AppendStandings(const std::string& data) {
  AdjudicatorJudge judge;
  ledger::LedgerOptions o;
  o.dir = data;
  o.key_dir = data;
  o.judge = &judge;
  absl::StatusOr<std::unique_ptr<ledger::Ledger>> ledger = ledger::Ledger::Open(o);
  ASSERT_TRUE(ledger.ok()) << ledger.status();
  v1::TournamentEvent created;
  created.mutable_created()->set_tournament_id("T1");
  created.mutable_created()->set_title("Spring Open");
  v1::TournamentEvent standings;
  standings.mutable_standings_recorded()->set_round(1);
  ASSERT_TRUE((*ledger)
                  ->AppendAndWait(ledger::AppendRequest::Tournament(
                      "T1", ledger::ExpectedRevision::NoStream(), {created, standings}))
                  .ok());
  ASSERT_TRUE((*ledger)->Checkpoint().ok());
}

// `arbiter webhook verify` of files holding a delivery.
ProcessResult VerifyDelivery(const TempDir& temp, const Delivery& d, const std::string& whpk,
                             const std::string& vkey_file) {
  WriteFile(temp.File("headers"),
            absl::StrCat("webhook-id: ", d.id, "\nwebhook-timestamp: ", d.timestamp,
                         "\nwebhook-signature: ", d.signature, "\n"));
  WriteFile(temp.File("body"), d.body);
  return RunArbiter({"webhook", "verify", "--key", whpk, "--headers", temp.File("headers"),
                     "--body", temp.File("body"), "--verifier-key", vkey_file});
}

TEST_F(WebhookTest, StandingsInTheLogAreDeliveredAndVerifiedWithTheirProof) {
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  Receiver receiver(Whpk(), Vkey());
  AddWebhook(receiver.url(), "round.standings");
  ASSERT_EQ(server->Stop(SIGTERM), 0) << server->log();
  AppendStandings(data_);
  server = Serve();
  ASSERT_NE(server, nullptr);
  ASSERT_TRUE(receiver.AwaitDeliveries([](const auto& ds) { return !ds.empty(); }))
      << server->log();
  const Delivery d = receiver.deliveries().front();
  EXPECT_EQ(d.check, "");
  EXPECT_EQ(d.type, "round.standings");
  EXPECT_EQ(d.stream, "T1");
  const ProcessResult ok = VerifyDelivery(temp_, d, Whpk(), data_ + "/ledger.vkey");
  EXPECT_EQ(ok.exit, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("valid"), std::string::npos) << ok.out;
  Delivery forged = d;
  forged.body.replace(forged.body.find("T1"), 2, "T2");
  const ProcessResult bad = VerifyDelivery(temp_, forged, Whpk(), data_ + "/ledger.vkey");
  EXPECT_EQ(bad.exit, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("NOT valid"), std::string::npos) << bad.out;
}

// cli/examples/webhook_receiver.py takes a real delivery, once per id, and
// refuses one whose body was changed.
TEST_F(WebhookTest, ThePythonReceiverAcceptsARealDelivery) {
  if (testing::Run({"/usr/bin/python3", "-c", "import cryptography"}).exit != 0) {
    GTEST_SKIP() << "no python3 with cryptography";
  }
  auto server = Serve();
  ASSERT_NE(server, nullptr);
  Receiver receiver(Whpk(), Vkey());
  AddWebhook(receiver.url(), "ruling.issued");
  RecordRulingGame(*server, "g1");
  ASSERT_TRUE(receiver.AwaitDeliveries([](const auto& ds) { return !ds.empty(); }));
  const Delivery d = receiver.deliveries().front();
  // A free port for it: bound, then closed.
  int port = 0;
  {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof a;
    ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), size), 0);
    ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size), 0);
    port = ntohs(a.sin_port);
    close(fd);
  }
  const std::string db = temp_.File("received.db");
  const pid_t python = Spawn({"/usr/bin/python3", SourcePath("cli/examples/webhook_receiver.py"),
                              "--key", Whpk(), "--port", absl::StrCat(port), "--db", db});
  ASSERT_GT(python, 0);
  httplib::Client client("127.0.0.1", port);
  httplib::Headers headers = {
      {"webhook-id", d.id}, {"webhook-timestamp", d.timestamp}, {"webhook-signature", d.signature}};
  // Ready once it answers (it binds after importing its modules).
  int status = 0;
  for (const absl::Time give_up = absl::Now() + kPatience; absl::Now() < give_up && status == 0;) {
    if (httplib::Result first = client.Post("/", headers, d.body, "application/json")) {
      status = first->status;
    } else {
      absl::SleepFor(absl::Milliseconds(50));
    }
  }
  EXPECT_EQ(status, 204);
  httplib::Result again = client.Post("/", headers, d.body, "application/json");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 204);
  std::string forged = d.body;
  forged.replace(forged.find("g1"), 2, "g9");
  httplib::Result refused = client.Post("/", headers, forged, "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 401);
  kill(python, SIGTERM);
  Wait(python);
  const ProcessResult rows =
      testing::Run({"/usr/bin/python3", "-c",
                    absl::StrCat("import sqlite3; print(sqlite3.connect('", db,
                                 "').execute('SELECT count(*), min(id) FROM "
                                 "received').fetchone())")});
  EXPECT_EQ(rows.out, absl::StrCat("(1, '", d.id, "')\n"));
}

}  // namespace
}  // namespace arbiter::testing
