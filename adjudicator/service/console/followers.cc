#include "adjudicator/service/console/followers.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
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

// epoll tags of the eventfds and the timerfd; a page's tag is its Page*.
char feed_tag;
char wake_tag;
char news_tag;
char timer_tag;

}  // namespace

// One epoll set, its thread and its share of the pages.
class Followers::Loop {
 public:
  // `relay`: the first loop, which reads the feed's eventfd and tells
  // `others` (set before any news comes: Followers' constructor). `host`:
  // the loop is its guest (no thread); null: a thread of its own.
  Loop(Followers* owner, bool relay, LoopHost* host);
  ~Loop();

  void Start();
  void Park(std::unique_ptr<Connection> page, uint64_t after, std::string caller);
  // Tells the loop the feed has news (its own eventfd).
  void Tell();
  void Stop();
  int parked() const { return parked_.load(); }

  std::vector<Loop*> others;

 private:
  using Chunk = std::shared_ptr<const std::string>;
  struct Page {
    std::unique_ptr<Connection> connection;
    std::string caller;  // whose place it holds (Caller::key)
    uint64_t after = 0;  // the last message queued
    std::deque<Chunk> queue;
    size_t written = 0;   // of queue.front()
    size_t queued = 0;    // bytes in queue not yet written
    absl::Time progress;  // the socket last took bytes, or the queue filled
    bool want_read = false;
    bool behind = false;  // the feed has more for it than it was given
    bool sent = false;    // something was queued since the last keep-alive
    bool dead = false;    // to be dropped at the end of this turn
  };
  // The feed's next text for the pages at one place, framed once.
  struct Step {
    Chunk chunk;  // null: nothing new
    uint64_t next = 0;
    bool closed = false;
    bool more = false;  // the feed has more after `next`
  };
  using Steps = absl::flat_hash_map<uint64_t, Step>;
  // What woke the loop this turn, besides the pages' sockets.
  struct Wakes {
    bool news = false;   // the feed has more
    bool adopt = false;  // Park() or Stop()
    bool tick = false;   // kKeepAlive passed
  };
  // A page handed to Park(), for the loop to adopt.
  struct Arrival {
    std::unique_ptr<Connection> connection;
    uint64_t after = 0;
    std::string caller;
  };

  void Run();
  // One turn: waits at most `timeout_ms` (-1: until woken) for events and
  // serves them; true once stopped (every page ended).
  bool Turn(int timeout_ms);
  // A guest's turn, on its host's thread.
  void GuestTurn();
  // One event of this turn's: a page's socket is served; `wakes` is set
  // for the eventfds' and the timer's.
  void Handle(const epoll_event& event, Steps& steps, Wakes& wakes);
  // The keep-alive timer runs while the loop holds a page.
  void ArmTimer();
  // Adds the pages Park() left in inbox_ to the loop.
  void Adopt();
  // Queues what the feed has for `page` after its place (`steps`: what it
  // had for each place this turn); false when the feed closed.
  bool Catch(Page& page, Steps& steps);
  void Queue(Page& page, Chunk chunk);
  // Writes what the page's socket takes now; false when it is to be cut off.
  bool Flush(Page& page);
  // Flush()es, and while the socket takes it all and the page is behind,
  // queues the feed's next part; marks the page dead when it is cut off.
  void Pump(Page& page, Steps& steps);
  // Sends the last chunk if the socket takes it now, and closes the page.
  void End(Page& page);
  void Drop(Page* page);
  // Every kKeepAlive: a comment to each page that was sent nothing since
  // the last, and the cut-off of one whose socket took nothing for
  // kWriteStall.
  void KeepAlive(absl::Time now, Steps& steps);
  // Drops the pages marked dead this turn.
  void DropTheDead();

