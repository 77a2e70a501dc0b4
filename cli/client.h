// What the client commands (health, game, record, history, show, watch,
// decide, and export/verify against a server) share.
//
// The server is `--server ADDR` (anywhere on the command line, or before the
// command: `arbiter --server ADDR show G`), else $ARBITER_SERVER, else
// 127.0.0.1:50051. `--json` prints machine output (proto3 JSON, lowerCamel)
// instead of the readable default. Exit codes (see commands.h): 0 ok, 1 a
// negative answer, 2 bad input or usage (INVALID_ARGUMENT, NOT_FOUND,
// ALREADY_EXISTS, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE), 3 the server
// is unavailable or failed (UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL, ...).
#ifndef ARBITER_CLI_CLIENT_H_
#define ARBITER_CLI_CLIENT_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "google/protobuf/message.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"

namespace arbiter::cli {

inline constexpr char kDefaultServer[] = "127.0.0.1:50051";

class ClientArgs {
 public:
  // Takes --server ADDR / --server=ADDR and --json out of argv[1..]; the
  // rest stay in order. False (with `error`) on a --server with no value,
  // and on --help / -h, after which Usage() prints to stdout and returns 0.
  bool Parse(int argc, char** argv, std::string* error);

  const std::string& server() const { return server_; }
  bool json() const { return json_; }

  // Removes `--name VALUE` (or --name=VALUE); nullopt when absent. Sets
  // `missing` when the flag has no value.
  std::optional<std::string> Take(const std::string& name, bool* missing);
  // Removes a boolean `--name`; true if it was there.
  bool TakeSwitch(const std::string& name);
  // What is left: positionals (and unknown flags, which callers refuse).
  const std::vector<std::string>& rest() const { return rest_; }

 private:
  std::string server_;
  bool json_ = false;
  std::vector<std::string> rest_;
};

std::shared_ptr<grpc::Channel> OpenChannel(const std::string& server);
std::unique_ptr<v1::Arbiter::Stub> Connect(const std::string& server);

// A deadline for a unary call.
void SetDeadline(grpc::ClientContext* context, absl::Duration timeout = absl::Seconds(30));

int ExitCode(const grpc::Status& status);
// Prints "arbiter CMD: CODE: message" (and a hint when unavailable) to stderr
// and returns the exit code.
int Fail(const std::string& command, const std::string& server, const grpc::Status& status);
int Usage(const char* usage);

// One line of proto3 JSON (lowerCamel, defaults printed).
std::string ToJson(const google::protobuf::Message& message);

// "games/ID" from "ID" or "games/ID".
std::string GameResource(const std::string& game);

// RFC 3339.
absl::StatusOr<absl::Time> ParseRfc3339(const std::string& text);
std::string FormatTime(const google::protobuf::Timestamp& t);
std::string FormatDuration(const google::protobuf::Duration& d);

// The JSON key of an event's kind ("phoneRang") and its fields as JSON.
std::string EventKind(const v1::Event& event);
std::string EventDetails(const v1::Event& event);

// "WARNING, PENALTY_STONE"
std::string Sanctions(const v1::Ruling& ruling);

// The ruling as readable lines: number, clause, against, sanctions, texts.
std::string RulingText(const v1::Ruling& ruling);

// A board diagram with GTP coordinates, from GameState.board.
std::string BoardDiagram(const v1::GameState& state);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_CLIENT_H_
