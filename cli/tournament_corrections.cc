// `arbiter tournament amend|update|result|reinstate`: a director's
// corrections (tournament.proto, TournamentCorrection), each with --reason.
// The server records who made it; every export lists it.
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/tournament.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kReasonFlag = {"reason", "TEXT", "why the record is corrected", false, true};

constexpr FlagSpec kAmendFlags[] = {
    {"round", "N", "the round", false, true},
    {"board", "B", "the board as it is paired", false, true},
    {"black", "PLAYER", "who has Black"},
    {"white", "PLAYER", "who has White"},
    {"swap-colours", "", "Black and White the other way round"},
    {"to-board", "B", "the board it moves to"},
    {"handicap", "H", "the handicap"},
    {"game", "GAME", "the ledger game that decides it"},
    kReasonFlag,
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kUpdateFlags[] = {
    {"player", "P", "the player", false, true},
    {"name", "FAMILY[,GIVEN]", "the native name"},
    {"romanized", "FAMILY[,GIVEN]", "the name in Latin letters"},
    {"rank", "RANK", "3D, 5K, 9P"},
    {"rating", "N", "an established rating (OpenGotha's scale)"},
    {"club", "CLUB", "the club"},
    {"player-country", "CC", "the country, ISO 3166 alpha-2"},
    {"egd-pin", "PIN", "the EGD PIN"},
    {"aga-id", "NUMBER", "the AGA membership number"},
    kReasonFlag,
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kResultFlags[] = {
    {"round", "N", "the round", false, true},
    {"board", "B", "the board", false, true},
    {"outcome", "OUTCOME", "black-wins, white-wins, draw, both-lose or no-result", false, true},
    {"by-default", "", "won by default, not played over the board"},
    kReasonFlag,
    kJsonFlag,
    kServerFlag,
};
constexpr FlagSpec kReinstateFlags[] = {
    {"player", "P", "the player whose withdrawal is taken back", false, true},
    kReasonFlag,
    kJsonFlag,
    kServerFlag,
};

// "FAMILY[,GIVEN]".
void SetName(const std::string& text, std::string* family, std::string* given) {
  std::vector<std::string> f = absl::StrSplit(text, absl::MaxSplits(',', 1));
  *family = f[0];
  *given = f.size() > 1 ? f[1] : "";
}

// The tournament as the server has it now, or the exit status.
std::optional<int> Fetch(const CommandSpec& spec, const Args& args, v1::Tournament* out) {
  v1::GetTournamentRequest req;
  req.set_name(TournamentName(args));
  return CallTournamentService(spec, args, &v1::TournamentService::Stub::GetTournament, req, out);
}

int Send(const CommandSpec& spec, const Args& args, v1::TournamentCorrection correction) {
  v1::CorrectTournamentRequest req;
  req.set_tournament(TournamentName(args));
  correction.set_reason(*args.Value("reason"));
  *req.mutable_correction() = std::move(correction);
  return CallAndPrint(spec, args, &v1::TournamentService::Stub::CorrectTournament, req);
}

}  // namespace

const CommandSpec kTournamentAmend = {
    .name = "tournament amend",
    .positionals = "TOURNAMENT",
    .summary = "correct a pairing: its colours, players, board, handicap or game",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kAmendFlags,
};
const CommandSpec kTournamentUpdate = {
    .name = "tournament update",
    .positionals = "TOURNAMENT",
    .summary = "correct a player's record: names, rank, club, country, EGD PIN, AGA id",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kUpdateFlags,
};
const CommandSpec kTournamentResult = {
    .name = "tournament result",
    .positionals = "TOURNAMENT",
    .summary = "enter a board's result from its paper score sheet (no game recorded)",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kResultFlags,
};
const CommandSpec kTournamentReinstate = {
    .name = "tournament reinstate",
    .positionals = "TOURNAMENT",
    .summary = "take back a withdrawal recorded by mistake",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kReinstateFlags,
};

int TournamentAmend(const Args& args) {
  const CommandSpec& spec = kTournamentAmend;
  int round = 0, board = 0;
  for (const absl::Status& s : {args.Number("round", &round), args.Number("board", &board)}) {
    if (!s.ok()) return UsageError(spec, s.message());
  }
  v1::Tournament t;
  if (std::optional<int> exit = Fetch(spec, args, &t)) return *exit;
  const v1::Pairing* found = nullptr;
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      if (p.round() == round && p.board() == board) found = &p;
    }
  }
  if (found == nullptr) {
    return UsageError(spec, absl::StrCat("round ", round, " board ", board, " is not paired"));
  }
  v1::TournamentCorrection c;
  v1::PairingAmended* a = c.mutable_pairing_amended();
  a->set_round(round);
  a->set_board(board);
  v1::Pairing* p = a->mutable_pairing();
  *p = *found;
  p->clear_replayed_game_ids();
  if (args.Has("swap-colours")) {
    std::string black = p->black();
    p->set_black(p->white());
    p->set_white(black);
  }
  if (auto v = args.Value("black")) p->set_black(*v);
  if (auto v = args.Value("white")) p->set_white(*v);
  if (auto v = args.Value("game")) p->set_game_id(*v);
  int to_board = p->board(), handicap = p->handicap();
  for (const absl::Status& s :
       {args.Number("to-board", &to_board), args.Number("handicap", &handicap)}) {
    if (!s.ok()) return UsageError(spec, s.message());
  }
  p->set_board(to_board);
  p->set_handicap(handicap);
  if (p->SerializeAsString() == found->SerializeAsString() && !found->replayed_game_ids_size()) {
    return UsageError(spec,
                      "nothing to change: give --swap-colours, --black, --white, "
                      "--to-board, --handicap or --game");
  }
  return Send(spec, args, std::move(c));
}