  Followers* const owner_;
  const bool relay_;
  LoopHost* const host_;
  const int epoll_;
  const int wake_;   // an eventfd: Park() or Stop() has something for the loop
  const int news_;   // an eventfd: the relay saw the feed's
  const int timer_;  // a timerfd: every kKeepAlive while armed
  bool armed_ = false;
  std::vector<epoll_event> events_ = std::vector<epoll_event>(256);
  // A guest's turns: its host's, then, once unhosted, Stop()'s.
  absl::Mutex turn_mu_;
  bool done_ ABSL_GUARDED_BY(turn_mu_) = false;
  std::atomic<int> parked_{0};
  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<Arrival> inbox_ ABSL_GUARDED_BY(mu_);
  // The loop thread's own.
  absl::flat_hash_map<Page*, std::unique_ptr<Page>> pages_;
  std::thread thread_;
};

int Followers::LoopPerCore() {
  const unsigned cores = std::thread::hardware_concurrency();
  return std::clamp(static_cast<int>(cores), 1, kMaxLoops);
}

Followers::Followers(FeedSource* feed, FeedLimits limits, int loops, LoopHost* host)
    : feed_(feed), limits_(limits) {
  loops = std::clamp(loops, 1, kMaxLoops);
  for (int k = 0; k < loops; ++k) {
    loops_.push_back(std::make_unique<Loop>(this, k == 0, k == 0 ? host : nullptr));
  }
  for (int k = 1; k < loops; ++k) loops_[0]->others.push_back(loops_[k].get());
  for (auto& loop : loops_) loop->Start();
}

Followers::~Followers() { Stop(); }

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
  const size_t k = next_loop_.fetch_add(1) % loops_.size();
  loops_[k]->Park(std::move(page), after, std::move(caller));
}

void Followers::Stop() {
  for (auto& loop : loops_) loop->Stop();
}

std::vector<int> Followers::ParkedByLoop() const {
  std::vector<int> parked;
  for (const auto& loop : loops_) parked.push_back(loop->parked());
  return parked;
}

Followers::Loop::Loop(Followers* owner, bool relay, LoopHost* host)
    : owner_(owner),
      relay_(relay),
      host_(host),
      epoll_(epoll_create1(EPOLL_CLOEXEC)),
      wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
      news_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
      timer_(timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC)) {
  epoll_event ev{};
  ev.events = EPOLLIN;
  if (relay_) {
    ev.data.ptr = &feed_tag;
    epoll_ctl(epoll_, EPOLL_CTL_ADD, owner_->feed_->wake_fd(), &ev);
  }
  ev.data.ptr = &news_tag;
  epoll_ctl(epoll_, EPOLL_CTL_ADD, news_, &ev);
  ev.data.ptr = &wake_tag;
  epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &ev);
  ev.data.ptr = &timer_tag;
  epoll_ctl(epoll_, EPOLL_CTL_ADD, timer_, &ev);
}

Followers::Loop::~Loop() {
  Stop();
  close(timer_);
  close(news_);
  close(wake_);
  close(epoll_);
}

void Followers::Loop::Start() {
  if (host_ != nullptr) return host_->Host(epoll_, [this] { GuestTurn(); });
  thread_ = std::thread([this] {
    NameThisThread("followers");
    Run();
  });
}

void Followers::Loop::GuestTurn() {
  absl::MutexLock lock(&turn_mu_);
  if (!done_) done_ = Turn(0);
}

void Followers::Loop::Tell() {
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(news_, &one, sizeof one);
}

void Followers::Loop::Park(std::unique_ptr<Connection> page, uint64_t after, std::string caller) {
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
  owner_->Unreserve(caller);
}

void Followers::Loop::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = write(wake_, &one, sizeof one);
  if (thread_.joinable()) thread_.join();
  if (host_ == nullptr) return;
  // The host takes no more turns of it (it may have stopped already): the
  // last, which ends every page, are taken here.
  host_->Unhost(epoll_);
  absl::MutexLock lock(&turn_mu_);
  while (!done_) done_ = Turn(0);
}

void Followers::Loop::Adopt() {
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
      owner_->Unreserve(page->caller);
      continue;
    }
    pages_.emplace(page, std::move(owned));
    ++parked_;
    ++owner_->parked_;
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

