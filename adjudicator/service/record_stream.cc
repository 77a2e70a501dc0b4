#include "adjudicator/service/record_stream.h"

#include <utility>
#include <vector>

#include "adjudicator/service/grpc_status.h"

namespace arbiter::service {
namespace {

absl::Status ShuttingDown() {
  return absl::UnavailableError(
      "the server is shutting down: every answer received stands; record the next events "
      "once it is back");
}

}  // namespace

void RecordStreams::Join(RecordStream* stream) {
  absl::MutexLock lock(&mu_);
  open_.insert(stream);
}

void RecordStreams::Leave(RecordStream* stream) {
  absl::MutexLock lock(&mu_);
  open_.erase(stream);
}

void RecordStreams::Shutdown(absl::Time deadline) {
  shutting_down_.store(true, std::memory_order_release);
  std::vector<RecordStream*> open;
  {
    absl::MutexLock lock(&mu_);
    open.assign(open_.begin(), open_.end());
    // Each held while it is ended, so its OnDone cannot free it meanwhile.
    for (RecordStream* s : open) s->Ref();
  }
  for (RecordStream* s : open) {
    s->EndIfWaiting();
    s->Unref();
  }
  mu_.LockWhenWithDeadline(absl::Condition(this, &RecordStreams::Empty), deadline);
  mu_.Unlock();
}

RecordStream* RecordStream::Open(grpc::CallbackServerContext* context, const Callers* callers,
                                 Recorder* recorder, RecordStreams* streams) {
  auto* stream = new RecordStream(context, callers, recorder, streams);
  streams->Join(stream);
  stream->ReadNextOrEnd();
  return stream;
}

RecordStream::RecordStream(grpc::CallbackServerContext* context, const Callers* callers,
                           Recorder* recorder, RecordStreams* streams)
    : context_(context), callers_(callers), recorder_(recorder), streams_(streams) {}

void RecordStream::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

// gRPC's operations are started under the stream's lock: a read's or a
// write's reaction never runs inline (server_callback_handlers.h: their
// tags are not inlineable) and OnDone is never inlined for a bidi stream,
// so no reaction can wait for the lock its own start holds. Under the lock,
// the shutdown's check of the step and the start it races with are one.
void RecordStream::ReadNextOrEnd() {
  absl::MutexLock lock(&mu_);
  if (step_ == Step::kEnded) return;
  if (streams_->shutting_down()) {
    step_ = Step::kEnded;
    Finish(ToGrpc(ShuttingDown()));
    return;
  }
  step_ = Step::kReading;
  StartRead(&request_);
}

void RecordStream::EndIfWaiting() {
  absl::MutexLock lock(&mu_);
  if (step_ != Step::kReading) return;  // recording or writing: its answer ends it
  step_ = Step::kEnded;
  Finish(ToGrpc(ShuttingDown()));
}

void RecordStream::End(const absl::Status& status) {
  absl::MutexLock lock(&mu_);
  if (step_ == Step::kEnded) return;
  step_ = Step::kEnded;
  Finish(ToGrpc(status));
}

void RecordStream::OnReadDone(bool ok) {
  if (!ok) {
    // The client half-closed (or went away: then no one reads the status).
    End(absl::OkStatus());
    return;
  }
  {
    absl::MutexLock lock(&mu_);
    if (step_ == Step::kEnded) return;  // ended for the shutdown meanwhile
    step_ = Step::kRecording;
  }
  Record();
}

void RecordStream::Record() {
  // As AppendEvents: the request's own admission first (the interceptor's
  // verdict on this message, its bounds, the caller's authority over its
  // game), and nothing recorded when it is refused.
  absl::StatusOr<Caller> caller = callers_->Of(context_, request_);
  if (!caller.ok()) return Answer(caller.status());
  recorder_->AppendAsync(*caller, request_, [this](absl::StatusOr<v1::AppendEventsResponse> r) {
    Answer(std::move(r));
  });
}

void RecordStream::Answer(absl::StatusOr<v1::AppendEventsResponse> answer) {
  if (!answer.ok()) return End(answer.status());
  absl::MutexLock lock(&mu_);
  if (step_ == Step::kEnded) return;
  step_ = Step::kWriting;
  answer_ = *std::move(answer);
  StartWrite(&answer_);
}

void RecordStream::OnWriteDone(bool ok) {
  if (!ok) {
    // The client went away; the answer's events stand, recorded.
    End(absl::CancelledError("the client went away"));
    return;
  }
  ReadNextOrEnd();
}

void RecordStream::OnDone() {
  streams_->Leave(this);
  Unref();
}

}  // namespace arbiter::service
