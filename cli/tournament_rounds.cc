// `arbiter tournament pair|import-round|start-round|replay|withdraw|tiebreak`:
// the rounds as played.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/tournament.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kPairFlags[] = {
    {"round", "N", "the round", false, true},
    {"board", "BLACK,WHITE[,GAME[,HANDICAP]]",
     "the pairing of the next board (no GAME: `start-round` creates it)", true},
    {"match", "TEAM,TEAM",
     "a team event's match, paired board by board from the lineups (the first team takes the "
     "tournament's board colours)",
     true},
    {"bye", "PLAYER|TEAM", "a player (or a team) with a bye this round", true},
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kLineupFlags[] = {
    {"round", "N", "the round", false, true},
    {"team", "TEAM", "the team", false, true},
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kImportRoundFlags[] = {
    {"round", "N", "the round of the file to pair as this round", false, true},
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kStartRoundFlags[] = {
    {"round", "N", "the round whose games to create", false, true},
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kReplayFlags[] = {
    {"round", "N", "the round", false, true},
    {"board", "B", "the board whose game ended REPLAY", false, true},
    {"game", "GAME", "the game that replays it", false, true},
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kWithdrawFlags[] = {
    {"player", "P", "the player who withdraws", false, true},
    {"after-round", "N", "the last round the player played", false, true},
    {"note", "TEXT", "why"},
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kTiebreakFlags[] = {
    {"lots", "", "decided by drawing lots"},
    {"extra-game", "", "decided by extra games (--game)"},
    {"order", "ID,ID[,...]", "the order decided, first place first", false, true},
    {"game", "GAME", "an extra game played", true},
    {"note", "TEXT", "how it was decided"},
    kJsonFlag,
    kServerFlag,
};

}  // namespace

const CommandSpec kTournamentPair = {
    .name = "tournament pair",
    .positionals = "TOURNAMENT",
    .summary = "pair a round: its boards, in order (or its team matches), and its byes",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kPairFlags,
    .notes =
        "A team event pairs --match A,B (board k of A against board k of B, tables numbered "
        "match after match) or --board, not both; a withdrawn player's board is paired and "
        "lost by default (28.4), and `start-round` creates it no game.",
};
const CommandSpec kTournamentLineup = {
    .name = "tournament lineup",
    .positionals = "TOURNAMENT PLAYER,PLAYER,...",
    .summary = "name a team's lineup for a round, board 1 first, before the round is paired",
    .min_positionals = 2,
    .max_positionals = 2,
    .flags = kLineupFlags,
    .notes =
        "临场出人制 (round-lineup): any of the team's players, substitutes included. 分台定人制 "
        "(fixed): the registered order; a player left out moves the ones below up.",
};
const CommandSpec kTournamentImportRound = {
    .name = "tournament import-round",
    .positionals = "TOURNAMENT FILE.xml",
    .summary = "pair a round as an OpenGotha file pairs it (players matched by name or EGD PIN)",
    .min_positionals = 2,
    .max_positionals = 2,
    .flags = kImportRoundFlags,
};
const CommandSpec kTournamentStartRound = {
    .name = "tournament start-round",
    .positionals = "TOURNAMENT",
    .summary = "create the games of a paired round, one a board, and attach them (idempotent)",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kStartRoundFlags,
    .notes =
        "Game ids are TOURNAMENT-rN-bB; a board that names a game keeps it. Run it again "
        "after a cut connection: it creates nothing twice and prints the same games.",
};
const CommandSpec kTournamentReplay = {
    .name = "tournament replay",
    .positionals = "TOURNAMENT",
    .summary = "schedule the replay of a board whose game ended REPLAY",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kReplayFlags,
};
const CommandSpec kTournamentWithdraw = {
    .name = "tournament withdraw",
    .positionals = "TOURNAMENT",
    .summary = "a player withdraws after a round",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kWithdrawFlags,
};
const CommandSpec kTournamentTiebreak = {
    .name = "tournament tiebreak",
    .positionals = "TOURNAMENT",
    .summary = "record how a tie the criteria leave was decided (art. 28): lots or extra games",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kTiebreakFlags,
};

int TournamentPair(const Args& args) {
  const CommandSpec& spec = kTournamentPair;
  v1::PairRoundRequest req;
  v1::TournamentRound* r = req.mutable_round();
  int round = 0;
  if (absl::Status s = args.Number("round", &round); !s.ok()) return UsageError(spec, s.message());
  if (round <= 0) return UsageError(spec, "--round: 1 or more");
  r->set_round(round);
  int board = 0;
  for (const std::string& text : args.Values("board")) {
    std::vector<std::string> f = absl::StrSplit(text, ',');
    int handicap = 0;
    if (f.size() < 2 || f.size() > 4 || (f.size() == 4 && !absl::SimpleAtoi(f[3], &handicap))) {
      return UsageError(spec, absl::StrCat("--board '", text, "': BLACK,WHITE[,GAME[,HANDICAP]]"));
    }
    v1::Pairing* p = r->add_pairings();
    p->set_board(++board);
    p->set_black(f[0]);
    p->set_white(f[1]);
    if (f.size() >= 3) p->set_game_id(f[2]);
    p->set_handicap(handicap);
  }
  for (const std::string& text : args.Values("match")) {
    std::vector<std::string> f = absl::StrSplit(text, ',');
    if (f.size() != 2 || f[0].empty() || f[1].empty()) {
      return UsageError(spec, absl::StrCat("--match '", text, "': TEAM,TEAM"));
    }
    v1::TeamMatch* m = req.add_matches();
    m->set_first_team(f[0]);
    m->set_second_team(f[1]);
  }
  if (args.Has("match") && args.Has("board")) {
    return UsageError(spec, "--match or --board, not both");
  }
  for (const std::string& bye : args.Values("bye")) r->add_byes(bye);
  req.set_tournament(TournamentName(args));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::PairRound, req);
}

int TournamentLineup(const Args& args) {
  const CommandSpec& spec = kTournamentLineup;
  v1::SetLineupRequest req;
  v1::LineupSet* l = req.mutable_lineup();
  int round = 0;
  if (absl::Status s = args.Number("round", &round); !s.ok()) return UsageError(spec, s.message());
  if (round <= 0) return UsageError(spec, "--round: 1 or more");
  l->set_round(round);
  l->set_team(*args.Value("team"));
  for (absl::string_view id : absl::StrSplit(args.positionals()[1], ',')) {
    if (id.empty()) return UsageError(spec, "PLAYER,PLAYER,...: an empty player id");
    l->add_players(std::string(id));
  }
  req.set_tournament(TournamentName(args));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::SetLineup, req);
}

int TournamentImportRound(const Args& args) {
  const CommandSpec& spec = kTournamentImportRound;
  v1::ImportRoundRequest req;
  int round = 0;
  if (absl::Status s = args.Number("round", &round); !s.ok()) return UsageError(spec, s.message());
  if (round <= 0) return UsageError(spec, "--round: 1 or more");
  req.set_round(round);
  const std::string& path = args.positionals()[1];
  absl::StatusOr<std::string> xml = ReadInput(path);
  if (!xml.ok()) {
    std::fprintf(stderr, "arbiter %s: %s: %s\n", std::string(spec.name).c_str(), path.c_str(),
                 std::string(xml.status().message()).c_str());
    return ExitCodeOf(xml.status());
  }
  req.set_opengotha_xml(*std::move(xml));
  req.set_tournament(TournamentName(args));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::ImportRound, req);
}

namespace {

// One line a board: its game, and whether this call created it.
void PrintStartedRound(const v1::StartRoundResponse& r) {
  int created = 0;
  int forfeited = 0;
  for (const v1::StartRoundResponse::Table& t : r.tables()) {
    if (!t.forfeited().empty()) {
      std::printf("table %d  no game: %s\n", t.board(), t.forfeited().c_str());
      ++forfeited;
      continue;
    }
    std::printf("table %d  %s  %s\n", t.board(), t.game_id().c_str(),
                t.created() ? "created" : "already there");
    created += t.created() ? 1 : 0;
  }
  std::printf("%d game(s) created, %d already there", created,
              r.tables_size() - created - forfeited);
  if (forfeited > 0) std::printf(", %d board(s) lost by default", forfeited);
  std::printf("\n");
}

}  // namespace

int TournamentStartRound(const Args& args) {
  const CommandSpec& spec = kTournamentStartRound;
  v1::StartRoundRequest req;
  int round = 0;
  if (absl::Status s = args.Number("round", &round); !s.ok()) return UsageError(spec, s.message());
  if (round <= 0) return UsageError(spec, "--round: 1 or more");
  req.set_round(round);
  req.set_tournament(TournamentName(args));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::StartRound, req, PrintStartedRound);
}

