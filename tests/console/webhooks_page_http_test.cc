// Issue 46.2: what failed for good is listed "by `webhook list` and on the
// console". Through a real `arbiter serve --http` on 127.0.0.1: the chief
// arbiter's /webhooks page lists an endpoint's delivery that failed for good
// (its id, kind, attempts, last error, how to send it again), never the
// endpoint's `whsec_` secret, and is the chief arbiter's alone, as the
// ListWebhooks method is.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "ledger/server_tables.h"
#include "ledger/store.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/console_client.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

constexpr char kSecret[] = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
constexpr char kEndpoint[] = "wh_5e1f00d";
constexpr char kDelivery[] = "msg_0000000000000007_game.result";

class WebhooksPageTest : public ::testing::Test {
 protected:
  std::string data() const { return dir_.path() + "/data"; }

  std::string Token(const std::string& role, const std::string& name) {
    std::string token = ::arbiter::testing::CreateToken(data(), role, name);
    EXPECT_FALSE(token.empty()) << "arbiter token create failed";
    return token;
  }

  // The store as a server leaves it once a delivery used its last retry:
  // an endpoint with a secret, and that delivery marked failed.
  void KeepAFailedDelivery() {
    auto store = ledger::OpenStore(data());
    ASSERT_TRUE(store.ok()) << store.status();
    auto tables = (*store)->OpenServerTables(/*read_only=*/false);
    ASSERT_TRUE(tables.ok()) << tables.status();
    ledger::WebhookRow hook;
    hook.id = kEndpoint;
    hook.url = "https://results.example.org/arbiter";
    hook.kinds = "game.result,round.standings";
    hook.secret = kSecret;
    hook.created = 1780390800;
    ASSERT_TRUE((*tables)->AddWebhook(hook).ok());
    ledger::DeliveryRow delivery;
    delivery.endpoint = kEndpoint;
    delivery.id = kDelivery;
    delivery.position = 7;
    delivery.kind = "game.result";
    delivery.body = R"({"type":"game.result"})";
    ASSERT_TRUE((*tables)->AdvanceWebhook(kEndpoint, 7, {delivery}).ok());
    delivery.attempts = 8;
    delivery.failed = true;
    delivery.last_error = "HTTP 503";
    ASSERT_TRUE((*tables)->UpdateDelivery(delivery).ok());
  }

  void Serve() {
    server_ = ServerProcess::Start(data(), {"--http", "127.0.0.1:0"});
    ASSERT_NE(server_, nullptr);
    ASSERT_FALSE(server_->console_address().empty()) << server_->log();
  }

  std::unique_ptr<httplib::Client> Client() { return ::arbiter::testing::ConsoleClient(*server_); }

  // Signs in with `token`: the session cookie ("arbiter_session=...").
  std::string SignIn(const std::string& token) {
    std::string cookie = ::arbiter::testing::SignIn(*server_, token);
    EXPECT_FALSE(cookie.empty()) << "no session for the token";
    return cookie;
  }

  TempDir dir_{"console-webhooks-test"};
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(WebhooksPageTest, TheChiefArbiterSeesWhatFailedForGoodAndNeverASecret) {
  const std::string chief = Token("CHIEF_ARBITER", "Li Wei");
  const std::string floor = Token("ARBITER", "Zhang San");
  KeepAFailedDelivery();
  Serve();

  httplib::Result page = Client()->Get("/webhooks", {{"Cookie", SignIn(chief)}});
  ASSERT_TRUE(page);
  ASSERT_EQ(page->status, 200) << page->body;
  const std::string& html = page->body;
  EXPECT_TRUE(absl::StrContains(html, kEndpoint)) << html;
  EXPECT_TRUE(absl::StrContains(html, "https://results.example.org/arbiter")) << html;
  EXPECT_TRUE(absl::StrContains(html, kDelivery)) << html;
  EXPECT_TRUE(absl::StrContains(html, "HTTP 503")) << html;
  EXPECT_TRUE(absl::StrContains(html, "彻底失败的推送")) << html;
  EXPECT_TRUE(absl::StrContains(html, "Failed for good")) << html;
  EXPECT_TRUE(absl::StrContains(html, absl::StrCat("arbiter webhook retry ", kEndpoint))) << html;
  // Each language keeps its own punctuation: a reader who chose Chinese sees
  // "类型：", not an English colon left between the two languages' words.
  EXPECT_TRUE(absl::StrContains(html, "类型：")) << html;
  EXPECT_FALSE(absl::StrContains(html, "</span>: ")) << html;
  // The secret is stored, and named as set, but never shown.
  EXPECT_FALSE(absl::StrContains(html, "whsec_")) << html;
  EXPECT_FALSE(absl::StrContains(html, "MfKQ9r8GKYqr")) << html;

  // A floor arbiter may not list webhooks over gRPC, nor here.
  httplib::Result denied = Client()->Get("/webhooks", {{"Cookie", SignIn(floor)}});
  ASSERT_TRUE(denied);
  EXPECT_EQ(denied->status, 403) << denied->body;
  EXPECT_FALSE(absl::StrContains(denied->body, kDelivery));
  // Nor anyone not signed in: the sign-in page.
  httplib::Result anonymous = Client()->Get("/webhooks");
  ASSERT_TRUE(anonymous);
  EXPECT_EQ(anonymous->status, 303);
  EXPECT_FALSE(absl::StrContains(anonymous->body, kDelivery));
}

}  // namespace
}  // namespace arbiter::testing
