// `arbiter record [--game ID] [--replay] [--follow] [--retries N] [--server ADDR] [--json]
// FILE|-`: sends event lines (JSON, one per line, DOMAIN.md §3) to the
// server, one AppendEvents each.
//
// The whole input is read and checked first (record_check.h: JSON, shape,
// the game of each line, time order within each game), and nothing is sent
// unless every line passes, so a bad line 2 does not leave line 1's half
// game in the hall. --follow is for a live source (a pipe from a board):
// each line is checked and sent as it arrives.
//
// The game is the one the latest gameCreated line names, else --game. A line
// with no idempotencyKey is given one derived from the game, the line number
// and the line's content ("record/GAME/LINE/HASH"), so running the same file
// again after a lost connection records nothing twice. A call the server
// cannot take now (its write-rate limit, RESOURCE_EXHAUSTED; UNAVAILABLE;
// DEADLINE_EXCEEDED) is tried again with the same key after a backoff, or
// after the wait a rate limit names when that is longer (retry.h), said on
// stderr, up to --retries times. Each acknowledged event
// prints one line; with --json an object with gameId, revision, position,
// kind and the rulings it produced. A line the server refuses stops the run:
// exit 2 with "FILE: line N: why" (what was acknowledged stays), 3 when the
// server stays unreachable.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/client.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/event_lines.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/record_check.h"
#include "cli/retry.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "proto/canonical/sha256.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kRecordFlags[] = {
    {"game", "ID", "the game of lines before any gameCreated"},
    {"replay", "",
     "the lines replay an earlier record: times ahead of the server's clock are allowed"},
    {"follow", "", "a live source: check and send each line as it arrives, not the whole first"},
    {"retries", "N",
     "tries again after a rate limit or an unavailable server, at most N times a line "
     "(default 6; 0: never)"},
    kJsonFlag,
    kServerFlag,
};
constexpr CommandSpec kRecord = {
    .name = "record",
    .positionals = "FILE|-",
    .summary = "check event lines, then send them to a server, printing each acknowledgement",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kRecordFlags,
    .notes =
        "Every line is checked before any is sent (JSON, a kind and a time, the game it\n"
        "belongs to, time order within each game): a bad line sends nothing. --follow\n"
        "sends each line as it arrives instead (a live pipe).\n"
        "The game is the one the latest gameCreated line names, else --game. A line with no\n"
        "idempotencyKey gets one from the game, the line number and the line's content, so\n"
        "sending the same file again records nothing twice. The server's write-rate limit\n"
        "or its absence is waited out (exponential backoff, or the wait the server names\n"
        "when longer; said on stderr, the same keys).\n"
        "A line the server refuses stops the run (\"line N: why\"); what was acknowledged\n"
        "stays. A line dated more than the server's --max-skew (default 10m) ahead of its\n"
        "clock is refused unless --replay.\n",
};

std::string AckJson(const std::string& game_id, const v1::RecordedEvent& e) {
  google::protobuf::Struct ack;
  auto& f = *ack.mutable_fields();
  f["gameId"].set_string_value(game_id);
  f["revision"].set_number_value(static_cast<double>(e.revision()));
  f["position"].set_number_value(static_cast<double>(e.position()));
  f["kind"].set_string_value(EventKind(e.event()));
  google::protobuf::ListValue* rulings = f["rulings"].mutable_list_value();
  for (const v1::Ruling& r : e.rulings()) {
    google::protobuf::Value v;
    if (google::protobuf::util::JsonStringToMessage(ToJson(r), &v).ok()) *rulings->add_values() = v;
  }
  std::string out;
  google::protobuf::util::JsonPrintOptions print;
  if (!google::protobuf::util::MessageToJsonString(ack, &out, print).ok()) return "{}";
  return out;
}

// A checked line, ready to send.
struct Line {
  int number = 0;
  std::string game;
  v1::Event event;
};

// Sends lines one AppendEvents each, printing each acknowledgement.
class Sender {
 public:
  Sender(const Args& args, std::string where, RetryPolicy policy)
      : server_(ServerOf(args)),
        stub_(Connect(server_)),
        where_(std::move(where)),
        policy_(policy),
        json_(args.Has("json")),
        replay_(args.Has("replay")) {}

  // The exit status to end with, or kExitOk to go on.
  int Send(Line& line, const std::string& text);
  int recorded() const { return recorded_; }

