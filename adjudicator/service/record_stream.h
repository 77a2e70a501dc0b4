// RecordEvents (proto/arbiter/v1/service.proto): AppendEvents over one open
// stream, for a clock or a desk that records a game move after move. One
// request is in hand at a time: read, admitted, recorded through the
// Recorder exactly as AppendEvents records it, answered; then the next is
// read. The stream's memory is one request and one answer; it holds no
// thread while it waits for the client.
//
// Each request is admitted as a call would be: the interceptor looks the
// token up again and charges the rate for every message after the first
// (auth_interceptor.h), and Callers::Of runs AppendEvents' admission (its
// bounds, the caller's authority over the game it names) on it here. The
// first refusal or failure ends the stream with its status; what was
// answered before stands.
#ifndef ARBITER_ADJUDICATOR_SERVICE_RECORD_STREAM_H_
#define ARBITER_ADJUDICATOR_SERVICE_RECORD_STREAM_H_

#include <atomic>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_interceptor.h"
#include "adjudicator/service/recorder.h"
#include "arbiter/v1/service.pb.h"
#include "grpcpp/support/server_callback.h"

namespace arbiter::service {

class RecordStream;

// The open RecordEvents streams of one server, so that its shutdown can end
// them: a stream waiting for its client's next request is ended at once
// (UNAVAILABLE), one with a request in hand once its answer is written.
class RecordStreams {
 public:
  RecordStreams() = default;
  RecordStreams(const RecordStreams&) = delete;
  RecordStreams& operator=(const RecordStreams&) = delete;

  // Ends every open stream as above, and every stream opened from now on at
  // once; then waits, until `deadline` at most, for their statuses to be
  // written.
  void Shutdown(absl::Time deadline);

  bool shutting_down() const { return shutting_down_.load(std::memory_order_acquire); }

 private:
  friend class RecordStream;
  void Join(RecordStream* stream);
  void Leave(RecordStream* stream);
  bool Empty() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return open_.empty(); }

  std::atomic<bool> shutting_down_{false};
  absl::Mutex mu_;
  absl::flat_hash_set<RecordStream*> open_ ABSL_GUARDED_BY(mu_);
};

class RecordStream final
    : public grpc::ServerBidiReactor<v1::AppendEventsRequest, v1::AppendEventsResponse> {
 public:
  // A new stream of the call `context`, recording through `recorder` as the
  // callers `callers` admit (none owned; all outlive the call). It starts
  // reading at once; gRPC owns it, and it deletes itself when done.
  static RecordStream* Open(grpc::CallbackServerContext* context, const Callers* callers,
                            Recorder* recorder, RecordStreams* streams);

  void OnReadDone(bool ok) override;
  void OnWriteDone(bool ok) override;
  void OnDone() override;

 private:
  friend class RecordStreams;
  // What the stream is doing: waiting for a request, recording one,
  // writing its answer, or ended (Finish called).
  enum class Step { kReading, kRecording, kWriting, kEnded };

  RecordStream(grpc::CallbackServerContext* context, const Callers* callers, Recorder* recorder,
               RecordStreams* streams);
  // The request in hand, recorded; its answer goes to Answer.
  void Record();
  // `answer` written, or the stream ended with its error.
  void Answer(absl::StatusOr<v1::AppendEventsResponse> answer);
  // Reads the next request, or ends the stream when the server is shutting
  // down.
  void ReadNextOrEnd();
  // Ends the stream with `status` unless it has ended.
  void End(const absl::Status& status);
  // From RecordStreams::Shutdown: ends the stream now if it waits for its
  // client; otherwise the answer in hand ends it.
  void EndIfWaiting();
  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void Unref();

  grpc::CallbackServerContext* const context_;
  const Callers* const callers_;
  Recorder* const recorder_;
  RecordStreams* const streams_;
  // gRPC's reference, and RecordStreams::Shutdown's while it ends it.
  std::atomic<int> refs_{1};
  absl::Mutex mu_;
  Step step_ ABSL_GUARDED_BY(mu_) = Step::kReading;
  // One of each at a time: gRPC keeps them until the read or write is done.
  v1::AppendEventsRequest request_;
  v1::AppendEventsResponse answer_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_RECORD_STREAM_H_
