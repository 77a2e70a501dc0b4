#include "adjudicator/service/auth_interceptor.h"

#include <grpc/grpc.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "grpcpp/support/interceptor.h"

namespace arbiter::service {
namespace {

using grpc::experimental::InterceptionHookPoints;

class AuthInterceptor final : public grpc::experimental::Interceptor {
 public:
  AuthInterceptor(grpc::experimental::ServerRpcInfo* info, Gatekeeper* gate, Callers* callers)
      : info_(info), gate_(gate), callers_(callers), call_(callers->NewCall()) {}

  ~AuthInterceptor() override {
    callers_->Forget(info_->server_context(), call_);
    ReleaseStream();
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      Admit(*methods->GetRecvInitialMetadata());
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE) &&
        admitted_.has_value()) {
      // The request itself is admitted where it is typed: by the handler,
      // through Callers (admission.h). Here only whether one arrived.
      if (absl::Status s = CheckArrived(methods->GetRecvMessage() != nullptr); !s.ok()) {
        Refuse(s);
      } else if (++messages_ > 1) {
        // Each further request on a stream is admitted as a call would be:
        // its token looked up again (revoked or expired meanwhile: refused)
        // and the rate charged.
        Readmit();
      }
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_MESSAGE) &&
        admitted_.has_value() && info_->type() == ServerStreaming()) {
      // A watch sends on what its token's last look-up said for a while
      // (AuthLimits::watch_token_checked_every), then looks it up again: a
      // token revoked or expired meanwhile ends the stream before this
      // message, UNAUTHENTICATED.
      RecheckBeforeSending();
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      // The stream's place is free before its client learns the stream
      // ended: a client that opens another at once is not refused for the
      // one it has just seen end (the call itself is destroyed later, on
      // gRPC's time).
      ReleaseStream();
    }
    methods->Proceed();
  }

 private:
  void ReleaseStream() {
    if (holding_.has_value()) gate_->CloseStream(holding_->first, holding_->second);
    holding_.reset();
  }

  // The kind of stream this call holds open while it lasts, if any: an
  // arbiter.v1 watch (WatchGame, WatchAll: the server streams) or an
  // arbiter.v1 method the client streams (RecordEvents). Other services'
  // streams take no place under those caps: grpc.health.v1.Health/Watch is
  // PUBLIC, and counted as a watch, anonymous health watches once filled
  // --watchers-per-caller and --watchers and locked every token out of the
  // games' feed, with nothing to end them (a health watch sends only when
  // the serving status changes, so --watch-stall never fires). gRPC's
  // default health service answers Watch with a callback reactor: an open
  // health watch holds no thread, only its HTTP/2 stream and the reactor's
  // memory (GrpcLimitsTest.HealthWatchesTakeNoPlaceOfTheGamesWatchers
  // counts the threads). Server reflection's stream is counted apart: it
  // is gRPC's synchronous service, a thread each.
  std::optional<StreamKind> Holds() const {
    using Type = grpc::experimental::ServerRpcInfo::Type;
    if (absl::StartsWith(info_->method(), "/grpc.reflection.") &&
        info_->type() == Type::BIDI_STREAMING) {
      return StreamKind::kReflection;
    }
    if (MethodAdmission::Find(info_->method()) == nullptr) return std::nullopt;
    if (info_->type() == Type::SERVER_STREAMING) return StreamKind::kWatch;
    if (info_->type() == Type::BIDI_STREAMING) return StreamKind::kRecord;
    return std::nullopt;
  }

  static grpc::experimental::ServerRpcInfo::Type ServerStreaming() {
    return grpc::experimental::ServerRpcInfo::Type::SERVER_STREAMING;
  }

  void RecheckBeforeSending() {
    const auto now = std::chrono::steady_clock::now();
    if (now - checked_ < absl::ToChronoNanoseconds(gate_->watch_token_checked_every())) return;
    std::optional<absl::string_view> authorization;
    if (authorization_.has_value()) authorization = *authorization_;
    if (absl::Status s =
            gate_->StillAdmits(info_->method(), authorization, info_->server_context()->peer());
        !s.ok()) {
      return Refuse(s);
    }
    checked_ = now;
  }

  bool ClientStreams() const {
    using Type = grpc::experimental::ServerRpcInfo::Type;
    return info_->type() == Type::BIDI_STREAMING || info_->type() == Type::CLIENT_STREAMING;
  }

  void Readmit() {
    std::optional<absl::string_view> authorization;
    if (authorization_.has_value()) authorization = *authorization_;
    absl::StatusOr<Caller> caller =
        gate_->Admit(info_->method(), authorization, info_->server_context()->peer());
    if (!caller.ok()) return Refuse(caller.status());
    admitted_ = *caller;
    callers_->Set(info_->server_context(), call_, *std::move(caller));
  }

  void Admit(std::multimap<grpc::string_ref, grpc::string_ref>& metadata) {
    // Every authorization header: a call with two (an ARBITER's token and
    // a chief arbiter's) was admitted as whichever came first.
    std::vector<absl::string_view> headers;
    for (auto [it, end] = metadata.equal_range("authorization"); it != end; ++it) {
      headers.emplace_back(it->second.data(), it->second.size());
    }
    std::optional<absl::string_view> authorization;
    if (headers.size() == 1) authorization = headers.front();
    absl::StatusOr<Caller> caller =
        gate_->Admit(info_->method(), headers, info_->server_context()->peer());
    // A stream keeps the token, to look it up again for each request
    // (Readmit) or, on a watch, before it sends (RecheckBeforeSending); the
    // secret goes no further than here: handlers never see it.
    if ((ClientStreams() || info_->type() == ServerStreaming()) && authorization.has_value()) {
      authorization_ = std::string(*authorization);
    }
    checked_ = std::chrono::steady_clock::now();
    metadata.erase("authorization");
    if (!caller.ok()) return Refuse(caller.status());
    if (std::optional<StreamKind> kind = Holds(); kind.has_value()) {
      if (absl::Status s = gate_->OpenStream(*caller, *kind); !s.ok()) return Refuse(s);
      holding_.emplace(*caller, *kind);
    }
    admitted_ = *caller;
    callers_->Set(info_->server_context(), call_, *std::move(caller));
  }

  // A method that reads one request (unary, server streaming) finds none
  // here when the message did not parse: truncated, nested too deeply, a
  // string that is not UTF-8. INVALID_ARGUMENT for every such method, which
  // gRPC would otherwise answer as it handles the method: INTERNAL for a
  // synchronous one, UNIMPLEMENTED for a callback one (AppendEvents, the
  // watches), telling a client the method does not exist. (A streaming
  // client's stream ends with no message too; those methods are left out.)
  absl::Status CheckArrived(bool arrived) const {
    using Type = grpc::experimental::ServerRpcInfo::Type;
    if (arrived || messages_ > 0 ||
        (info_->type() != Type::UNARY && info_->type() != Type::SERVER_STREAMING)) {
      return absl::OkStatus();
    }
    return absl::InvalidArgumentError(
        absl::StrCat(info_->method(),
                     ": the request is not a valid message (truncated, malformed, nested too "
                     "deeply, or a string that is not UTF-8)"));
  }

  // Ends the call now with `why`; the handler, if it runs, finds the call
  // refused and writes nothing, and nothing it sends reaches the client.
  void Refuse(const absl::Status& why) {
    admitted_.reset();
    callers_->Set(info_->server_context(), call_, why);
    // Through the one bridge every status crosses (grpc_status.h): its
    // message escaped and bounded as a handler's would be.
    const grpc::Status refusal = ToGrpc(why);
    grpc_call_cancel_with_status(info_->server_context()->c_call(),
                                 static_cast<grpc_status_code>(refusal.error_code()),
                                 refusal.error_message().c_str(), nullptr);
  }

  grpc::experimental::ServerRpcInfo* info_;
  Gatekeeper* gate_;
  Callers* callers_;
  const uint64_t call_;
  std::optional<Caller> admitted_;
  std::optional<std::pair<Caller, StreamKind>> holding_;  // the stream's place in its cap
  std::optional<std::string> authorization_;              // a streamed call's token
  std::chrono::steady_clock::time_point checked_;         // a watch's last look-up of it
  int messages_ = 0;                                      // requests received so far
};

}  // namespace

