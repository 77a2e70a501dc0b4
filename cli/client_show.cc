// `arbiter show GAME [--server ADDR] [--json]`: the game now: board diagram,
// clocks, warnings and penalty stones, pending rulings, result, and for a
// live game when the server will next rule on time. --json: arbiter.v1.Game.
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/engine/report.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

std::string ClockLine(const v1::Clock& c) {
  std::string out = absl::StrCat("main ", FormatDuration(c.main_remaining()));
  if (c.periods_remaining() > 0) {
    absl::StrAppend(&out, ", ", c.periods_remaining(), " x ", FormatDuration(c.period_time()),
                    " byo-yomi");
  }
  if (c.moves_remaining() > 0) {
    absl::StrAppend(&out, ", ", c.moves_remaining(), " moves in ",
                    FormatDuration(c.period_remaining()));
  }
  absl::StrAppend(&out, ", used ", FormatDuration(c.used()), c.running() ? "  (running)" : "");
  return out;
}

constexpr FlagSpec kShowGameFlags[] = {kJsonFlag, kServerFlag};
constexpr CommandSpec kShow = {
    .name = "show",
    .positionals = "GAME",
    .summary =
        "a game now: board, clocks, warnings, pending rulings, result (--json: arbiter.v1.Game)",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kShowGameFlags,
};

}  // namespace

int RunShow(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kShow, argc, argv, &args)) return *exit;
  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::GetGameRequest req;
  req.set_name(GameResource(args.positionals()[0]));
  v1::Game game;
  if (grpc::Status s = stub->GetGame(&context, req, &game); !s.ok()) {
    return Fail("show", server, s);
  }
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(game).c_str());
    return 0;
  }
  const v1::GameState& st = game.state();
  const v1::GameCreated& g = game.created();
  std::printf("game %s (revision %llu)  %s\n", game.game_id().c_str(),
              static_cast<unsigned long long>(game.revision()), game.rules_pin().c_str());
  std::printf("Black X: %s %s   White O: %s %s\n", g.black().name().c_str(),
              g.black().rank().c_str(), g.white().name().c_str(), g.white().rank().c_str());
  std::printf("as of %s, move %d, %s to move\n\n", FormatTime(st.as_of()).c_str(), st.move_number(),
              v1::Color_Name(st.to_move()).c_str());
  std::fputs(BoardDiagram(st).c_str(), stdout);
  std::printf("\nprisoners: Black took %d, White took %d\n", st.prisoners().black(),
              st.prisoners().white());
  if (st.dead_stones_size() > 0) {
    std::printf("dead stones (agreed, taken off for the count): %s\n",
                absl::StrJoin(st.dead_stones(), " ").c_str());
  }
  if (g.has_time_control()) {
    std::printf("clocks: Black %s\n        White %s\n", ClockLine(st.clocks().black()).c_str(),
                ClockLine(st.clocks().white()).c_str());
  } else {
    std::printf("clocks: untimed\n");
  }
  std::printf("warnings: Black %d, White %d; penalty stones: Black %d, White %d\n",
              st.warnings().black(), st.warnings().white(), st.penalty_stones().black(),
              st.penalty_stones().white());
  for (const v1::Ruling& r : game.pending_rulings()) {
    std::printf("pending: %s\n", RulingText(r).c_str());
  }
  std::printf("rulings so far: %u\n", game.ruling_count());
  if (game.has_next_deadline()) {
    std::printf("live: the server rules on time at %s unless play goes on\n",
                FormatTime(game.next_deadline()).c_str());
  }
  // After two passes with no count, what `adjudicate` says: not "in progress".
  const bool uncounted = !game.has_result() && st.consecutive_passes() >= 2;
  std::printf(
      "result: %s\n",
      uncounted ? kUncounted : ResultLine(game.has_result() ? &game.result() : nullptr).c_str());
  return 0;
}

}  // namespace arbiter::cli
