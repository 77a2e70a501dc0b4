// `arbiter serve --witness URL=VKEY...`: the venue's side of C2SP
// tlog-witness. Each new signed checkpoint of the ledger is sent to every
// witness (POST URL/add-checkpoint: the old size the witness last cosigned,
// the consistency proof from it, the checkpoint note), and the cosignature
// lines each answers that verify under its key are kept beside the
// checkpoint (ledger/cosignature_store.h). A federation server witnesses its
// venues this way; venues may witness each other.
//
// It runs on a thread of its own and never blocks an append: it polls the
// ledger's head, and only reads checkpoints when the head moved or the last
// checkpoint it saw does not cover it. A witness that is down, slow or
// refuses is retried with a doubling delay (1 s to 1 min); a 409 tells it
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

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
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

  // Starts the thread. `ledger` and `store` are not owned and must outlive
  // Stop().
  WitnessFeed(ledger::Ledger* ledger, std::vector<Target> targets, ledger::CosignatureStore* store,
              absl::Duration poll = absl::Milliseconds(200));
  ~WitnessFeed();  // Stop()s

  // Ends the thread (a request in flight finishes first). Idempotent.
  void Stop();

 private:
  struct Witnessed;  // one target and what is known of it
  void Run();
  // Sends `checkpoint` to `w` if it has not cosigned it; true when there
  // is nothing more to send it now.
  void Send(Witnessed& w, const v1::Checkpoint& checkpoint, const std::string& note);

  ledger::Ledger* const ledger_;
  ledger::CosignatureStore* const store_;
  const absl::Duration poll_;
  std::vector<std::unique_ptr<Witnessed>> witnesses_;
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WITNESS_FEED_H_
