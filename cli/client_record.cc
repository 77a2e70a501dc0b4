// `arbiter record [--game ID] [--replay] [--server ADDR] [--json] FILE|-`: sends event
// lines (JSON, one per line, DOMAIN.md §3) to the server as they come, one
// AppendEvents each, so a pipe from a live source records live.
//
// The game is the one the latest gameCreated line names, else --game. A line
// with no idempotencyKey is given one derived from the game, the line number
// and the line's content ("record/GAME/LINE/HASH"), so running the same file
// again after a lost connection records nothing twice. Each acknowledged
// event prints one line; with --json an object with gameId, revision,
// position, kind and the rulings it produced. The first refused line stops
// the run: exit 2 with "line N: why" (what was acknowledged stays), 3 when
// the server is unreachable.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "cli/client.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "proto/canonical/sha256.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kFlags[] = {
    {"game", "ID", "the game of lines before any gameCreated"},
    {"replay", "",
     "the lines replay an earlier record: times ahead of the server's clock are allowed"},
    kJsonFlag,
    kServerFlag,
};
constexpr CommandSpec kRecord = {
    .name = "record",
    .positionals = "FILE|-",
    .summary = "send event lines to a server as they come, printing each acknowledgement",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kFlags,
    .notes =
        "The game is the one the latest gameCreated line names, else --game. A line with no\n"
        "idempotencyKey gets one from the game, the line number and the line's content, so\n"
        "sending the same file again records nothing twice. The first refused line stops\n"
        "the run (\"line N: why\"); what was acknowledged stays. A line dated more than the\n"
        "server's --max-skew (default 10m) ahead of its clock is refused unless --replay.\n",
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

}  // namespace

int RunRecord(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kRecord, argc, argv, &args)) return *exit;
  std::string game = args.ValueOr("game", "");
  const std::string path = args.positionals()[0];
  const bool json = args.Has("json");
  const bool replay = args.Has("replay");
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path);
    if (!file) {
      std::fprintf(stderr, "arbiter record: cannot read %s\n", path.c_str());
      return kExitBadInput;
    }
    in = &file;
  }

  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  google::protobuf::util::JsonParseOptions parse;
  std::string line;
  int number = 0;
  int recorded = 0;
  while (std::getline(*in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    v1::Event event;
    if (auto s = google::protobuf::util::JsonStringToMessage(line, &event, parse); !s.ok()) {
      std::fprintf(stderr, "arbiter record: line %d: %s\n", number,
                   std::string(s.message()).c_str());
      return kExitBadInput;
    }
    if (event.has_game_created()) game = event.game_created().game_id();
    if (game.empty()) {
      std::fprintf(stderr,
                   "arbiter record: line %d: no game: start with gameCreated or give --game\n",
                   number);
      return kExitBadInput;
    }
    if (event.idempotency_key().empty()) {
      event.set_idempotency_key(
          absl::StrCat("record/", game, "/", number, "/", ToHex(Sha256(line)).substr(0, 16)));
    }
    v1::AppendEventsRequest req;
    req.set_game(GameResource(game));
    req.set_replay(replay);
    *req.add_events() = event;
    v1::AppendEventsResponse resp;
    grpc::ClientContext context;
    SetDeadline(&context);
    grpc::Status status = stub->AppendEvents(&context, req, &resp);
    if (!status.ok()) {
      std::fprintf(stderr, "arbiter record: line %d:\n", number);
      return Fail("record", server, status);
    }
    for (const v1::RecordedEvent& e : resp.events()) {
      ++recorded;
      if (json) {
        std::printf("%s\n", AckJson(game, e).c_str());
      } else {
        std::printf("%s rev %llu pos %llu %s %s\n", game.c_str(),
                    static_cast<unsigned long long>(e.revision()),
                    static_cast<unsigned long long>(e.position()), EventKind(e.event()).c_str(),
                    EventDetails(e.event()).c_str());
        for (const v1::Ruling& r : e.rulings()) std::printf("  ruling %s\n", RulingText(r).c_str());
      }
    }
    std::fflush(stdout);
  }
  if (!json) std::printf("recorded %d event(s)\n", recorded);
  return 0;
}

}  // namespace arbiter::cli
