#include "cli/client_auth.h"
#include "absl/strings/str_cat.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/client_interceptor.h"

namespace arbiter::cli {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

std::string ReadOrDie(const std::string& path, const char* variable) {
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) {
    std::exit(Complain("", absl::StrCat(variable, " ", path, ": ", text.status().message()),
                       kExitBadInput));
  }
  return *std::move(text);
}

// Adds the bearer token to every call. An interceptor rather than call
// credentials, because gRPC sends call credentials only over TLS and the
// token must also work on a loopback plaintext channel.
class BearerInterceptor : public grpc::experimental::Interceptor {
 public:
  explicit BearerInterceptor(const std::string* header) : header_(header) {}
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      methods->GetSendInitialMetadata()->insert({"authorization", *header_});
    }
    methods->Proceed();
  }

 private:
  const std::string* header_;
};

class BearerFactory : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit BearerFactory(std::string token) : header_("Bearer " + std::move(token)) {}
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo*) override {
    return new BearerInterceptor(&header_);
  }

 private:
  std::string header_;  // lives as long as the channel, which owns the factory
};

}  // namespace

std::shared_ptr<grpc::Channel> OpenAuthChannel(const std::string& server,
                                               const char* token_variable) {
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  const std::string ca = Env("ARBITER_TLS_CA");
  if (ca.empty()) {
    credentials = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = ReadOrDie(ca, "$ARBITER_TLS_CA");
    if (const std::string cert = Env("ARBITER_TLS_CERT"); !cert.empty()) {
      ssl.pem_cert_chain = ReadOrDie(cert, "$ARBITER_TLS_CERT");
      ssl.pem_private_key = ReadOrDie(Env("ARBITER_TLS_KEY"), "$ARBITER_TLS_KEY");
    }
    credentials = grpc::SslCredentials(ssl);
  }
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> interceptors;
  if (const std::string token = Env(token_variable); !token.empty()) {
    interceptors.push_back(std::make_unique<BearerFactory>(token));
  }
  return grpc::experimental::CreateCustomChannelWithInterceptors(
      server, credentials, grpc::ChannelArguments(), std::move(interceptors));
}

}  // namespace arbiter::cli
