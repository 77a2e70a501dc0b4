// Authorization for every call the server takes: one gRPC server
// interceptor (SECURITY.md) and, for the arbiter.v1 methods, one typed step
// on the request. For each call the interceptor asks the Gatekeeper (the
// bearer token, the method's declared access, the caller's rate, the caps
// on open streams), and again for each further request a client streams on
// the call (RecordEvents: the token looked up again, the rate charged). A
// call it refuses is ended at once with its status (UNAUTHENTICATED,
// PERMISSION_DENIED or RESOURCE_EXHAUSTED) before the handler can answer,
// so a service that cannot check for itself (the stock server reflection)
// discloses nothing. The arbiter.v1 handlers take their Caller from
// Callers::Serve / Callers::Of(context, request), which runs the method's
// admission (admission.h) on the request as the handler received it, typed
// (its bounds, the caller's authority over the game it names), and act on
// nothing else, so a refused call writes nothing.
//
// gRPC 1.51's server interceptors cannot stop a handler from running (they
// cannot hijack on the server side); ending the call with
// grpc_call_cancel_with_status is what TryCancel() itself does, with our
// status instead of CANCELLED.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_INTERCEPTOR_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_INTERCEPTOR_H_

#include <type_traits>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/service/admission.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/grpc_status.h"
#include "google/protobuf/message.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/server_interceptor.h"

namespace arbiter::service {

// The admitted (or refused) caller of each call in flight, by its server
// context: how a handler learns who is calling, explicitly.
class Callers {
 public:
  // The caller of the call `context` belongs to, once the admission of the
  // method whose request `request` is (MethodAdmission::ForRequest) has
  // passed it; else why it was refused: the interceptor's refusal, the
  // admission's (INVALID_ARGUMENT, PERMISSION_DENIED), or INTERNAL for a
  // call the interceptor never saw or a message that is no declared
  // method's request. `Request` is the handler's own message type.
  template <typename Request>
  absl::StatusOr<Caller> Of(const grpc::ServerContextBase* context, const Request& request) const {
    static_assert(std::is_base_of_v<google::protobuf::Message, Request>,
                  "a request of an arbiter.v1 method");
    return Admitted(context, request);
  }

  // Runs a handler's body `fn(const Caller&) -> absl::Status` for the call
  // `context` belongs to, once Of(context, request) admits it, or answers
  // its refusal without running it.
  template <typename Request, typename Fn>
  grpc::Status Serve(const grpc::ServerContextBase* context, const Request& request, Fn fn) const {
    absl::StatusOr<Caller> caller = Of(context, request);
    if (!caller.ok()) return ToGrpc(caller.status());
    return ToGrpc(fn(*caller));
  }

  // The interceptor's side: a new call's id, its verdict, and its end. A
  // context's memory may serve a new call before the old call's interceptor
  // is gone, so each verdict carries its call's id and only that call
  // forgets it.
  uint64_t NewCall();
  void Set(const grpc::ServerContextBase* context, uint64_t call, absl::StatusOr<Caller> caller);
  void Forget(const grpc::ServerContextBase* context, uint64_t call);

 private:
  struct Verdict {
    uint64_t call;
    absl::StatusOr<Caller> caller;
  };
  absl::StatusOr<Caller> Admitted(const grpc::ServerContextBase* context,
                                  const google::protobuf::Message& request) const;
  mutable absl::Mutex mu_;
  uint64_t calls_started_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<const grpc::ServerContextBase*, Verdict> calls_ ABSL_GUARDED_BY(mu_);
};

// Makes the interceptor of each call; register with
// ServerBuilder::experimental().SetInterceptorCreators.
class AuthInterceptorFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  // Neither owned; both must outlive the server.
  AuthInterceptorFactory(Gatekeeper* gate, Callers* callers) : gate_(gate), callers_(callers) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override;

 private:
  Gatekeeper* gate_;
  Callers* callers_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_INTERCEPTOR_H_
