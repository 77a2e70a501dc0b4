// Issue 32.1, the console's side: the pages following /api/feed (Server-
// Sent Events) hold no thread each (followers.h). Through a real `arbiter
// serve --http` child process and raw sockets, TLS through OpenSSL.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/service/e2e_util.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/self_signed.h"
#include "tests/support/temp_dir.h"

namespace arbiter::testing {
namespace {

// A socket connected to the console at `address` (host:port); `mss` > 0
// makes it announce that segment size (so the server's send buffer stays
// small), `rcvbuf` > 0 that receive buffer. -1 on failure.
int Dial(const std::string& address, int mss = 0, int rcvbuf = 0) {
  const size_t colon = address.rfind(':');
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<uint16_t>(std::stoi(address.substr(colon + 1))));
  inet_pton(AF_INET, address.substr(0, colon).c_str(), &sa.sin_addr);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  if (mss > 0) setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof mss);
  if (rcvbuf > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  if (connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string FeedRequest(const std::string& address, const std::string& last_event_id = "") {
  return absl::StrCat(
      "GET /api/feed HTTP/1.1\r\nHost: ", address, "\r\nAccept: text/event-stream\r\n",
      last_event_id.empty() ? "" : "Last-Event-ID: " + last_event_id + "\r\n", "\r\n");
}

// Plain pages following the feed, read together with poll(2).
class FeedPages {
 public:
  // `burst` > 0: opens that many at a time, each group following before the
  // next opens. The console lets kMaxWaitingConnections wait for its
  // threads and answers the rest 503 (a browser asks again later,
  // static/live.js), which a loaded machine reaches with a thousand at once.
  FeedPages(const std::string& address, int n, const std::string& last_event_id = "",
            int burst = 0) {
    const std::string request = FeedRequest(address, last_event_id);
    for (int i = 0; i < n; ++i) {
      if (burst > 0 && i > 0 && i % burst == 0) AwaitAll(": following", absl::Seconds(30));
      const int fd = Dial(address);
      if (fd < 0 || send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
                        static_cast<ssize_t>(request.size())) {
        ADD_FAILURE() << "page " << i << " could not connect";
        if (fd >= 0) close(fd);
        continue;
      }
      polls_.push_back({fd, POLLIN, 0});
      got_.emplace_back();
    }
  }
  ~FeedPages() {
    for (const pollfd& p : polls_) close(p.fd);
  }
  int size() const { return static_cast<int>(polls_.size()); }
  const std::string& got(int i) const { return got_[i]; }

  // Reads until every page has received `text`, for at most `wait`; how
  // many have.
  int AwaitAll(const std::string& text, absl::Duration wait) { return AwaitCount(text, 1, wait); }
  // The same for `count` times `text`.
  int AwaitCount(const std::string& text, int count, absl::Duration wait) {
    const absl::Time give_up = absl::Now() + wait;
    for (;;) {
      int have = 0;
      for (const std::string& g : got_) {
        int times = 0;
        for (size_t at = g.find(text); at != std::string::npos; at = g.find(text, at + 1)) ++times;
        have += times >= count ? 1 : 0;
      }
      if (have == size() || absl::Now() >= give_up) return have;
      if (poll(polls_.data(), polls_.size(), 100) <= 0) continue;
      for (size_t i = 0; i < polls_.size(); ++i) {
        if ((polls_[i].revents & (POLLIN | POLLHUP)) == 0) continue;
        char chunk[8192];
        const ssize_t n = recv(polls_[i].fd, chunk, sizeof chunk, MSG_DONTWAIT);
        if (n > 0) got_[i].append(chunk, static_cast<size_t>(n));
        if (n == 0) polls_[i].events = 0;  // closed: poll it no more
      }
    }
  }

 private:
  std::vector<pollfd> polls_;
  std::vector<std::string> got_;
};

// The i-th stone of a game on every other point: no capture, no suicide.
v1::Event StoneAt(int i) {
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";
  return MoveAt(T0() + absl::Seconds(10 + i), i % 2 ? v1::WHITE : v1::BLACK,
                absl::StrCat(std::string(1, kColumns[(i % 10) * 2]), (i / 10) * 2 + 1));
}

void Record(v1::Arbiter::Stub& stub, const std::string& game, const std::vector<v1::Event>& e) {
  v1::AppendEventsResponse resp;
  const grpc::Status s = Append(stub, game, e, &resp);
  ASSERT_TRUE(s.ok()) << game << ": " << s.error_code() << ": " << s.error_message();
}

class ConsoleFollowersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Over a thousand sockets here: the soft open-file limit is often 1024.
    rlimit r{};
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
      r.rlim_cur = r.rlim_max;
      setrlimit(RLIMIT_NOFILE, &r);
    }
  }
  // `ca`: the server's certificate (PEM) when it serves TLS.
  void Serve(std::vector<std::string> flags = {}, const std::string& ca = "") {
    flags.insert(flags.begin(), {"--http", "127.0.0.1:0"});
    server_ = ServerProcess::Start(dir_.File("data"), flags);
    ASSERT_NE(server_, nullptr);
    ASSERT_FALSE(server_->console_address().empty()) << server_->log();
    if (ca.empty()) {
      stub_ = StubFor(server_->address());
      return;
    }
    grpc::SslCredentialsOptions tls;
    std::ifstream in(ca);
    tls.pem_root_certs.assign(std::istreambuf_iterator<char>(in), {});
    stub_ =
        v1::Arbiter::NewStub(grpc::CreateChannel(server_->address(), grpc::SslCredentials(tls)));
  }
  const std::string& console() const { return server_->console_address(); }