absl::StatusOr<Caller> Callers::Admitted(const grpc::ServerContextBase* context,
                                         const google::protobuf::Message& request) const {
  absl::StatusOr<Caller> caller;
  {
    absl::MutexLock lock(&mu_);
    auto it = calls_.find(context);
    if (it == calls_.end()) return absl::InternalError("this call was not admitted by the server");
    caller = it->second.caller;
  }
  if (!caller.ok()) return caller.status();
  const MethodAdmission* admission = MethodAdmission::ForRequest(*request.GetDescriptor());
  if (admission == nullptr) {
    return absl::InternalError(absl::StrCat(request.GetDescriptor()->full_name(),
                                            " is the request of no declared arbiter.v1 method"));
  }
  if (absl::Status s = admission->Check(*caller, request); !s.ok()) return s;
  return caller;
}

uint64_t Callers::NewCall() {
  absl::MutexLock lock(&mu_);
  return ++calls_started_;
}

void Callers::Set(const grpc::ServerContextBase* context, uint64_t call,
                  absl::StatusOr<Caller> caller) {
  absl::MutexLock lock(&mu_);
  calls_.insert_or_assign(context, Verdict{call, std::move(caller)});
}

void Callers::Forget(const grpc::ServerContextBase* context, uint64_t call) {
  absl::MutexLock lock(&mu_);
  auto it = calls_.find(context);
  if (it != calls_.end() && it->second.call == call) calls_.erase(it);
}

grpc::experimental::Interceptor* AuthInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  return new AuthInterceptor(info, gate_, callers_);
}

}  // namespace arbiter::service
