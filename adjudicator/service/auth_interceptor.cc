#include "adjudicator/service/auth_interceptor.h"

#include <grpc/grpc.h>

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/field_bounds.h"
#include "arbiter/v1/service.pb.h"
#include "grpcpp/support/interceptor.h"

namespace arbiter::service {
namespace {

using grpc::experimental::InterceptionHookPoints;

// The game an ARBITER's record call names ("games/{id}" -> id; a malformed
// name matches no assignment, and the handler refuses it anyway). Typed per
// method: the request is the method's own message.
std::optional<std::string> GameOfRecordCall(absl::string_view method, void* request) {
  if (request == nullptr) return std::nullopt;  // none arrived: the call fails anyway
  std::string name;
  if (method == "/arbiter.v1.Arbiter/AppendEvents") {
    name = static_cast<v1::AppendEventsRequest*>(request)->game();
  } else if (method == "/arbiter.v1.Arbiter/Decide") {
    name = static_cast<v1::DecideRequest*>(request)->game();
  } else {
    return std::nullopt;
  }
  constexpr absl::string_view kPrefix = "games/";
  return absl::StartsWith(name, kPrefix) ? name.substr(kPrefix.size()) : std::string();
}

class AuthInterceptor final : public grpc::experimental::Interceptor {
 public:
  AuthInterceptor(grpc::experimental::ServerRpcInfo* info, Gatekeeper* gate, Callers* callers)
      : info_(info), gate_(gate), callers_(callers), call_(callers->NewCall()) {}

  ~AuthInterceptor() override {
    callers_->Forget(info_->server_context(), call_);
    ReleaseWatch();
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      Admit(*methods->GetRecvInitialMetadata());
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE) &&
        admitted_.has_value()) {
      if (absl::Status s = CheckArrived(methods->GetRecvMessage()); !s.ok()) {
        Refuse(s);
      } else if (absl::Status s = CheckBoundsOf(methods->GetRecvMessage()); !s.ok()) {
        Refuse(s);
      } else if (++messages_ == 1) {
        // The first request of an ARBITER's record call names the game.
        std::optional<std::string> game =
            GameOfRecordCall(info_->method(), methods->GetRecvMessage());
        if (game.has_value()) {
          if (absl::Status s = admitted_->MayRecordIn(*game); !s.ok()) Refuse(s);
        }
      } else if (absl::Status s = gate_->Charge(*admitted_, MethodAccess(info_->method()));
                 !s.ok()) {
        // Each further request on a stream costs what a call does.
        Refuse(s);
      }
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      // The watch's place is free before its client learns the stream ended:
      // a client that watches again at once is not refused for the stream it
      // has just seen end (the call itself is destroyed later, on gRPC's time).
      ReleaseWatch();
    }
    methods->Proceed();
  }

 private:
  void ReleaseWatch() {
    if (watching_.has_value()) gate_->CloseWatch(*watching_);
    watching_.reset();
  }

  void Admit(std::multimap<grpc::string_ref, grpc::string_ref>& metadata) {
    std::optional<absl::string_view> authorization;
    auto header = metadata.find("authorization");
    if (header != metadata.end()) {
      authorization = absl::string_view(header->second.data(), header->second.size());
    }
    absl::StatusOr<Caller> caller =
        gate_->Admit(info_->method(), authorization, info_->server_context()->peer());
    // The secret goes no further than here: handlers never see it.
    metadata.erase("authorization");
    if (!caller.ok()) return Refuse(caller.status());
    if (info_->type() == grpc::experimental::ServerRpcInfo::Type::SERVER_STREAMING) {
      if (absl::Status s = gate_->OpenWatch(*caller); !s.ok()) return Refuse(s);
      watching_ = *caller;
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
  absl::Status CheckArrived(void* request) const {
    using Type = grpc::experimental::ServerRpcInfo::Type;
    if (request != nullptr || messages_ > 0 ||
        (info_->type() != Type::UNARY && info_->type() != Type::SERVER_STREAMING)) {
      return absl::OkStatus();
    }
    return absl::InvalidArgumentError(
        absl::StrCat(info_->method(),
                     ": the request is not a valid message (truncated, malformed, nested too "
                     "deeply, or a string that is not UTF-8)"));
  }

  // The byte limits of every string of an arbiter.v1 request (field_bounds.h),
  // before any handler reads it. The other services' requests (health,
  // reflection) are not all protobuf messages here, and hold no client text
  // that is stored or echoed.
  absl::Status CheckBoundsOf(void* request) const {
    if (request == nullptr || !absl::StartsWith(info_->method(), "/arbiter.v1.")) {
      return absl::OkStatus();
    }
    return CheckRequest(*static_cast<const google::protobuf::Message*>(request));
  }

  // Ends the call now with `why`; the handler, if it runs, finds the call
  // refused and writes nothing, and nothing it sends reaches the client.
  void Refuse(const absl::Status& why) {
    admitted_.reset();
    callers_->Set(info_->server_context(), call_, why);
    const std::string message(why.message());
    grpc_call_cancel_with_status(info_->server_context()->c_call(),
                                 static_cast<grpc_status_code>(why.code()), message.c_str(),
                                 nullptr);
  }

  grpc::experimental::ServerRpcInfo* info_;
  Gatekeeper* gate_;
  Callers* callers_;
  const uint64_t call_;
  std::optional<Caller> admitted_;
  std::optional<Caller> watching_;
  int messages_ = 0;  // requests received so far
};

}  // namespace

absl::StatusOr<Caller> Callers::Of(const grpc::ServerContextBase* context) const {
  absl::MutexLock lock(&mu_);
  auto it = calls_.find(context);
  if (it == calls_.end()) return absl::InternalError("this call was not admitted by the server");
  return it->second.caller;
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
