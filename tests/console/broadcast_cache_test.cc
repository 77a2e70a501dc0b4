// The public broadcast behind an HTTP cache (issue 46.4): Debian's nginx,
// started by the test with a config of its own in a temporary folder on a
// free port of 127.0.0.1, caches `arbiter serve --broadcast` with
// proxy_cache_lock (one request fills an entry, the others wait for it),
// proxy_cache_revalidate (an expired entry is asked again with the
// server's ETag: If-None-Match, answered 304) and proxy_cache_use_stale
// updating (the others get the stale copy meanwhile). 200 viewers poll a
// round's page for several of its max-age periods while moves are
// recorded; the server is asked at most once per URL per max-age (1 s),
// revalidations included: nginx logs every request it sends the server,
// with the time it ended and the server's status, and the test reads
// that log. Skipped only when nginx is not installed.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/temp_dir.h"

namespace {

using ::arbiter::testing::ProcessResult;
using ::arbiter::testing::RunCli;
using ::arbiter::testing::ServerProcess;
using ::arbiter::testing::TempDir;

constexpr char kNginx[] = "/usr/sbin/nginx";

// A port of 127.0.0.1 free now.
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    close(fd);
    return 0;
  }
  close(fd);
  return ntohs(a.sin_port);
}

std::string At(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

// nginx in the foreground with `dir`/nginx.conf, its files all in `dir`.
class Nginx {
 public:
  Nginx(const std::string& dir, const std::string& upstream, int port) : dir_(dir), port_(port) {
    // As root, nginx's workers would run as nobody, who cannot write the
    // test's folder (mkdtemp's 0700).
    std::ofstream(dir + "/nginx.conf") << absl::StrCat(
        geteuid() == 0 ? "user root;" : "", R"(
daemon off;
worker_processes 2;
pid )",
        dir, R"(/nginx.pid;
error_log )",
        dir, R"(/error.log warn;
events { worker_connections 2048; }
http {
  log_format upstream '$msec $request_uri $upstream_status $upstream_cache_status';
  access_log )",
        dir, R"(/access.log upstream;
  client_body_temp_path )",
        dir, R"(/body;
  proxy_temp_path )",
        dir, R"(/proxy;
  fastcgi_temp_path )",
        dir, R"(/fastcgi;
  uwsgi_temp_path )",
        dir, R"(/uwsgi;
  scgi_temp_path )",
        dir, R"(/scgi;
  proxy_cache_path )",
        dir,
        R"(/cache levels=1:2 keys_zone=broadcast:4m max_size=64m inactive=10m use_temp_path=off;
  server {
    listen 127.0.0.1:)",
        port, R"(;
    location / {
      proxy_pass http://)",
        upstream, R"(;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_cache broadcast;
      proxy_cache_lock on;
      proxy_cache_lock_timeout 10s;
      proxy_cache_lock_age 10s;
      proxy_cache_revalidate on;
      proxy_cache_use_stale updating;
    }
  }
}
)");
    pid_ = fork();
    if (pid_ == 0) {
      execl(kNginx, kNginx, "-p", dir.c_str(), "-e", (dir + "/error.log").c_str(), "-c",
            (dir + "/nginx.conf").c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~Nginx() {
    if (pid_ > 0) {
      kill(pid_, SIGQUIT);
      arbiter::testing::Wait(pid_);
    }
  }

  // Whether it answers on its port within 10 s.
  bool Up() {
    const absl::Time deadline = absl::Now() + absl::Seconds(10);
    while (absl::Now() < deadline) {
      httplib::Client c("127.0.0.1", port_);
      c.set_connection_timeout(1);
      if (httplib::Result r = c.Get("/broadcast"); r) return true;
      absl::SleepFor(absl::Milliseconds(100));  // polling for nginx's start, nothing else
    }
    return false;
  }

  // Every request nginx sent the server: (URL, the time it ended).
  std::vector<std::pair<std::string, double>> UpstreamRequests() const {
    std::vector<std::pair<std::string, double>> out;
    std::ifstream log(dir_ + "/access.log");
    std::string line;
    while (std::getline(log, line)) {
      std::vector<std::string> f = absl::StrSplit(line, ' ');
      double at = 0;
      if (f.size() < 4 || !absl::SimpleAtod(f[0], &at)) continue;
      // "-": served from the cache (a HIT, a STALE copy while another
      // request updates it, or after waiting on the cache lock).
      if (f[2] != "-") out.emplace_back(f[1], at);
    }
    return out;
  }
  int Requests() const {
    std::ifstream log(dir_ + "/access.log");
    return static_cast<int>(
        std::count(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>(), '\n'));
  }
  std::string ErrorLog() const {
    std::ifstream f(dir_ + "/error.log");
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }

 private:
  std::string dir_;
  int port_;
  pid_t pid_ = -1;
};

TEST(BroadcastCacheTest, TwoHundredViewersCostTheServerOneRequestPerUrlPerMaxAge) {
  if (access(kNginx, X_OK) != 0) {
    GTEST_SKIP() << "nginx is absent (" << kNginx << "): apt-get install nginx to run this test";
  }
  TempDir dir("broadcast-cache");
  std::unique_ptr<ServerProcess> server = ServerProcess::Start(
      dir.path() + "/data",
      {"--http", "127.0.0.1:0", "--broadcast", "--trusted-proxy", "127.0.0.1"});
  ASSERT_NE(server, nullptr);
  auto cli = [&](const std::vector<std::string>& args, const std::string& input = "") {
    const ProcessResult r = RunCli(args, input, server->address());
    EXPECT_EQ(r.exit, 0) << r.err;
  };
  cli({"tournament", "create", "--id", "cup", "--system", "swiss", "--rounds", "3", "--main-time",
       "90m", "--player", "A:Li,Xuan:5D", "--player", "B:Wang,Ming:4D", "--player", "C:Chen,Jie:1K",
       "--player", "D:Zhou,Yu:2K"});
  cli({"tournament", "pair", "cup", "--round", "1", "--board", "A,B", "--board", "C,D"});
  cli({"tournament", "start-round", "cup", "--round", "1"});
  const absl::Time start = absl::Now();
  cli({"record", "-", "--game", "cup-r1-b1"},
      absl::StrCat(R"({"at": ")", At(start + absl::Seconds(1)), R"(", "gameStarted": {}})", "\n"));

  const int port = FreePort();
  ASSERT_GT(port, 0);
  Nginx nginx(dir.path(), server->console_address(), port);
  ASSERT_TRUE(nginx.Up()) << nginx.ErrorLog();

  // 200 viewers, each polling the round's page as fast as it answers, for
  // 5 s (five of its max-age periods), while a move is recorded each second.
  constexpr int kViewers = 200;
  const absl::Duration kPolling = absl::Seconds(5);
  std::atomic<int> answers{0}, failures{0};
  const absl::Time polling_ends = absl::Now() + kPolling;
  std::vector<std::thread> viewers;
  for (int v = 0; v < kViewers; ++v) {
    viewers.emplace_back([&] {
      httplib::Client c("127.0.0.1", port);
      c.set_connection_timeout(5);
      c.set_read_timeout(10);
      while (absl::Now() < polling_ends) {
        httplib::Result r = c.Get("/broadcast/cup/1");
        if (r && r->status == 200) {
          ++answers;
        } else {
          ++failures;
        }
      }
    });
  }
  const char* points[] = {"Q16", "D4", "Q4", "D16", "C3"};
  for (int m = 0; m < 5; ++m) {
    cli({"record", "-", "--game", "cup-r1-b1"},
        absl::StrCat(R"({"at": ")", At(start + absl::Seconds(2 + m)), R"(", "move": {"color": ")",
                     m % 2 == 0 ? "BLACK" : "WHITE", R"(", "point": ")", points[m], R"("}})",
                     "\n"));
    absl::SleepFor(absl::Seconds(1));  // the pace of play, not a synchronisation
  }
  for (std::thread& t : viewers) t.join();

  EXPECT_EQ(failures.load(), 0) << nginx.ErrorLog().substr(0, 2000);
  EXPECT_GT(answers.load(), kViewers * 5) << "the viewers polled";
  std::map<std::string, std::vector<double>> by_url;
  for (const auto& [url, at] : nginx.UpstreamRequests()) by_url[url].push_back(at);
  ASSERT_FALSE(by_url["/broadcast/cup/1"].empty()) << nginx.ErrorLog();
  for (auto& [url, times] : by_url) {
    std::sort(times.begin(), times.end());
    // 5 s of polling, max-age 1 s, plus the first fill and nginx.Up()'s.
    EXPECT_LE(times.size(), 8u) << url << ": " << times.size() << " requests reached the server";
    for (size_t i = 1; i < times.size(); ++i) {
      // An entry is asked again only once it expired: a max-age after the
      // answer that filled it (nginx logs to the millisecond, by a clock it
      // reads once per turn of its loop).
      EXPECT_GE(times[i] - times[i - 1], 0.95)
          << url << ": two requests to the server within one max-age";
    }
  }
  std::cout << "viewers' answers: " << answers.load()
            << ", requests to the server: " << nginx.UpstreamRequests().size() << "\n";
  // And once its copy expires, a viewer gets the latest released: move 5.
  httplib::Client c("127.0.0.1", port);
  bool latest = false;
  for (const absl::Time deadline = absl::Now() + absl::Seconds(5);
       !latest && absl::Now() < deadline;) {
    httplib::Result r = c.Get("/broadcast/cup/1");
    latest = r && r->body.find("<td class=\"num move\">5</td>") != std::string::npos;
  }
  EXPECT_TRUE(latest) << "the cache never showed move 5";
}

}  // namespace
