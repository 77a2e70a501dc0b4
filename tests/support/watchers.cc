#include "tests/support/watchers.h"

#include <utility>

namespace arbiter::testing {

struct WatcherPool::Watcher {
  int index = 0;
  grpc::ClientContext ctx;
  std::unique_ptr<grpc::ClientAsyncReader<v1::WatchResponse>> reader;
  v1::WatchResponse message;
  bool finishing = false;
  grpc::Status status;
  bool ended = false;
};

WatcherPool::WatcherPool(const std::string& address, int channels, std::string token,
                         OnMessage on_message)
    : token_(std::move(token)), on_message_(std::move(on_message)) {
  for (int i = 0; i < channels; ++i) {
    grpc::ChannelArguments args;
    args.SetInt("arbiter.watcher_channel", i);  // distinct channels, not one shared
    stubs_.push_back(v1::Arbiter::NewStub(
        grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args)));
  }
  thread_ = std::thread([this] { Run(); });
}

WatcherPool::~WatcherPool() {
  {
    absl::MutexLock lock(&mu_);
    for (auto& w : watchers_) w->ctx.TryCancel();
    auto all = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return ended_ == static_cast<int>(watchers_.size());
    };
    mu_.AwaitWithTimeout(absl::Condition(&all), absl::Seconds(30));
  }
  cq_.Shutdown();
  thread_.join();
}

int WatcherPool::Open(const std::string& game, uint64_t after) {
  absl::MutexLock lock(&mu_);
  auto w = std::make_unique<Watcher>();
  w->index = static_cast<int>(watchers_.size());
  if (!token_.empty()) w->ctx.AddMetadata("authorization", "Bearer " + token_);
  v1::Arbiter::Stub& stub = *stubs_[watchers_.size() % stubs_.size()];
  if (game.empty()) {
    v1::WatchAllRequest req;
    req.set_after_position(after);
    w->reader = stub.PrepareAsyncWatchAll(&w->ctx, req, &cq_);
  } else {
    v1::WatchGameRequest req;
    req.set_game("games/" + game);
    req.set_after_revision(after);
    w->reader = stub.PrepareAsyncWatchGame(&w->ctx, req, &cq_);
  }
  // Started once `reader` is set: its first completion may come at once.
  w->reader->StartCall(w.get());
  watchers_.push_back(std::move(w));
  return watchers_.back()->index;
}

int WatcherPool::ended() {
  absl::MutexLock lock(&mu_);
  return ended_;
}

std::optional<grpc::Status> WatcherPool::status(int i) {
  absl::MutexLock lock(&mu_);
  if (!watchers_[i]->ended) return std::nullopt;
  return watchers_[i]->status;
}

void WatcherPool::Run() {
  void* tag = nullptr;
  bool ok = false;
  while (cq_.Next(&tag, &ok)) {
    auto* w = static_cast<Watcher*>(tag);
    if (w->finishing) {
      absl::MutexLock lock(&mu_);
      w->ended = true;
      ++ended_;
      continue;
    }
    if (!ok) {
      w->finishing = true;
      w->reader->Finish(&w->status, w);
      continue;
    }
    // The first completion of a watcher is its start (no message yet).
    if (w->message.kind_case() != v1::WatchResponse::KIND_NOT_SET) {
      on_message_(w->index, w->message);
    }
    w->message.Clear();
    w->reader->Read(&w->message, w);
  }
}

}  // namespace arbiter::testing