  TempDir dir_{"arbiter-followers"};
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<v1::Arbiter::Stub> stub_;
};

// A thousand pages follow at once (the cap was 200, each page a thread of
// the server's): the server's thread count does not grow with them, and
// one commit reaches every page.
TEST_F(ConsoleFollowersTest, AThousandPagesHoldNoThreadEach) {
  Serve();
  Record(*stub_, "g", {Created("g", T0()), Started(T0())});
  constexpr int kPages = 1000;
  FeedPages warm(console(), 1);  // the loop and the pool are up
  ASSERT_EQ(warm.AwaitAll(": following", absl::Seconds(10)), 1);
  const int64_t before = ProcStatusField(server_->pid(), "Threads");
  FeedPages pages(console(), kPages, "", /*burst=*/200);
  ASSERT_EQ(pages.size(), kPages);
  ASSERT_EQ(pages.AwaitAll(": following", absl::Seconds(30)), kPages) << server_->log();
  const int64_t open = ProcStatusField(server_->pid(), "Threads");
  EXPECT_LE(open, before + 8) << "threads: " << before << " with one page, " << open << " with "
                              << kPages + 1;

  const absl::Time sent = absl::Now();
  Record(*stub_, "g", {StoneAt(0)});
  EXPECT_EQ(pages.AwaitAll("\"revision\":\"3\"", absl::Seconds(20)), kPages);
  std::fprintf(stderr, "one commit reached %d pages in %.0f ms\n", kPages,
               absl::ToDoubleMilliseconds(absl::Now() - sent));
  EXPECT_TRUE(absl::StrContains(pages.got(kPages - 1), "event: game"));
  EXPECT_LE(ProcStatusField(server_->pid(), "Threads"), before + 8);
}

