#include "cli/client.h"
#include "cli/client_auth.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/report.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/security/credentials.h"

namespace arbiter::cli {

std::string ServerOf(const Args& args) {
  if (std::optional<std::string> server = args.Value("server")) return *server;
  const char* env = std::getenv("ARBITER_SERVER");
  return env != nullptr && *env != '\0' ? env : kDefaultServer;
}

std::shared_ptr<grpc::Channel> OpenChannel(const std::string& server) {
  return OpenAuthChannel(server);  // $ARBITER_TOKEN, $ARBITER_TLS_* (cli/client_auth.h)
}

std::unique_ptr<v1::Arbiter::Stub> Connect(const std::string& server) {
  return v1::Arbiter::NewStub(OpenChannel(server));
}

void SetDeadline(grpc::ClientContext* context, absl::Duration timeout) {
  context->set_deadline(absl::ToChronoTime(absl::Now() + timeout));
}

namespace {

const char* CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "ERROR";
  }
}

}  // namespace

int Fail(const std::string& command, const std::string& server, const grpc::Status& status,
         absl::string_view where) {
  std::string line = absl::StrCat(where, where.empty() ? "" : ": ", CodeName(status.error_code()),
                                  ": ", status.error_message());
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE ||
      status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
    absl::StrAppend(&line, "; is `arbiter serve` running at ", server,
                    "? (--server ADDR or $ARBITER_SERVER)");
  }
  if (status.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
    absl::StrAppend(&line, "; this server wants a token: $ARBITER_TOKEN (see `arbiter token`)");
  }
  return Complain(command, line, ExitCodeOf(status));
}

std::string ToJson(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions print;
  print.always_print_primitive_fields = true;
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(message, &out, print).ok()) return "{}";
  return out;
}

std::string GameResource(const std::string& game) {
  return absl::StartsWith(game, "games/") ? game : absl::StrCat("games/", game);
}

absl::StatusOr<absl::Time> ParseRfc3339(const std::string& text) {
  absl::Time t;
  std::string err;
  if (!absl::ParseTime(absl::RFC3339_full, text, &t, &err)) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' is not an RFC 3339 time: ", err));
  }
  return t;
}

std::string FormatTime(const google::protobuf::Timestamp& t) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", FromProto(t), absl::UTCTimeZone());
}

std::string FormatDuration(const google::protobuf::Duration& d) {
  return absl::FormatDuration(FromProto(d));
}

std::string Sanctions(const v1::Ruling& ruling) {
  std::vector<std::string> names;
  for (int s : ruling.sanctions()) names.push_back(v1::Sanction_Name(s));
  return absl::StrJoin(names, ", ");
}

std::string RulingText(const v1::Ruling& r) {
  std::string out = absl::StrCat("#", r.number(), "  event ", r.event(), "  ", FormatTime(r.at()),
                                 "  ", r.clause());
  if (r.also_cites_size() > 0)
    absl::StrAppend(&out, " (also ", absl::StrJoin(r.also_cites(), ", "), ")");
  absl::StrAppend(&out, "  against ", v1::Ruling::Party_Name(r.against()));
  if (r.pending()) {
    std::vector<std::string> options;
    for (const v1::RulingOption& o : r.options()) options.push_back(o.id());
    absl::StrAppend(&out, "  PENDING: ", absl::StrJoin(options, " | "));
  } else {
    absl::StrAppend(&out, "  ", Sanctions(r));
  }
  if (r.has_time_deducted()) absl::StrAppend(&out, " (", FormatDuration(r.time_deducted()), ")");
  if (!r.choice().empty()) absl::StrAppend(&out, "  decided: ", r.choice());
  if (r.resolves() != 0) absl::StrAppend(&out, "  resolves #", r.resolves());
  if (r.voided() != 0) {
    absl::StrAppend(&out, "  event ", r.voided(), " voided: supersedes #", r.supersedes());
  }
  if (r.warnings() > 0) absl::StrAppend(&out, "  warnings: ", r.warnings());
  if (!r.text_zh().empty()) absl::StrAppend(&out, "\n    zh: ", r.text_zh());
  if (!r.text_en().empty()) absl::StrAppend(&out, "\n    en: ", r.text_en());
  if (!r.note().empty()) absl::StrAppend(&out, "\n    note: ", r.note());
  return out;
}

std::string BoardDiagram(const v1::GameState& state) {
  const int size = state.board_size();
  if (size == 0) return "";
  static constexpr char kColumns[] = "ABCDEFGHJKLMNOPQRST";
  std::string letters = "    ";
  for (int c = 0; c < size; ++c) absl::StrAppend(&letters, std::string(1, kColumns[c]), " ");
  std::string out = letters + "\n";
  for (int i = 0; i < size; ++i) {
    const int row = size - i;
    absl::StrAppend(&out, row < 10 ? "  " : " ", row, " ");
    for (char ch : state.board(i)) absl::StrAppend(&out, std::string(1, ch), " ");
    absl::StrAppend(&out, row, "\n");
  }
  return out + letters + "\n";
}

}  // namespace arbiter::cli
