// What the client commands (health, game, record, history, show, watch,
// decide, and export/verify against a server) share.
//
// The server is `--server ADDR` (anywhere on the command line, or before the
// command: `arbiter --server ADDR show G`), else $ARBITER_SERVER, else
// 127.0.0.1:50051. `--json` prints machine output (proto3 JSON, lowerCamel)
// instead of the readable default. A failed call's exit code is ExitCodeOf
// its status (exit_codes.h).
#ifndef ARBITER_CLI_CLIENT_H_
#define ARBITER_CLI_CLIENT_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "cli/event_text.h"
#include "cli/flags.h"
#include "google/protobuf/message.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"

namespace arbiter::cli {

inline constexpr char kDefaultServer[] = "127.0.0.1:50051";

// The flags every client command declares (flags.h): where the server is,
// and machine output.
inline constexpr FlagSpec kServerFlag = {
    "server", "ADDR", "the server (default $ARBITER_SERVER, else 127.0.0.1:50051)"};
inline constexpr FlagSpec kJsonFlag = {"json", "",
                                       "print proto3 JSON (lowerCamel) instead of text"};

// --server, else $ARBITER_SERVER (which `arbiter --server ADDR COMMAND`
// sets), else kDefaultServer.
std::string ServerOf(const Args& args);

std::shared_ptr<grpc::Channel> OpenChannel(const std::string& server);
std::unique_ptr<v1::Arbiter::Stub> Connect(const std::string& server);

// A deadline for a unary call.
void SetDeadline(grpc::ClientContext* context, absl::Duration timeout = absl::Seconds(30));

// Calls a paged method (page_token / next_page_token) from the first page
// to the last, handing each page to `join` in order; `restart` is called
// before the first page. A page ABORTED (the answer changed between two
// pages: the game went on, a round was paired) starts again from the first
// page, up to kPagedAttempts times in all. The last call's status.
inline constexpr int kPagedAttempts = 3;
template <typename Stub, typename Request, typename Response>
grpc::Status CallPages(Stub& stub,
                       grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&,
                                                    Response*),
                       Request request, const std::function<void()>& restart,
                       const std::function<void(Response&)>& join) {
  for (int attempt = 1;; ++attempt) {
    restart();
    request.clear_page_token();
    grpc::Status status;
    do {
      grpc::ClientContext context;
      SetDeadline(&context, absl::Seconds(120));
      Response page;
      status = (stub.*method)(&context, request, &page);
      if (!status.ok()) break;
      request.set_page_token(page.next_page_token());
      join(page);
    } while (!request.page_token().empty());
    if (status.error_code() != grpc::StatusCode::ABORTED || attempt == kPagedAttempts) {
      return status;
    }
  }
}

// Prints "arbiter CMD: [WHERE: ]CODE: message[; hint]" as one line to stderr
// (complaint.h), the hint saying where the server was looked for when it is
// unavailable and how to give a token when one is wanted; returns the exit
// code (ExitCodeOf, exit_codes.h). WHERE names the input at fault ("line 7").
int Fail(const std::string& command, const std::string& server, const grpc::Status& status,
         absl::string_view where = "");

// One line of proto3 JSON (lowerCamel, defaults printed).
std::string ToJson(const google::protobuf::Message& message);

// "games/ID" from "ID" or "games/ID".
std::string GameResource(const std::string& game);

// RFC 3339.
absl::StatusOr<absl::Time> ParseRfc3339(const std::string& text);
// "2026-05-02 09:07:30 UTC": the ledger's time, saying which it is (an
// auditor reading `history` months later, elsewhere, must not guess).
std::string FormatTime(const google::protobuf::Timestamp& t);
std::string FormatDuration(const google::protobuf::Duration& d);

// "WARNING, PENALTY_STONE"
std::string Sanctions(const v1::Ruling& ruling);

// The ruling as readable lines: number, clause, against, sanctions, texts.
std::string RulingText(const v1::Ruling& ruling);

// A board diagram with GTP coordinates, from GameState.board.
std::string BoardDiagram(const v1::GameState& state);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_CLIENT_H_
