#include "adjudicator/service/reflection.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/grpc_status.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "grpcpp/impl/server_builder_option.h"
#include "grpcpp/impl/server_builder_plugin.h"
#include "grpcpp/impl/server_initializer.h"

namespace arbiter::service {
namespace {

namespace pb = google::protobuf;
namespace refl = grpc::reflection::v1alpha;

const pb::DescriptorPool& Pool() { return *pb::DescriptorPool::generated_pool(); }

// Appends `file`, then depth first every file it imports that is not in
// `sent` yet, so that a client can build it from this one response.
void AddWithImports(const pb::FileDescriptor* file, absl::flat_hash_set<std::string>& sent,
                    refl::FileDescriptorResponse* out) {
  if (!sent.insert(file->name()).second) return;
  pb::FileDescriptorProto proto;
  file->CopyTo(&proto);
  out->add_file_descriptor_proto(proto.SerializeAsString());
  for (int i = 0; i < file->dependency_count(); ++i) AddWithImports(file->dependency(i), sent, out);
}

void SendFile(const pb::FileDescriptor* file, refl::ServerReflectionResponse* out) {
  absl::flat_hash_set<std::string> sent;
  AddWithImports(file, sent, out->mutable_file_descriptor_response());
}

// `file` (a lookup of `what`) with its imports, or NOT_FOUND.
absl::Status SendFileOf(absl::string_view what, const pb::FileDescriptor* file,
                        refl::ServerReflectionResponse* out) {
  if (file == nullptr) return absl::NotFoundError(absl::StrCat("no ", what));
  SendFile(file, out);
  return absl::OkStatus();
}

absl::Status FileContainingExtension(const refl::ExtensionRequest& request,
                                     refl::ServerReflectionResponse* out) {
  const pb::Descriptor* type = Pool().FindMessageTypeByName(request.containing_type());
  if (type == nullptr) {
    return absl::NotFoundError(absl::StrCat("no message type ", request.containing_type()));
  }
  const pb::FieldDescriptor* extension =
      Pool().FindExtensionByNumber(type, request.extension_number());
  if (extension == nullptr) {
    return absl::NotFoundError(absl::StrCat("no extension ", request.extension_number(), " of ",
                                            request.containing_type()));
  }
  SendFile(extension->file(), out);
  return absl::OkStatus();
}

absl::Status ExtensionNumbers(const std::string& type_name, refl::ExtensionNumberResponse* out) {
  const pb::Descriptor* type = Pool().FindMessageTypeByName(type_name);
  if (type == nullptr) return absl::NotFoundError(absl::StrCat("no message type ", type_name));
  std::vector<const pb::FieldDescriptor*> extensions;
  Pool().FindAllExtensions(type, &extensions);
  std::vector<int> numbers;
  for (const pb::FieldDescriptor* e : extensions) numbers.push_back(e->number());
  std::sort(numbers.begin(), numbers.end());
  out->set_base_type_name(type_name);
  for (int n : numbers) out->add_extension_number(n);
  return absl::OkStatus();
}

// Hands the built server's list of service names to a ReflectionService:
// gRPC gives it only to builder plugins, and a plugin joins a builder only
// through an option.
class ServiceListPlugin final : public grpc::ServerBuilderPlugin {
 public:
  explicit ServiceListPlugin(const std::vector<std::string>** services) : services_(services) {}
  std::string name() override { return "arbiter_reflection_service_list"; }
  void InitServer(grpc::ServerInitializer* server) override {
    *services_ = server->GetServiceList();
  }
  void Finish(grpc::ServerInitializer*) override {}
  void ChangeArguments(const std::string&, void*) override {}

 private:
  const std::vector<std::string>** services_;
};

class ServiceListOption final : public grpc::ServerBuilderOption {
 public:
  explicit ServiceListOption(const std::vector<std::string>** services) : services_(services) {}
  void UpdateArguments(grpc::ChannelArguments*) override {}
  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    plugins->push_back(std::make_unique<ServiceListPlugin>(services_));
  }

 private:
  const std::vector<std::string>** services_;
};

}  // namespace

ReflectionService::ReflectionService(Admission admit) : admit_(std::move(admit)) {}

void ReflectionService::AddTo(grpc::ServerBuilder& builder) {
  builder.RegisterService(this);
  builder.SetOption(std::make_unique<ServiceListOption>(&services_));
}

refl::ServerReflectionResponse ReflectionService::Answer(
    const refl::ServerReflectionRequest& request) const {
  refl::ServerReflectionResponse out;
  out.set_valid_host(request.host());
  *out.mutable_original_request() = request;
  absl::Status status;
  switch (request.message_request_case()) {
    case refl::ServerReflectionRequest::kFileByFilename:
      status = SendFileOf(absl::StrCat("file ", request.file_by_filename()),
                          Pool().FindFileByName(request.file_by_filename()), &out);
      break;
    case refl::ServerReflectionRequest::kFileContainingSymbol:
      status = SendFileOf(absl::StrCat("symbol ", request.file_containing_symbol()),
                          Pool().FindFileContainingSymbol(request.file_containing_symbol()), &out);
      break;
    case refl::ServerReflectionRequest::kFileContainingExtension:
      status = FileContainingExtension(request.file_containing_extension(), &out);
      break;
    case refl::ServerReflectionRequest::kAllExtensionNumbersOfType:
      status = ExtensionNumbers(request.all_extension_numbers_of_type(),
                                out.mutable_all_extension_numbers_response());
      break;
    case refl::ServerReflectionRequest::kListServices:
      if (services_ == nullptr) {
        status =
            absl::FailedPreconditionError("the service list is known once the server is built");
        break;
      }
      for (const std::string& name : *services_) {
        out.mutable_list_services_response()->add_service()->set_name(name);
      }
      break;
    case refl::ServerReflectionRequest::MESSAGE_REQUEST_NOT_SET:
      status = absl::UnimplementedError("an unknown or empty reflection request");
      break;
  }
  if (!status.ok()) {
    refl::ErrorResponse* error = out.mutable_error_response();
    error->set_error_code(static_cast<int>(status.code()));
    error->set_error_message(std::string(status.message()));
  }
  return out;
}

grpc::Status ReflectionService::ServerReflectionInfo(
    grpc::ServerContext* context,
    grpc::ServerReaderWriter<refl::ServerReflectionResponse, refl::ServerReflectionRequest>*
        stream) {
  const std::string method =
      absl::StrCat("/", refl::ServerReflection::service_full_name(), "/ServerReflectionInfo");
  // Admitted before anything is read; then every further request is a read
  // like any call, charged to the caller's rate, so one long stream cannot
  // ask without limit.
  if (const absl::Status admitted = admit_(*context, method); !admitted.ok()) {
    return ToGrpc(admitted);
  }
  refl::ServerReflectionRequest request;
  for (bool first = true; stream->Read(&request); first = false) {
    if (!first) {
      if (const absl::Status admitted = admit_(*context, method); !admitted.ok()) {
        return ToGrpc(admitted);
      }
    }
    if (!stream->Write(Answer(request))) break;
  }
  return grpc::Status::OK;
}

}  // namespace arbiter::service
