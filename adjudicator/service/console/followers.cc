#include "adjudicator/service/console/followers.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "adjudicator/service/console/http_limits.h"
#include "ledger/thread_name.h"

namespace arbiter::service::console {
namespace {

// The chunk of a chunked answer carrying `text` (not empty: an empty chunk
// ends the answer).
std::string Framed(absl::string_view text) {
  return absl::StrCat(absl::Hex(text.size()), "\r\n", text, "\r\n");
}

void Clear(int eventfd) {
  uint64_t count;
  [[maybe_unused]] const ssize_t n = read(eventfd, &count, sizeof count);
}

// epoll tags of the two eventfds; a page's tag is its Page*.
char feed_tag;
char wake_tag;

}  // namespace

struct Followers::Page {
  std::unique_ptr<Connection> connection;
  std::string caller;  // whose place it holds (Caller::key)
  uint64_t after = 0;  // the last message queued
  std::deque<Chunk> queue;
  size_t written = 0;  // of queue.front()
  size_t queued = 0;   // bytes in queue not yet written
  bool want_read = false;
  bool behind = false;  // the feed has more for it than it was given
  bool sent = false;    // something was queued since the last keep-alive
  absl::Time progress;  // the socket last took bytes, or the queue filled
  bool dead = false;    // to be dropped at the end of this turn
};

Followers::Followers(FeedSource* feed, FeedLimits limits)
    : feed_(feed),
      limits_(limits),
      epoll_(epoll_create1(EPOLL_CLOEXEC)),
      wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = &feed_tag;
  epoll_ctl(epoll_, EPOLL_CTL_ADD, feed_->wake_fd(), &ev);
  ev.data.ptr = &wake_tag;
  epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev);
  thread_ = std::thread([this] {
    NameThisThread("followers");
    Run();
  });
}

Followers::~Followers() {
  Stop();
  close(wake_);
  close(epoll_);
}

absl::Status Followers::Reserve(const std::string& caller, bool official) {
  absl::MutexLock lock(&places_mu_);
  // Checked first, so that a caller at its own cap is told so even when
  // the server is full too: waiting for others would not help it.
  auto it = places_by_caller_.find(caller);
  if (it != places_by_caller_.end() && it->second >= limits_.per_caller) {
    return absl::UnavailableError(absl::StrCat("at most ", limits_.per_caller,
                                               " pages of one caller follow the live feed at once "
                                               "(arbiter serve --http-feeds-per-caller)"));
  }
  if (places_ >= limits_.in_all) {
    return absl::UnavailableError(absl::StrCat("at most ", limits_.in_all, " ", limits_.followers,
                                               " at once (", limits_.set_by, ")"));
  }
  if (!official && places_ >= limits_.in_all - limits_.ForOfficialsOnly()) {
    return absl::UnavailableError(
        absl::StrCat("the live feed's last ", limits_.ForOfficialsOnly(), " of ", limits_.in_all,
                     " places are kept for the arbiters' pages (arbiter serve --http-feeds)"));
  }
  ++places_;
  ++places_by_caller_[caller];
  return absl::OkStatus();
}

void Followers::Unreserve(const std::string& caller) {
  absl::MutexLock lock(&places_mu_);
  auto it = places_by_caller_.find(caller);
  if (it == places_by_caller_.end()) return;
  --places_;
  if (--it->second <= 0) places_by_caller_.erase(it);
}

void Followers::Park(std::unique_ptr<Connection> page, uint64_t after, std::string caller) {
  {
    absl::MutexLock lock(&mu_);
    if (!stopping_) {
      inbox_.push_back(Arrival{std::move(page), after, std::move(caller)});
      const uint64_t one = 1;
      [[maybe_unused]] const ssize_t n = write(wake_, &one, sizeof one);
      return;
    }
  }
  page.reset();  // closed
  Unreserve(caller);
}

void Followers::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(wake_, &one, sizeof one);
  if (thread_.joinable()) thread_.join();
}

void Followers::Adopt() {
  std::vector<Arrival> arrived;
  {
    absl::MutexLock lock(&mu_);
    arrived.swap(inbox_);
  }
  // What EventSource needs first: how soon to reconnect, and a comment that
  // says the page follows (tests and benchmarks wait for it).
  static const Chunk kHello =
      std::make_shared<const std::string>(Framed("retry: 1000\n: following\n\n"));
  Steps steps;
  for (Arrival& arrival : arrived) {
    auto owned = std::make_unique<Page>();
    Page* page = owned.get();
    page->connection = std::move(arrival.connection);
    page->caller = std::move(arrival.caller);
    page->after = arrival.after;
    page->progress = absl::Now();
    epoll_event ev{};
    // Edge-triggered: told once each time the socket can take more, or has
    // input (a close, a TLS record), not again until it changes.
    ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    ev.data.ptr = page;
    if (epoll_ctl(epoll_, EPOLL_CTL_ADD, page->connection->socket(), &ev) != 0) {
      Unreserve(page->caller);
      continue;
    }
    pages_.emplace(page, std::move(owned));
    parked_.store(static_cast<int>(pages_.size()));
    // The answer's head, as far as the server had not sent it yet.
    if (std::string head = page->connection->TakeOutput(); !head.empty()) {
      Queue(*page, std::make_shared<const std::string>(std::move(head)));
    }
    Queue(*page, kHello);
    if (!Catch(*page, steps)) {
      End(*page);
    } else {
      Pump(*page, steps);
    }
  }
}

