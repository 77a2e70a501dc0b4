// The thread that answers a writer thread's committed batches (internal to
// the ledger).
//
// Answering an append is, on a server, a gRPC response's send: about a third
// of the writer thread's CPU at 8 clients (tests/bench/README.md). Done on
// the writer thread, it delays the next batch's judging and COMMIT by as
// much; handed here, it runs on the other core meanwhile, and costs one
// thread wake-up per batch. A batch of one append is answered where it
// ran (no next batch to overlap; on a blocking caller's thread that ran it,
// AppendQueue::Leader, the caller then waits for nobody).
#ifndef ARBITER_LEDGER_INTERNAL_ANSWERER_H_
#define ARBITER_LEDGER_INTERNAL_ANSWERER_H_

#include <deque>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "ledger/internal/append_job.h"

namespace arbiter::ledger {

class Answerer {
 public:
  Answerer();
  // Answers every batch handed over before it returns.
  ~Answerer();
  Answerer(const Answerer&) = delete;
  Answerer& operator=(const Answerer&) = delete;

  // Completes each job of `batch` in order (AppendJob::Complete), on the
  // answerer's thread, after the batches handed over before it. Only
  // committed (or failed) jobs: the caller is done with them.
  void Hand(std::vector<AppendJob*> batch);

 private:
  void Run();

  absl::Mutex mu_;
  std::deque<std::vector<AppendJob*>> batches_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_ANSWERER_H_
