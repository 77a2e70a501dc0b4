// Issue 46.5: the broadcast's viewers are parked on one loop per core
// (followers.h), not on one thread for all: each loop holds its share of
// the pages, and a message reaches the pages of every loop. In the
// process, over socket pairs, with a feed of the test's own.
#include "adjudicator/service/console/followers.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "adjudicator/service/console/connection.h"
#include "adjudicator/service/console/feed_source.h"
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

TEST(FollowersLoopsTest, ViewersAreSharedOverTheLoopsAndEachLoopSendsEveryMessage) {
  TestFeed feed;
  FeedLimits limits;
  limits.in_all = 64;
  limits.per_caller = 64;
  constexpr int kLoops = 3;
  constexpr int kViewers = 12;
  Followers followers(&feed, limits, kLoops);
  std::vector<std::unique_ptr<Viewer>> viewers;
  for (int i = 0; i < kViewers; ++i) {
    int pair[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    ASSERT_TRUE(followers.Reserve("viewer", /*official=*/true).ok());
    followers.Park(std::make_unique<Connection>(pair[0], nullptr), 0, "viewer");
    viewers.push_back(std::make_unique<Viewer>(pair[1]));
  }
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

}  // namespace
}  // namespace arbiter::service::console