bool Followers::Loop::Catch(Page& page, Steps& steps) {
  auto [it, fresh] = steps.try_emplace(page.after);
  Step& step = it->second;
  if (fresh) {
    FeedBatch batch = owner_->feed_->Next(page.after, kStepBytes);
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

void Followers::Loop::Queue(Page& page, Chunk chunk) {
  if (page.queued == 0) page.progress = absl::Now();
  page.queued += chunk->size();
  page.queue.push_back(std::move(chunk));
  page.sent = true;
}

bool Followers::Loop::Flush(Page& page) {
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
  // What waits behind the chunk being written: one chunk larger than the
  // cap (the broadcast's snapshot of every game) is sent whole.
  const size_t front_left = page.queue.empty() ? 0 : page.queue.front()->size() - page.written;
  return page.queued - front_left <= kMaxQueuedBytes;
}

void Followers::Loop::Pump(Page& page, Steps& steps) {
  for (;;) {
    if (!Flush(page)) {
      page.dead = true;
      return;
    }
    if (!page.queue.empty() || !page.behind) return;
    if (!Catch(page, steps)) return End(page);
  }
}

void Followers::Loop::End(Page& page) {
  static const Chunk kLast = std::make_shared<const std::string>("0\r\n\r\n");
  if (page.queue.empty()) {
    Queue(page, kLast);
    Flush(page);
  }
  page.dead = true;
}

void Followers::Loop::Drop(Page* page) {
  const std::string caller = std::move(page->caller);
  pages_.erase(page);  // closes the connection, which leaves the epoll set
  --parked_;
  --owner_->parked_;
  owner_->Unreserve(caller);
}

void Followers::Loop::KeepAlive(absl::Time now, Steps& steps) {
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

void Followers::Loop::DropTheDead() {
  std::vector<Page*> dead;
  for (auto& [p, page] : pages_) {
    if (page->dead) dead.push_back(p);
  }
  for (Page* p : dead) Drop(p);
}

void Followers::Loop::Handle(const epoll_event& event, Steps& steps, Wakes& wakes) {
  void* tag = event.data.ptr;
  if (tag == &feed_tag) {
    Clear(owner_->feed_->wake_fd());
    for (Loop* other : others) other->Tell();
    wakes.news = true;
  } else if (tag == &news_tag) {
    Clear(news_);
    wakes.news = true;
  } else if (tag == &wake_tag) {
    Clear(wake_);
    wakes.adopt = true;
  } else if (tag == &timer_tag) {
    Clear(timer_);
    wakes.tick = true;
  } else {
    Page& page = *static_cast<Page*>(tag);
    if (page.dead) return;
    if ((event.events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0 &&
        !page.connection->DropInput()) {
      page.dead = true;  // the client closed
      return;
    }
    Pump(page, steps);
  }
}

void Followers::Loop::ArmTimer() {
  if (armed_ == !pages_.empty()) return;
  armed_ = !pages_.empty();
  const timespec every = absl::ToTimespec(armed_ ? kKeepAlive : absl::ZeroDuration());
  const itimerspec spec{.it_interval = every, .it_value = every};
  timerfd_settime(timer_, 0, &spec, nullptr);
}

void Followers::Loop::Run() {
  while (!Turn(-1)) {
  }
}

bool Followers::Loop::Turn(int timeout_ms) {
  const int n = epoll_wait(epoll_, events_.data(), static_cast<int>(events_.size()), timeout_ms);
  Wakes wakes;
  Steps steps;
  for (int k = 0; k < n; ++k) Handle(events_[k], steps, wakes);
  bool stopping;
  {
    absl::MutexLock lock(&mu_);
    stopping = stopping_;
  }
  if (wakes.adopt) Adopt();
  if (wakes.news || stopping) {
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
  if (wakes.tick) KeepAlive(absl::Now(), steps);
  DropTheDead();
  ArmTimer();  // counted from the first page's arrival
  if (!stopping) return false;
  absl::MutexLock lock(&mu_);
  for (Arrival& parked : inbox_) {
    parked.connection.reset();
    owner_->Unreserve(parked.caller);
  }
  inbox_.clear();
  return true;
}

}  // namespace arbiter::service::console