int TournamentUpdate(const Args& args) {
  const CommandSpec& spec = kTournamentUpdate;
  v1::Tournament t;
  if (std::optional<int> exit = Fetch(spec, args, &t)) return *exit;
  const std::string id = *args.Value("player");
  v1::TournamentCorrection c;
  v1::TournamentPlayer* p = c.mutable_player_updated()->mutable_player();
  bool found = false;
  for (const v1::TournamentPlayer& q : t.players()) {
    if (q.id() == id) {
      *p = q;
      found = true;
    }
  }
  if (!found) return UsageError(spec, absl::StrCat("--player: no player '", id, "'"));
  if (auto v = args.Value("name")) SetName(*v, p->mutable_name(), p->mutable_first_name());
  if (auto v = args.Value("romanized")) {
    SetName(*v, p->mutable_romanized_family_name(), p->mutable_romanized_given_name());
  }
  if (auto v = args.Value("rank")) p->set_rank(*v);
  if (args.Has("rating")) {
    int rating = 0;
    if (absl::Status s = args.Number("rating", &rating); !s.ok()) {
      return UsageError(spec, s.message());
    }
    p->set_rating(rating);
  }
  if (auto v = args.Value("club")) p->set_club(*v);
  if (auto v = args.Value("player-country")) p->set_country(*v);
  if (auto v = args.Value("egd-pin")) p->set_egf_pin(*v);
  if (auto v = args.Value("aga-id")) p->set_aga_id(*v);
  return Send(spec, args, std::move(c));
}

int TournamentResult(const Args& args) {
  const CommandSpec& spec = kTournamentResult;
  int round = 0, board = 0;
  for (const absl::Status& s : {args.Number("round", &round), args.Number("board", &board)}) {
    if (!s.ok()) return UsageError(spec, s.message());
  }
  const std::string outcome = absl::AsciiStrToLower(*args.Value("outcome"));
  static constexpr std::pair<absl::string_view, v1::Result::Outcome> kOutcomes[] = {
      {"black-wins", v1::Result::BLACK_WINS},
      {"white-wins", v1::Result::WHITE_WINS},
      {"draw", v1::Result::DRAW},
      {"both-lose", v1::Result::BOTH_LOSE},
      {"no-result", v1::Result::NO_RESULT},
  };
  v1::TournamentCorrection c;
  v1::ResultEntered* e = c.mutable_result_entered();
  for (const auto& [name, value] : kOutcomes) {
    if (outcome == name) e->set_outcome(value);
  }
  if (e->outcome() == v1::Result::OUTCOME_UNSPECIFIED) {
    return UsageError(spec,
                      absl::StrCat("--outcome '", *args.Value("outcome"),
                                   "': black-wins, white-wins, draw, both-lose or no-result"));
  }
  e->set_round(round);
  e->set_board(board);
  e->set_by_default(args.Has("by-default"));
  return Send(spec, args, std::move(c));
}

int TournamentReinstate(const Args& args) {
  v1::TournamentCorrection c;
  c.mutable_player_reinstated()->set_player(*args.Value("player"));
  return Send(kTournamentReinstate, args, std::move(c));
}

}  // namespace arbiter::cli
