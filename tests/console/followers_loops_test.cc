// Issue 46.5: the broadcast's viewers are parked on one loop per core
// (followers.h), not on one thread for all: each loop holds its share of
// the pages, and a message reaches the pages of every loop. In the
// process, over socket pairs, with a feed of the test's own.
#include "adjudicator/service/console/followers.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/service/console/connection.h"
#include "adjudicator/service/console/feed_source.h"
#include "adjudicator/service/console/loop_host.h"
#include "gtest/gtest.h"

namespace arbiter::service::console {
namespace {

// Messages numbered from 1, added by the test.
class TestFeed final : public FeedSource {
 public:
  TestFeed() : wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}
  ~TestFeed() override { close(wake_); }
  int wake_fd() const override { return wake_; }
  FeedBatch Next(uint64_t after, size_t) override {
    absl::MutexLock lock(&mu_);
    FeedBatch batch;
    for (size_t k = after; k < messages_.size(); ++k) batch.text += messages_[k];
    batch.next = messages_.size();
    return batch;
  }
  void Add(const std::string& data) {
    {
      absl::MutexLock lock(&mu_);
      messages_.push_back(absl::StrCat("id: ", messages_.size() + 1, "\ndata: ", data, "\n\n"));
    }
    const uint64_t one = 1;
    ASSERT_EQ(write(wake_, &one, sizeof one), static_cast<ssize_t>(sizeof one));
  }

 private:
  const int wake_;
  absl::Mutex mu_;
  std::vector<std::string> messages_ ABSL_GUARDED_BY(mu_);
};

// A viewer's end of a socket pair whose other end is parked.
class Viewer {
 public:
  explicit Viewer(int fd) : fd_(fd) {}
  ~Viewer() { close(fd_); }
  // Reads until `text` came, for at most `wait`.
  bool Await(const std::string& text, absl::Duration wait) {
    const absl::Time give_up = absl::Now() + wait;
    while (!absl::StrContains(got_, text)) {
      const absl::Duration left = give_up - absl::Now();
      if (left <= absl::ZeroDuration()) return false;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(absl::ToInt64Milliseconds(left)) + 1) <= 0) continue;
      char chunk[4096];
      const ssize_t n = read(fd_, chunk, sizeof chunk);
      if (n <= 0) return false;
      got_.append(chunk, static_cast<size_t>(n));
    }
    return true;
  }

 private:
  const int fd_;
  std::string got_;
};

// Parks `n` viewers on `followers`, each the far end of a socket pair whose
// near end is the page's connection.
void ParkViewers(Followers& followers, int n, std::vector<std::unique_ptr<Viewer>>& viewers) {
  for (int i = 0; i < n; ++i) {
    int pair[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    ASSERT_TRUE(followers.Reserve("viewer", /*official=*/true).ok());
    followers.Park(std::make_unique<Connection>(pair[0], nullptr), 0, "viewer");
    viewers.push_back(std::make_unique<Viewer>(pair[1]));
  }
}

TEST(FollowersLoopsTest, ViewersAreSharedOverTheLoopsAndEachLoopSendsEveryMessage) {
  TestFeed feed;
  FeedLimits limits;
  limits.in_all = 64;
  limits.per_caller = 64;
  constexpr int kLoops = 3;
  constexpr int kViewers = 12;
  Followers followers(&feed, limits, kLoops);
  std::vector<std::unique_ptr<Viewer>> viewers;
  ASSERT_NO_FATAL_FAILURE(ParkViewers(followers, kViewers, viewers));
  // Each is adopted by its loop before it is greeted.
  for (auto& viewer : viewers) ASSERT_TRUE(viewer->Await(": following", absl::Seconds(10)));
  EXPECT_EQ(followers.parked(), kViewers);
  EXPECT_EQ(followers.ParkedByLoop(), std::vector<int>(kLoops, kViewers / kLoops));

  feed.Add("the first move");
  feed.Add("the second");
  for (int i = 0; i < kViewers; ++i) {
    EXPECT_TRUE(viewers[i]->Await("id: 2\ndata: the second\n\n", absl::Seconds(10)))
        << "viewer " << i << " (loop " << i % kLoops << ")";
  }
  followers.Stop();
  for (auto& viewer : viewers) EXPECT_TRUE(viewer->Await("0\r\n\r\n", absl::Seconds(10)));
  EXPECT_EQ(followers.parked(), 0);
}

// A host loop of the test's own (as the console's GuardedServer is one):
// a thread that waits on the guests' epoll sets and lets each take a turn.
class TestHost final : public LoopHost {
 public:
  TestHost() : epoll_(epoll_create1(EPOLL_CLOEXEC)), thread_([this] { Run(); }) {}
  ~TestHost() override {
    Stop();
    close(epoll_);
  }
  void Host(int fd, std::function<void()> turn) override {
    absl::MutexLock lock(&mu_);
    turns_[fd] = std::move(turn);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev);
  }
  void Unhost(int fd) override {
    absl::MutexLock lock(&mu_);
    epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
    turns_.erase(fd);
  }
  // Ends the host's thread: its guests take no more turns here.
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  void Run() {
    epoll_event events[8];
    while (!stop_) {
      const int n = epoll_wait(epoll_, events, 8, 50);
      absl::MutexLock lock(&mu_);
      for (int k = 0; k < n; ++k) {
        if (auto it = turns_.find(events[k].data.fd); it != turns_.end()) it->second();
      }
    }
  }

  const int epoll_;
  absl::Mutex mu_;
  std::map<int, std::function<void()>> turns_ ABSL_GUARDED_BY(mu_);
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// The first loop as a guest of another loop's thread (the console's own,
// in the server): its viewers follow as the others do, and when the host
// has stopped first, Stop() takes the guest's last turns itself, so every
// stream still ends.
TEST(FollowersLoopsTest, AGuestLoopFollowsOnItsHostsThreadAndEndsItsStreamsWhenTheHostIsGone) {
  TestFeed feed;
  FeedLimits limits;
  TestHost host;
  Followers followers(&feed, limits, 2, &host);
  std::vector<std::unique_ptr<Viewer>> viewers;
  ASSERT_NO_FATAL_FAILURE(ParkViewers(followers, 4, viewers));
  for (auto& viewer : viewers) ASSERT_TRUE(viewer->Await(": following", absl::Seconds(10)));
  EXPECT_EQ(followers.ParkedByLoop(), (std::vector<int>{2, 2}));
  feed.Add("a move");
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(viewers[i]->Await("id: 1\ndata: a move\n\n", absl::Seconds(10))) << "viewer " << i;
  }
  host.Stop();
  followers.Stop();
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(viewers[i]->Await("0\r\n\r\n", absl::Seconds(5))) << "viewer " << i;
  }
  EXPECT_EQ(followers.parked(), 0);
}

}  // namespace
}  // namespace arbiter::service::console
