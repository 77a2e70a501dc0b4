// The outbound guard of webhooks (issue 46.2; .github/SECURITY.md): a
// receiver's name is resolved and every address checked before any
// connection; refused addresses are never tried. Nothing here sends beyond
// loopback: the names resolve through a stub, or to loopback itself.
#include "adjudicator/service/webhook_sender.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "ledger/signer.h"
#include "ledger/webhook_signature.h"

namespace arbiter::service {
namespace {

// A resolver that answers `addresses` for every name and counts its calls.
Resolver Stub(std::vector<std::string> addresses, int* calls) {
  return [addresses, calls](const std::string&) -> absl::StatusOr<std::vector<std::string>> {
    ++*calls;
    return addresses;
  };
}

TEST(WebhookSenderTest, RefusesForbiddenAddressesAfterResolvingBeforeConnecting) {
  struct Case {
    std::vector<std::string> resolved;
    bool allow_private;
    const char* why;
  };
  const Case cases[] = {
      {{"169.254.169.254"}, true, "metadata"},
      {{"fd00:ec2::254"}, true, "metadata"},
      {{"169.254.10.1"}, true, "link-local"},
      {{"fe80::1"}, true, "link-local"},
      {{"127.0.0.1"}, false, "loopback"},
      {{"::1"}, false, "loopback"},
      {{"10.1.2.3"}, false, "private"},
      {{"172.20.0.5"}, false, "private"},
      {{"192.168.1.10"}, false, "private"},
      {{"fd12:3456::1"}, false, "private"},
      {{"::ffff:10.0.0.1"}, false, "private"},
      {{"0.0.0.0"}, true, "not a unicast"},
      // One forbidden address among public ones is enough to refuse.
      {{"93.184.216.34", "10.0.0.9"}, false, "private"},
  };
  for (const Case& c : cases) {
    int calls = 0;
    WebhookSender sender({.allow_private = c.allow_private, .resolve = Stub(c.resolved, &calls)});
    WebhookAnswer a = sender.Post("http://receiver.example:8080/hook", {}, "{}");
    EXPECT_EQ(calls, 1) << c.resolved[0];
    EXPECT_EQ(a.status, 0) << c.resolved[0];
    EXPECT_NE(a.error.find("refused"), std::string::npos) << c.resolved[0] << ": " << a.error;
    EXPECT_NE(a.error.find(c.why), std::string::npos) << c.resolved[0] << ": " << a.error;
  }
}

TEST(WebhookSenderTest, RefusesOtherSchemesBeforeResolving) {
  int calls = 0;
  WebhookSender sender({.resolve = Stub({"93.184.216.34"}, &calls)});
  for (const char* url : {"ftp://receiver.example/", "file:///etc/passwd", "gopher://x/",
                          "http://user@receiver.example/", "http:///nohost"}) {
    WebhookAnswer a = sender.Post(url, {}, "{}");
    EXPECT_EQ(a.status, 0) << url;
    EXPECT_FALSE(a.error.empty()) << url;
  }
  EXPECT_EQ(calls, 0);
}

// `localhost` resolves (through the system's resolver) to loopback: refused
// without --webhook-allow-private, before any connection; the listener's
// first accepted connection is the one made once private targets are
// allowed, so the refused request made none.
TEST(WebhookSenderTest, ANameResolvingToLoopbackIsRefusedWithoutConnecting) {
  httplib::Server server;
  std::atomic<int> requests{0};
  std::vector<std::string> paths;
  absl::Mutex mu;
  server.Post(".*", [&](const httplib::Request& req, httplib::Response& res) {
    absl::MutexLock lock(&mu);
    paths.push_back(req.path);
    ++requests;
    res.status = 200;
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  std::thread t([&] { server.listen_after_bind(); });
  const std::string base = absl::StrCat("http://localhost:", port);
  WebhookSender guarded({});
  WebhookAnswer refused = guarded.Post(base + "/refused", {}, "{}");
  EXPECT_EQ(refused.status, 0);
  EXPECT_NE(refused.error.find("loopback"), std::string::npos) << refused.error;
  WebhookSender open({.allow_private = true});
  WebhookAnswer sent = open.Post(base + "/allowed", {{"webhook-id", "msg_1"}}, "{}");
  EXPECT_EQ(sent.status, 200) << sent.error;
  server.stop();
  t.join();
  absl::MutexLock lock(&mu);
  EXPECT_EQ(paths, std::vector<std::string>{"/allowed"});
}

// No redirect is followed, and only the first few KiB of an answer are read.
TEST(WebhookSenderTest, FollowsNoRedirectAndReadsLittleOfTheAnswer) {
  httplib::Server server;
  std::atomic<int> elsewhere{0};
  server.Post("/moved", [](const httplib::Request&, httplib::Response& res) {
    res.status = 307;
    res.set_header("Location", "/elsewhere");
  });
  server.Post("/elsewhere", [&](const httplib::Request&, httplib::Response& res) {
    ++elsewhere;
    res.status = 200;
  });
  server.Post("/big", [](const httplib::Request&, httplib::Response& res) {
    res.status = 503;
    res.set_header("Retry-After", "120");
    res.set_content(std::string(1 << 20, 'x'), "text/plain");
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  std::thread t([&] { server.listen_after_bind(); });
  WebhookSender sender({.allow_private = true});
  const std::string base = absl::StrCat("http://127.0.0.1:", port);
  EXPECT_EQ(sender.Post(base + "/moved", {}, "{}").status, 307);
  WebhookAnswer big = sender.Post(base + "/big", {}, "{}");
  EXPECT_EQ(big.status, 503);
  ASSERT_TRUE(big.retry_after.has_value());
  EXPECT_EQ(*big.retry_after, absl::Seconds(120));
  server.stop();
  t.join();
  EXPECT_EQ(elsewhere.load(), 0);
}

// The v1 signature is the specification's: its published example (the
// Standard Webhooks README's secret, id, timestamp and payload).
TEST(WebhookSignatureTest, V1IsTheSpecificationsHmacAndV1aVerifies) {
  absl::StatusOr<ledger::Signer> key = ledger::Signer::FromEd25519Seed(std::string(32, '\x07'));
  ASSERT_TRUE(key.ok());
  const std::string id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const std::string ts = "1614265330";
  const std::string body = R"({"test": 2432232314})";
  absl::StatusOr<std::string> sig =
      ledger::SignWebhook(*key, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", id, ts, body);
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_TRUE(absl::EndsWith(*sig, " v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")) << *sig;
  const std::string whpk = ledger::WebhookPublicKey(*key);
  EXPECT_TRUE(ledger::VerifyWebhookSignature(whpk, id, ts, body, *sig).ok());
  EXPECT_TRUE(absl::IsDataLoss(ledger::VerifyWebhookSignature(whpk, id, "1614265331", body, *sig)));
  EXPECT_TRUE(absl::IsInvalidArgument(ledger::SignWebhook(*key, "hunter2", id, ts, body).status()));
}

}  // namespace
}  // namespace arbiter::service