// A page that reads nothing fills its socket and then its queue: it is cut
// off (its stream ends before the last events), and the reading pages get
// every event meanwhile.
TEST_F(ConsoleFollowersTest, APageThatDoesNotReadIsCutOffAlone) {
  Serve();
  // Games whose every message is about 800 bytes (the names near their
  // bound), so a few hundred commits pass the page's 256 KiB queue.
  constexpr int kGames = 12;
  constexpr int kStones = 90;
  for (int g = 0; g < kGames; ++g) {
    v1::Event created = Created(absl::StrCat("g", g), T0());
    created.mutable_game_created()->mutable_black()->set_name(std::string(250, 'b'));
    created.mutable_game_created()->mutable_white()->set_name(std::string(250, 'w'));
    Record(*stub_, absl::StrCat("g", g), {created, Started(T0())});
  }
  // A small segment size and receive buffer: what the kernel holds for it
  // stays far below the volume sent.
  const int stuck = Dial(console(), 536, 4096);
  ASSERT_GE(stuck, 0);
  const std::string request = FeedRequest(console());
  ASSERT_EQ(send(stuck, request.data(), request.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(request.size()));
  FeedPages reading(console(), 4);
  ASSERT_EQ(reading.AwaitAll(": following", absl::Seconds(10)), 4);

  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w) {
    writers.emplace_back([&, w] {
      auto stub = StubFor(server_->address());
      for (int i = 0; i < kStones; ++i) {
        for (int g = w; g < kGames; g += 4) Record(*stub, absl::StrCat("g", g), {StoneAt(i)});
      }
    });
  }
  for (std::thread& t : writers) t.join();
  // Every reading page has every game's last revision, at once.
  const std::string last = absl::StrCat("\"revision\":\"", 2 + kStones, "\"");
  EXPECT_EQ(reading.AwaitCount(last, kGames, absl::Seconds(5)), reading.size());
  size_t volume = 0;
  for (int p = 0; p < reading.size(); ++p) volume = std::max(volume, reading.got(p).size());
  EXPECT_GT(volume, size_t{640} * 1024) << "too little was sent to fill the stuck page";

  // Now the stuck page reads: what was queued for it, then the end of the
  // stream, short of the last events.
  std::string got;
  bool ended = false;
  const absl::Time until = absl::Now() + absl::Seconds(20);
  while (absl::Now() < until) {
    pollfd p{stuck, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char chunk[16384];
    const ssize_t n = recv(stuck, chunk, sizeof chunk, 0);
    if (n <= 0) {
      ended = true;
      break;
    }
    got.append(chunk, static_cast<size_t>(n));
  }
  close(stuck);
  std::fprintf(stderr, "sent to each reading page: %zu bytes; to the page that did not read: %zu\n",
               volume, got.size());
  EXPECT_TRUE(ended) << "the page that did not read still follows (" << got.size() << " bytes)";
  EXPECT_TRUE(absl::StrContains(got, ": following"));
  EXPECT_LT(got.size(), volume) << "the page that did not read got everything";
}

// The server's stop ends every parked page's stream (the last chunk of the
// chunked answer) and closes it.
TEST_F(ConsoleFollowersTest, StoppingTheServerEndsEveryPage) {
  Serve();
  FeedPages pages(console(), 50);
  ASSERT_EQ(pages.AwaitAll(": following", absl::Seconds(10)), 50);
  server_->Stop(SIGTERM);
  EXPECT_EQ(pages.AwaitAll("\r\n0\r\n\r\n", absl::Seconds(10)), 50) << pages.got(0);
}

// Last-Event-ID resumes a page where it was: the events after it come at
// once, those before it do not come again.
TEST_F(ConsoleFollowersTest, LastEventIdResumes) {
  Serve();
  Record(*stub_, "g", {Created("g", T0()), Started(T0())});
  FeedPages first(console(), 1);
  ASSERT_EQ(first.AwaitAll(": following", absl::Seconds(10)), 1);
  Record(*stub_, "g", {StoneAt(0)});
  ASSERT_EQ(first.AwaitAll("\"revision\":\"3\"", absl::Seconds(10)), 1);
  const std::string& text = first.got(0);
  const size_t id_at = text.rfind("id: ");
  ASSERT_NE(id_at, std::string::npos) << text;
  const std::string id = text.substr(id_at + 4, text.find('\n', id_at) - id_at - 4);
  // Recorded while no page follows.
  Record(*stub_, "g", {StoneAt(1)});
  Record(*stub_, "g", {StoneAt(2)});
  FeedPages resumed(console(), 1, id);
  ASSERT_EQ(resumed.AwaitAll("\"revision\":\"5\"", absl::Seconds(10)), 1) << resumed.got(0);
  EXPECT_TRUE(absl::StrContains(resumed.got(0), "\"revision\":\"4\"")) << resumed.got(0);
  EXPECT_FALSE(absl::StrContains(resumed.got(0), "\"revision\":\"3\"")) << resumed.got(0);
}

// A page over TLS follows as a plain one does, with plain pages beside it.
TEST_F(ConsoleFollowersTest, ATlsPageFollows) {
  const std::string cert = dir_.File("cert.pem");
  const std::string key = dir_.File("key.pem");
  ASSERT_TRUE(WriteSelfSignedCertificate(cert, key));
  Serve({"--tls-cert", cert, "--tls-key", key}, cert);
  Record(*stub_, "g", {Created("g", T0()), Started(T0())});

  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_client_method()),
                                                        SSL_CTX_free);
  ASSERT_NE(ctx, nullptr);
  const int fd = Dial(console());
  ASSERT_GE(fd, 0);
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), SSL_free);
  SSL_set_fd(ssl.get(), fd);
  ASSERT_EQ(SSL_connect(ssl.get()), 1);
  const std::string request = FeedRequest(console());
  ASSERT_EQ(SSL_write(ssl.get(), request.data(), static_cast<int>(request.size())),
            static_cast<int>(request.size()));
  std::string got;
  auto await = [&](const std::string& text) {
    const absl::Time give_up = absl::Now() + absl::Seconds(10);
    while (!absl::StrContains(got, text) && absl::Now() < give_up) {
      if (SSL_pending(ssl.get()) == 0) {
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0) continue;
      }
      char chunk[4096];
      const int n = SSL_read(ssl.get(), chunk, sizeof chunk);
      if (n <= 0) break;
      got.append(chunk, static_cast<size_t>(n));
    }
    return absl::StrContains(got, text);
  };
  ASSERT_TRUE(await(": following")) << got << server_->log();
  EXPECT_TRUE(absl::StrContains(got, "Content-Type: text/event-stream")) << got;
  for (int i = 0; i < 3; ++i) {
    Record(*stub_, "g", {StoneAt(i)});
    EXPECT_TRUE(await(absl::StrCat("\"revision\":\"", 3 + i, "\""))) << got;
  }
  SSL_shutdown(ssl.get());
  close(fd);
}

}  // namespace
}  // namespace arbiter::testing
