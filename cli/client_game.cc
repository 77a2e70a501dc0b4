// `arbiter game create [flags]`: creates a game (its gameCreated) on the
// server and prints it. The flags are declared in kCreateFlags below.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "adjudicator/engine/proto_time.h"
#include "cli/client.h"
#include "cli/client_game_cancel.h"
#include "cli/commands.h"
#include "cli/game_flags.h"
#include "rulesdb/rules.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kCreateFlags[] = {
    {"id", "ID", "the game id (default: the server assigns one)"},
    {"ruleset", "ID", "cn-2002 (default) or cn-1988"},
    {"supplement", "ID", "a tournament supplement to the ruleset"},
    {"black", "NAME[,RANK]", "Black (required)", false, true},
    {"white", "NAME[,RANK]", "White (required)", false, true},
    kVenueFlag,
    {"board-size", "N", "19 (default), 13 or 9"},
    {"table", "N", "the table the game is played at in the hall (1-9999)"},
    {"scheduled-start", "RFC3339",
     "when play is due to start (default: when the server creates it)"},
    kMainTimeFlag,
    kByoYomiFlag,
    {"komi", "STONES", "override the ruleset's komi, in stones"},
    {"live", "", "the server times the game's clocks and lateness"},
    {"request-id", "KEY", "makes the create safely retryable"},
    kJsonFlag,
    kServerFlag,
};
constexpr CommandSpec kCreate = {
    .name = "game create",
    .summary = "create a game (its gameCreated) on the server and print it",
    .flags = kCreateFlags,
};

int Create(const Args& args);

constexpr Subcommand kGameSubcommands[] = {{&kCreate, Create}, {&kGameCancel, GameCancel}};
constexpr CommandGroup kGame = {
    .name = "game",
    .summary = "games on a server",
    .subcommands = kGameSubcommands,
};

void SetPlayer(const std::string& text, v1::Player* p) {
  std::vector<std::string> parts = absl::StrSplit(text, absl::MaxSplits(',', 1));
  p->set_name(parts[0]);
  if (parts.size() > 1) p->set_rank(parts[1]);
}

int Create(const Args& args) {
  v1::CreateGameRequest req;
  v1::GameCreated* g = req.mutable_game();
  g->set_ruleset(kDefaultRuleset);
  g->set_board_size(19);
  g->set_venue(v1::GameCreated::SAME_SITE);
  auto bad = [&](absl::string_view why) { return UsageError(kCreate, why); };
  if (auto v = args.Value("id")) g->set_game_id(*v);
  if (auto v = args.Value("ruleset")) g->set_ruleset(*v);
  if (auto v = args.Value("supplement")) g->set_supplement(*v);
  if (auto v = args.Value("black")) SetPlayer(*v, g->mutable_black());
  if (auto v = args.Value("white")) SetPlayer(*v, g->mutable_white());
  std::string why;
  v1::GameCreated::Venue venue = g->venue();
  if (!ParseVenueFlag(args, &venue, &why)) return bad(why);
  g->set_venue(venue);
  int size = 19;
  if (absl::Status s = args.Number("board-size", &size); !s.ok()) return bad(s.message());
  g->set_board_size(size);
  if (args.Has("table")) {
    int table = 0;
    if (absl::Status s = args.Number("table", &table); !s.ok()) return bad(s.message());
    if (table < 1 || table > 9999) return bad("--table: a number from 1 to 9999");
    g->set_table(table);
  }
  // Without the flag the server schedules the game at its creation, by its
  // own clock: this one's would make a --request-id retry differ.
  if (auto v = args.Value("scheduled-start")) {
    absl::StatusOr<absl::Time> t = ParseRfc3339(*v);
    if (!t.ok()) return bad(std::string(t.status().message()));
    ToProto(*t, g->mutable_scheduled_start());
  }
  if (args.Has("main-time") || args.Has("byo-yomi")) {
    if (!ParseTimeControlFlags(args, g->mutable_time_control(), &why)) return bad(why);
  }
  if (args.Has("komi")) {
    double komi = 0;
    if (absl::Status s = args.Number("komi", &komi); !s.ok()) return bad(s.message());
    g->set_komi_stones(komi);
  }
  g->set_live(args.Has("live"));
  if (auto v = args.Value("request-id")) req.set_request_id(*v);

  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::Game game;
  grpc::Status status = stub->CreateGame(&context, req, &game);
  if (!status.ok()) return Fail("game create", server, status);
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(game).c_str());
  } else {
    std::printf("created %s (%s)%s\n", game.name().c_str(), game.rules_pin().c_str(),
                game.created().live() ? ", live: the server keeps its clocks" : "");
  }
  return 0;
}

}  // namespace

int RunGame(int argc, char** argv) { return RunGroup(kGame, argc, argv); }

}  // namespace arbiter::cli