bool Followers::Catch(Page& page, Steps& steps) {
  auto [it, fresh] = steps.try_emplace(page.after);
  Step& step = it->second;
  if (fresh) {
    FeedBatch batch = feed_->Next(page.after, kStepBytes);
    step.closed = batch.closed;
    step.next = batch.next;
    step.more = batch.more;
    if (!batch.text.empty()) step.chunk = std::make_shared<const std::string>(Framed(batch.text));
  }
  if (step.closed) return false;
  page.after = step.next;
  page.behind = step.more;
  if (step.chunk != nullptr) Queue(page, step.chunk);
  return true;
}

void Followers::Queue(Page& page, Chunk chunk) {
  if (page.queued == 0) page.progress = absl::Now();
  page.queued += chunk->size();
  page.queue.push_back(std::move(chunk));
  page.sent = true;
}

bool Followers::Flush(Page& page) {
  while (!page.queue.empty()) {
    const std::string& front = *page.queue.front();
    const ssize_t n =
        page.connection->WriteNow(absl::string_view(front).substr(page.written), &page.want_read);
    if (n < 0) return false;
    if (n == 0) break;  // the socket is full: epoll says when it takes more
    page.progress = absl::Now();
    page.written += static_cast<size_t>(n);
    page.queued -= static_cast<size_t>(n);
    if (page.written == front.size()) {
      page.queue.pop_front();
      page.written = 0;
    }
  }
  return page.queued <= kMaxQueuedBytes;
}

void Followers::Pump(Page& page, Steps& steps) {
  for (;;) {
    if (!Flush(page)) {
      page.dead = true;
      return;
    }
    if (!page.queue.empty() || !page.behind) return;
    if (!Catch(page, steps)) return End(page);
  }
}

void Followers::End(Page& page) {
  static const Chunk kLast = std::make_shared<const std::string>("0\r\n\r\n");
  if (page.queue.empty()) {
    Queue(page, kLast);
    Flush(page);
  }
  page.dead = true;
}

void Followers::Drop(Page* page) {
  const std::string caller = std::move(page->caller);
  pages_.erase(page);  // closes the connection, which leaves the epoll set
  parked_.store(static_cast<int>(pages_.size()));
  Unreserve(caller);
}

void Followers::KeepAlive(absl::Time now, Steps& steps) {
  static const Chunk kKeepAliveComment =
      std::make_shared<const std::string>(Framed(": keep-alive\n\n"));
  for (auto& [p, page] : pages_) {
    if (page->dead) continue;
    if (page->queued > 0 && now - page->progress > kWriteStall) {
      page->dead = true;  // took nothing for kWriteStall
      continue;
    }
    if (!page->sent) Queue(*page, kKeepAliveComment);
    page->sent = false;
    Pump(*page, steps);
  }
}

void Followers::DropTheDead() {
  std::vector<Page*> dead;
  for (auto& [p, page] : pages_) {
    if (page->dead) dead.push_back(p);
  }
  for (Page* p : dead) Drop(p);
}

void Followers::Run() {
  std::vector<epoll_event> events(256);
  absl::Time tick = absl::Now() + kKeepAlive;
  for (;;) {
    // With no page to keep alive, only the feed or an arrival wakes it.
    const absl::Duration left = std::max(tick - absl::Now(), absl::ZeroDuration());
    const int timeout = pages_.empty() ? -1 : static_cast<int>(absl::ToInt64Milliseconds(left)) + 1;
    const int n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout);
    bool news = false;
    bool adopt = false;
    Steps steps;
    for (int k = 0; k < n; ++k) {
      void* tag = events[k].data.ptr;
      if (tag == &feed_tag) {
        Clear(feed_->wake_fd());
        news = true;
      } else if (tag == &wake_tag) {
        Clear(wake_);
        adopt = true;
      } else {
        Page& page = *static_cast<Page*>(tag);
        if (page.dead) continue;
        const uint32_t e = events[k].events;
        if ((e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0 &&
            !page.connection->DropInput()) {
          page.dead = true;  // the client closed
          continue;
        }
        Pump(page, steps);
      }
    }
    bool stopping;
    {
      absl::MutexLock lock(&mu_);
      stopping = stopping_;
    }
    if (adopt) Adopt();
    if (news || stopping) {
      steps.clear();  // the feed moved on
      for (auto& [p, page] : pages_) {
        if (page->dead) continue;
        if (stopping || !Catch(*page, steps)) {
          End(*page);
        } else {
          Pump(*page, steps);
        }
      }
    }
    const absl::Time now = absl::Now();
    if (pages_.empty()) tick = now + kKeepAlive;  // counted from the first page's arrival
    if (now >= tick) {
      tick = now + kKeepAlive;
      KeepAlive(now, steps);
    }
    DropTheDead();
    if (stopping) {
      absl::MutexLock lock(&mu_);
      for (Arrival& parked : inbox_) {
        parked.connection.reset();
        Unreserve(parked.caller);
      }
      inbox_.clear();
      return;
    }
  }
}

}  // namespace arbiter::service::console
