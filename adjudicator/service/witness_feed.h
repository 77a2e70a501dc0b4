// `arbiter serve --witness URL=VKEY...`: the venue's side of C2SP
// tlog-witness. Each new signed checkpoint of the ledger is sent to every
// witness (POST URL/add-checkpoint: the old size the witness last cosigned,
// the consistency proof from it, the checkpoint note), and the cosignature
// lines each answers that verify under its key are kept beside the
// checkpoint (ledger/cosignature_store.h). A federation server witnesses its
// venues this way; venues may witness each other.
//
// It runs on a thread of its own and never blocks an append: it follows the
// ledger's commit feed (ledger/commit_feed.h), whose listener, on the
// writer's thread, only flags and wakes it. It reads the checkpoints only
// when the feed says a newer one was signed, so a commit that signs one is
// sent at once and an idle venue's sender sleeps; its only timed wait is a
// retry's. A witness that is down, slow or refuses is retried with a
// doubling delay (1 s to 1 min); a 409 tells it
// the size the witness holds, and it retries at once from there (so a
// restart, which forgets what each witness holds, costs one 409). Only the
// newest checkpoint is sent: a witness that missed some is brought forward
// in one step, its proof from the size it holds.
#ifndef ARBITER_ADJUDICATOR_SERVICE_WITNESS_FEED_H_
#define ARBITER_ADJUDICATOR_SERVICE_WITNESS_FEED_H_

#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "ledger/commit_feed.h"
#include "ledger/cosignature.h"
#include "ledger/cosignature_store.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class WitnessFeed {
 public:
  struct Target {
    std::string url;  // http://HOST:PORT[/PREFIX], the witness's submission prefix
    ledger::CosignatureVerifier key;
  };

  // `urls`: URL=VKEY each. INVALID_ARGUMENT for a URL that is not
  // http://HOST:PORT[/PREFIX] or a key that is not a cosignature vkey.
  static absl::StatusOr<std::vector<Target>> ParseTargets(const std::vector<std::string>& urls);

  // Starts the thread, which first sends the latest checkpoint already
  // signed. `ledger` and `store` are not owned and must outlive Stop().
  WitnessFeed(ledger::Ledger* ledger, std::vector<Target> targets, ledger::CosignatureStore* store);
  ~WitnessFeed();  // Stop()s

  // Ends the thread (a request in flight finishes first). Idempotent.
  void Stop();

 private:
  struct Witnessed;  // one target and what is known of it
  void Run();
  bool stopping();
  // Sends `checkpoint` to `w`; on a failure, sets when to retry.
  void Send(Witnessed& w, const v1::Checkpoint& checkpoint, const std::string& note);

  ledger::Ledger* const ledger_;
  ledger::CosignatureStore* const store_;
  const std::shared_ptr<ledger::CommitFeed> commits_;
  std::vector<std::unique_ptr<Witnessed>> witnesses_;
  int listener_ = -1;
  absl::Mutex mu_;
  bool committed_ ABSL_GUARDED_BY(mu_) = true;  // a commit since the thread last looked
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WITNESS_FEED_H_