int TournamentReplay(const Args& args) {
  const CommandSpec& spec = kTournamentReplay;
  v1::ScheduleReplayRequest req;
  int round = 0, board = 0;
  for (const absl::Status& s : {args.Number("round", &round), args.Number("board", &board)}) {
    if (!s.ok()) return UsageError(spec, s.message());
  }
  req.mutable_replay()->set_round(round);
  req.mutable_replay()->set_board(board);
  req.mutable_replay()->set_game_id(*args.Value("game"));
  req.set_tournament(TournamentName(args));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::ScheduleReplay, req);
}

int TournamentWithdraw(const Args& args) {
  const CommandSpec& spec = kTournamentWithdraw;
  v1::WithdrawPlayerRequest req;
  req.mutable_withdrawal()->set_player(*args.Value("player"));
  int after = -1;
  if (absl::Status s = args.Number("after-round", &after); !s.ok()) {
    return UsageError(spec, s.message());
  }
  if (after < 0) return UsageError(spec, "--after-round: 0 or more");
  req.mutable_withdrawal()->set_after_round(after);
  if (auto v = args.Value("note")) req.mutable_withdrawal()->set_note(*v);
  req.set_tournament(TournamentName(args));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::WithdrawPlayer, req);
}

int TournamentTiebreak(const Args& args) {
  const CommandSpec& spec = kTournamentTiebreak;
  if (args.Has("lots") == args.Has("extra-game")) {
    return UsageError(spec, "--lots or --extra-game: how the tie was decided");
  }
  v1::DecideTieBreakRequest req;
  v1::TieBreakDecided* d = req.mutable_decision();
  d->set_method(args.Has("lots") ? v1::TieBreakDecided::LOTS : v1::TieBreakDecided::EXTRA_GAME);
  for (absl::string_view id : absl::StrSplit(*args.Value("order"), ',')) {
    d->add_order(std::string(id));
  }
  for (const std::string& g : args.Values("game")) d->add_game_ids(g);
  if (auto v = args.Value("note")) d->set_note(*v);
  req.set_tournament(TournamentName(args));
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::DecideTieBreak, req);
}

}  // namespace arbiter::cli