 private:
  const std::string server_;
  const std::unique_ptr<v1::Arbiter::Stub> stub_;
  const std::string where_;
  const RetryPolicy policy_;
  const bool json_;
  const bool replay_;
  int recorded_ = 0;
};

int Sender::Send(Line& line, const std::string& text) {
  if (line.event.idempotency_key().empty()) {
    line.event.set_idempotency_key(absl::StrCat("record/", line.game, "/", line.number, "/",
                                                ToHex(Sha256(text)).substr(0, 16)));
  }
  v1::AppendEventsRequest req;
  req.set_game(GameResource(line.game));
  req.set_replay(replay_);
  *req.add_events() = line.event;
  v1::AppendEventsResponse resp;
  const std::string place = absl::StrCat(where_, ": line ", line.number);
  const grpc::Status status = CallWithRetries(
      policy_,
      [&] {
        grpc::ClientContext context;
        SetDeadline(&context);
        resp.Clear();
        return stub_->AppendEvents(&context, req, &resp);
      },
      [&](const grpc::Status& refused, int retry, absl::Duration wait) {
        Complain("record",
                 absl::StrFormat("%s: %s; retry %d of %d in %s, with the same idempotency key",
                                 place, refused.error_message(), retry, policy_.retries,
                                 absl::FormatDuration(absl::Trunc(wait, absl::Milliseconds(1)))),
                 kExitOk);
      });
  if (!status.ok()) return Fail("record", server_, status, place);
  for (const v1::RecordedEvent& e : resp.events()) {
    ++recorded_;
    if (json_) {
      std::printf("%s\n", AckJson(line.game, e).c_str());
    } else {
      std::printf("%s rev %llu pos %llu %s %s\n", line.game.c_str(),
                  static_cast<unsigned long long>(e.revision()),
                  static_cast<unsigned long long>(e.position()), EventKind(e.event()).c_str(),
                  EventDetails(e.event()).c_str());
      for (const v1::Ruling& r : e.rulings()) std::printf("  ruling %s\n", RulingText(r).c_str());
    }
  }
  std::fflush(stdout);
  return kExitOk;
}

}  // namespace

int RunRecord(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kRecord, argc, argv, &args)) return *exit;
  const std::string path = args.positionals()[0];
  const bool follow = args.Has("follow");
  RetryPolicy policy;
  if (absl::Status s = args.Number("retries", &policy.retries); !s.ok() || policy.retries < 0) {
    return UsageError(kRecord, "--retries: a number of tries, 0 or more");
  }
  std::ifstream file;
  std::istream* in = &std::cin;
  const std::string where = path == "-" ? "stdin" : path;
  if (path != "-") {
    if (std::optional<std::string> why = OpenToRead(path, &file)) {
      return Complain("record", absl::StrCat(path, ": ", *why), kExitBadInput);
    }
    in = &file;
  }

  RecordCheck check(args.ValueOr("game", ""));
  EventLineReader reader(*in, follow ? 1 : 256);
  Sender sender(args, where, policy);
  std::vector<std::pair<Line, std::string>> lines;  // unless --follow: all, checked
  int number = 0;
  absl::StatusOr<v1::Event> event;
  std::string text;
  while (reader.Next(&number, &event, &text)) {
    absl::StatusOr<std::string> game =
        event.ok() ? check.Check(number, *event) : absl::StatusOr<std::string>(event.status());
    if (!game.ok()) {
      return Complain("record",
                      absl::StrCat(where, ": line ", number, ": ", game.status().message(),
                                   follow ? "" : "; nothing was sent"),
                      kExitBadInput);
    }
    Line line{number, *std::move(game), *std::move(event)};
    if (!follow) {
      lines.emplace_back(std::move(line), std::move(text));
    } else if (int exit = sender.Send(line, text); exit != kExitOk) {
      return exit;
    }
  }
  if (reader.failed()) {
    return Complain(
        "record",
        absl::StrCat(where, ": reading failed part way", follow ? "" : "; nothing was sent"),
        kExitBadInput);
  }
  for (auto& [line, line_text] : lines) {
    if (int exit = sender.Send(line, line_text); exit != kExitOk) return exit;
  }
  if (!args.Has("json")) std::printf("recorded %d event(s)\n", sender.recorded());
  return 0;
}

}  // namespace arbiter::cli
