// `arbiter game create [flags]`: creates a game (its gameCreated) on the
// server and prints it.
//
//   --id ID               the game id (default: the server assigns one)
//   --ruleset ID          cn-2002 (default) or cn-1988
//   --supplement ID       a tournament supplement
//   --black "NAME[,RANK]" --white "NAME[,RANK]"
//   --venue SAME_SITE|SEPARATE_SITE|RAPID   (default SAME_SITE)
//   --board-size N        19 (default), 13 or 9
//   --scheduled-start RFC3339               (default: now)
//   --main-time DURATION  e.g. 2h, 90m (absent: untimed)
//   --byo-yomi N/DURATION e.g. 5/60s
//   --komi STONES         override the ruleset's komi, in stones
//   --live                the server times the game's clocks and lateness
//   --request-id KEY      makes the create safely retryable
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "adjudicator/engine/proto_time.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] =
    "usage: arbiter game create [--id ID] [--ruleset ID] [--supplement ID]\n"
    "         [--black NAME[,RANK]] [--white NAME[,RANK]] [--venue SAME_SITE|SEPARATE_SITE|RAPID]\n"
    "         [--board-size N] [--scheduled-start RFC3339] [--main-time DURATION]\n"
    "         [--byo-yomi PERIODS/DURATION] [--komi STONES] [--live] [--request-id KEY]\n"
    "         [--server ADDR] [--json]\n";

void SetPlayer(const std::string& text, v1::Player* p) {
  std::vector<std::string> parts = absl::StrSplit(text, absl::MaxSplits(',', 1));
  p->set_name(parts[0]);
  if (parts.size() > 1) p->set_rank(parts[1]);
}

bool ParseDurationFlag(const std::string& text, google::protobuf::Duration* out) {
  absl::Duration d;
  if (!absl::ParseDuration(text, &d) || d < absl::ZeroDuration()) return false;
  ToProto(d, out);
  return true;
}

}  // namespace

int RunGame(int argc, char** argv) {
  ClientArgs args;
  std::string error;
  if (!args.Parse(argc, argv, &error) || args.rest().empty() || args.rest()[0] != "create") {
    return Usage(kUsage);
  }
  v1::CreateGameRequest req;
  v1::GameCreated* g = req.mutable_game();
  g->set_ruleset("cn-2002");
  g->set_board_size(19);
  g->set_venue(v1::GameCreated::SAME_SITE);
  bool missing = false;
  auto bad = [&](const std::string& why) {
    std::fprintf(stderr, "arbiter game create: %s\n", why.c_str());
    return 2;
  };
  if (auto v = args.Take("--id", &missing)) g->set_game_id(*v);
  if (auto v = args.Take("--ruleset", &missing)) g->set_ruleset(*v);
  if (auto v = args.Take("--supplement", &missing)) g->set_supplement(*v);
  if (auto v = args.Take("--black", &missing)) SetPlayer(*v, g->mutable_black());
  if (auto v = args.Take("--white", &missing)) SetPlayer(*v, g->mutable_white());
  if (auto v = args.Take("--venue", &missing)) {
    v1::GameCreated::Venue venue;
    if (!v1::GameCreated::Venue_Parse(*v, &venue) || venue == v1::GameCreated::VENUE_UNSPECIFIED) {
      return bad("--venue: SAME_SITE, SEPARATE_SITE or RAPID");
    }
    g->set_venue(venue);
  }
  if (auto v = args.Take("--board-size", &missing)) {
    int size = 0;
    if (!absl::SimpleAtoi(*v, &size)) return bad("--board-size: a number");
    g->set_board_size(size);
  }
  absl::Time start = absl::Now();
  if (auto v = args.Take("--scheduled-start", &missing)) {
    absl::StatusOr<absl::Time> t = ParseRfc3339(*v);
    if (!t.ok()) return bad(std::string(t.status().message()));
    start = *t;
  }
  ToProto(start, g->mutable_scheduled_start());
  if (auto v = args.Take("--main-time", &missing)) {
    if (!ParseDurationFlag(*v, g->mutable_time_control()->mutable_main_time())) {
      return bad("--main-time: a duration such as 2h or 90m");
    }
  }
  if (auto v = args.Take("--byo-yomi", &missing)) {
    std::vector<std::string> parts = absl::StrSplit(*v, '/');
    int periods = 0;
    v1::ByoYomi* b = g->mutable_time_control()->mutable_byo_yomi();
    if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &periods) || periods <= 0 ||
        !ParseDurationFlag(parts[1], b->mutable_period_time())) {
      return bad("--byo-yomi: PERIODS/DURATION such as 5/60s");
    }
    b->set_periods(periods);
  }
  if (auto v = args.Take("--komi", &missing)) {
    double komi = 0;
    if (!absl::SimpleAtod(*v, &komi)) return bad("--komi: a number of stones");
    g->set_komi_stones(komi);
  }
  g->set_live(args.TakeSwitch("--live"));
  if (auto v = args.Take("--request-id", &missing)) req.set_request_id(*v);
  if (missing || args.rest().size() != 1) return Usage(kUsage);

  auto stub = Connect(args.server());
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::Game game;
  grpc::Status status = stub->CreateGame(&context, req, &game);
  if (!status.ok()) return Fail("game create", args.server(), status);
  if (args.json()) {
    std::printf("%s\n", ToJson(game).c_str());
  } else {
    std::printf("created %s (%s)%s\n", game.name().c_str(), game.rules_pin().c_str(),
                game.created().live() ? ", live: the server keeps its clocks" : "");
  }
  return 0;
}

}  // namespace arbiter::cli
