// Many gRPC watch streams (WatchAll / WatchGame) from one client thread, on
// the async API: what a test or a benchmark needs to hold thousands open
// without a thread each. Every message is handed to `on_message` on the
// pool's thread.
#ifndef ARBITER_TESTS_SUPPORT_WATCHERS_H_
#define ARBITER_TESTS_SUPPORT_WATCHERS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace arbiter::testing {

class WatcherPool {
 public:
  // (watcher index, message): called on the pool's thread.
  using OnMessage = std::function<void(int, const v1::WatchResponse&)>;

  // Streams go over `channels` channels to `address` (round robin), each
  // call carrying `token` when not empty.
  WatcherPool(const std::string& address, int channels, std::string token, OnMessage on_message);
  ~WatcherPool();  // cancels what is open and waits for the ends

  // Opens a WatchAll from `after` (game empty) or a WatchGame of `game`.
  int Open(const std::string& game, uint64_t after);

  // Streams that have ended, and the status of watcher `i` once it has.
  int ended();
  std::optional<grpc::Status> status(int i);

 private:
  struct Watcher;
  void Run();

  std::vector<std::unique_ptr<v1::Arbiter::Stub>> stubs_;
  const std::string token_;
  const OnMessage on_message_;
  grpc::CompletionQueue cq_;
  absl::Mutex mu_;
  std::vector<std::unique_ptr<Watcher>> watchers_ ABSL_GUARDED_BY(mu_);
  int ended_ ABSL_GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace arbiter::testing

#endif  // ARBITER_TESTS_SUPPORT_WATCHERS_H_
