#include "adjudicator/tournament/opengotha.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "adjudicator/tournament/corrections.h"
#include "adjudicator/tournament/export_checkpoint.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/names.h"
#include "adjudicator/tournament/ranks.h"
#include "adjudicator/tournament/scoring.h"
#include "adjudicator/tournament/xml.h"

namespace arbiter::tournament {
namespace {

using v1::Result;

// Gotha.MAX_NUMBER_OF_ROUNDS: the rounds OpenGotha holds (its bye and
// participation arrays have this many).
constexpr int kMaxRounds = 20;
// Player.MIN_RATING, Player.MAX_RATING.
constexpr int kMinRating = -900;
constexpr int kMaxRating = 2949;

std::string UpperAscii(absl::string_view s) {
  std::string out(s);
  for (char& c : out) c = absl::ascii_toupper(static_cast<unsigned char>(c));
  return out;
}

// The key reduced to what our ids allow.
std::string Reduced(absl::string_view key) {
  std::string out;
  for (char c : UpperAscii(key)) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) out.push_back(c);
  }
  return out.substr(0, 64);
}

absl::Status At(const XmlElement& e, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("line ", e.line, ": <", e.name, ">: ", why));
}

std::string Attr(const XmlElement& e, absl::string_view key) {
  const std::string* v = e.Attribute(key);
  return v == nullptr ? std::string() : *v;
}

absl::StatusOr<int> IntAttr(const XmlElement& e, absl::string_view key,
                            std::optional<int> fallback) {
  const std::string* v = e.Attribute(key);
  if (v == nullptr) {
    if (fallback.has_value()) return *fallback;
    return At(e, absl::StrCat("attribute ", key, " is required"));
  }
  int n = 0;
  if (!absl::SimpleAtoi(*v, &n))
    return At(e, absl::StrCat(key, "=\"", *v, "\" is not a whole number"));
  return n;
}

absl::StatusOr<std::pair<Result::Outcome, bool>> ParseResult(const XmlElement& e) {
  std::string r = Attr(e, "result");
  if (r.empty() || r == "RESULT_UNKNOWN") return std::pair{Result::OUTCOME_UNSPECIFIED, false};
  bool by_default = false;
  constexpr absl::string_view kByDef = "_BYDEF";
  if (r.size() > kByDef.size() && absl::EndsWith(r, kByDef)) {
    by_default = true;
    r.resize(r.size() - kByDef.size());
  }
  if (r == "RESULT_WHITEWINS") return std::pair{Result::WHITE_WINS, by_default};
  if (r == "RESULT_BLACKWINS") return std::pair{Result::BLACK_WINS, by_default};
  if (r == "RESULT_EQUAL") return std::pair{Result::DRAW, by_default};
  if (r == "RESULT_BOTHLOSE") return std::pair{Result::BOTH_LOSE, by_default};
  // No article gives it, but OpenGotha records it and reads it: kept as
  // entered, worth a win to each (rulings.proto, BOTH_WIN).
  if (r == "RESULT_BOTHWIN") return std::pair{Result::BOTH_WIN, by_default};
  return At(e, absl::StrCat("unknown result \"", Attr(e, "result"), "\""));
}

// Finds the one element named `name` anywhere below `root` (depth first),
// as OpenGotha's getElementsByTagName(name).item(0) does.
const XmlElement* FindDeep(const XmlElement& root, absl::string_view name) {
  for (const auto& c : root.children) {
    if (c->name == name) return c.get();
    if (const XmlElement* f = FindDeep(*c, name)) return f;
  }
  return nullptr;
}

// The key a file names a player by, as well as it can be computed: Java's
// upper case where known, else ASCII's (such a name is then found only if
// the file wrote it that way).
std::string KeyForLookup(absl::string_view name, absl::string_view first_name) {
  absl::StatusOr<std::string> key = OpenGothaKey(name, first_name);
  return key.ok() ? *key
                  : UpperAscii(absl::StrReplaceAll(absl::StrCat(name, first_name), {{" ", ""}}));
}

// Length as Java counts it (UTF-16 units), for OpenGotha's length checks.
size_t JavaLength(absl::string_view utf8) {
  size_t n = 0;
  for (char c : utf8) {
    const unsigned char b = static_cast<unsigned char>(c);
    if ((b & 0xC0) != 0x80) n += (b >= 0xF0) ? 2 : 1;
  }
  return n;
}

bool IsDate(absl::string_view d) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(d[i]))) return false;
  }
  return true;
}

absl::Status Refuse(absl::string_view why) {
  return absl::FailedPreconditionError(absl::StrCat("OpenGotha XML: ", why));
}

}  // namespace

absl::StatusOr<std::string> OpenGothaKey(absl::string_view name, absl::string_view first_name) {
  return JavaUpperCase(absl::StrReplaceAll(absl::StrCat(name, first_name), {{" ", ""}}));
}

std::optional<int> OpenGothaRank(absl::string_view rank) {
  std::optional<Rank> r = ParseRank(rank);
  if (!r.has_value()) return std::nullopt;
  switch (r->kind) {
    case Rank::kKyu:
      return -r->number;
    case Rank::kDan:
      return r->number - 1;
    case Rank::kPro:
      return r->number <= 3 ? 6 : r->number <= 6 ? 7 : 8;
  }
  return std::nullopt;
}

int OpenGothaRatingFromRank(int rank) { return (rank + 30) * 100 - 900; }

std::string OpenGothaResult(const v1::ScoredPairing& p) {
  if (p.status() == v1::ScoredPairing::PENDING || p.status() == v1::ScoredPairing::MISMATCH) {
    return "RESULT_UNKNOWN";
  }
  if (p.status() == v1::ScoredPairing::VOID) return "RESULT_BOTHLOSE_BYDEF";
  std::string r;
  switch (p.outcome()) {
    case Result::BLACK_WINS:
      r = "RESULT_BLACKWINS";
      break;
    case Result::WHITE_WINS:
      r = "RESULT_WHITEWINS";
      break;
    case Result::DRAW:
      r = "RESULT_EQUAL";
      break;
    case Result::BOTH_WIN:
      r = "RESULT_BOTHWIN";
      break;
    default:
      r = "RESULT_BOTHLOSE";
      break;  // BOTH_LOSE, NO_RESULT
  }
  if (p.by_default()) r += "_BYDEF";
  return r;
}

namespace {

// The format's tables. Each element of the file is one table of its
// attributes, in the order OpenGotha writes them (alphabetical); each row
// says both directions: what the writer writes (`fixed`, or what `write`
// gives, nullopt leaving the attribute out) from `Out`, and how the reader
// stores the attribute into `In` (no `read`: the attribute is not read).
using Value = std::optional<std::string>;

template <typename Out, typename In>
struct Attribute {
  absl::string_view name;
  absl::string_view fixed;
  Value (*write)(const Out&) = nullptr;
  absl::Status (*read)(const XmlElement& e, absl::string_view attribute, In& in) = nullptr;
};

// Writes `<element a="v" ...` and `end` ("/>\n", or ">\n" before children).
template <typename Out, typename In, size_t N>
void WriteElement(std::string& out, absl::string_view element, const Attribute<Out, In> (&rows)[N],
                  const Out& from, absl::string_view end = "/>\n") {
  absl::StrAppend(&out, "<", element);
  for (const Attribute<Out, In>& a : rows) {
    const Value v = a.write == nullptr ? Value(std::string(a.fixed)) : a.write(from);
    if (v.has_value()) absl::StrAppend(&out, " ", a.name, "=\"", XmlAttributeEscape(*v), "\"");
  }
  absl::StrAppend(&out, end);
}

// Reads the attributes of `e` the rows read into `to`, in the rows' order.
template <typename Out, typename In, size_t N>
absl::Status ReadElement(const XmlElement& e, const Attribute<Out, In> (&rows)[N], In& to) {
  for (const Attribute<Out, In>& a : rows) {
    if (a.read == nullptr) continue;
    if (absl::Status s = a.read(e, a.name, to); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// A whole number at least `min`; `fallback` when absent (none: required).
absl::StatusOr<int> IntAtLeast(const XmlElement& e, absl::string_view key,
                               std::optional<int> fallback, int min) {
  absl::StatusOr<int> n = IntAttr(e, key, fallback);
  if (n.ok() && *n < min) return At(e, absl::StrCat(key, " must be 1 or more"));
  return n;
}

// The players read so far, by the key strings the file names them by.
struct PlayerIndex {
  std::map<std::string, std::string> by_key;  // key and reduced key -> id
  std::map<std::string, int> line_of;         // id -> the line of its <Player>

  absl::StatusOr<std::string> Resolve(const XmlElement& e, absl::string_view attr) const {
    const std::string ref = Attr(e, attr);
    if (ref.empty()) return At(e, absl::StrCat("attribute ", attr, " is required"));
    auto it = by_key.find(ref);
    if (it == by_key.end()) it = by_key.find(UpperAscii(ref));
    if (it == by_key.end() && !Reduced(ref).empty()) it = by_key.find(Reduced(ref));
    if (it == by_key.end()) return At(e, absl::StrCat(attr, "=\"", ref, "\" names no player"));
    return it->second;
  }
};

// Each player's key string, by id, as the writer names them.
using KeyOf = std::map<std::string, std::string>;

std::string Key(const KeyOf& keys, const std::string& id) {
  auto it = keys.find(id);
  return it == keys.end() ? std::string() : it->second;
}

// <Player>: a player as written (romanized names where given).
struct PlayerOut {
  const v1::TournamentPlayer* p;
  std::string name, first;
  std::string participating;  // one digit a round: 0 for a round not played after withdrawing
  std::optional<int> rank;    // OpenGotha's rank number, where the rank has one
};

constexpr Attribute<PlayerOut, v1::TournamentPlayer> kPlayer[] = {
    {"agaExpirationDate", ""},
    {"agaId",
     {},
     [](const PlayerOut& o) -> Value { return o.p->aga_id(); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentPlayer& p) {
       p.set_aga_id(Attr(e, a));
       return absl::OkStatus();
     }},
    {"club",
     {},
     [](const PlayerOut& o) -> Value { return o.p->club(); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentPlayer& p) {
       p.set_club(Attr(e, a));
       return absl::OkStatus();
     }},
    {"country",
     {},
     [](const PlayerOut& o) -> Value { return o.p->country(); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentPlayer& p) {
       p.set_country(Attr(e, a));
       return absl::OkStatus();
     }},
    {"egfPin",
     {},
     [](const PlayerOut& o) -> Value { return o.p->egf_pin(); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentPlayer& p) {
       p.set_egf_pin(Attr(e, a));
       return absl::OkStatus();
     }},
    {"ffgLicence", ""},
    {"ffgLicenceStatus", ""},
    {"firstName",
     {},
     [](const PlayerOut& o) -> Value { return o.first; },
     [](const XmlElement& e, absl::string_view a, v1::TournamentPlayer& p) {
       p.set_first_name(Attr(e, a));
       return absl::OkStatus();
     }},
    {"name",
     {},
     [](const PlayerOut& o) -> Value { return o.name; },
     [](const XmlElement& e, absl::string_view a, v1::TournamentPlayer& p) {
       p.set_name(Attr(e, a));
       return p.name().empty() ? At(e, "attribute name is required") : absl::OkStatus();
     }},
    {"participating", {}, [](const PlayerOut& o) -> Value { return o.participating; }},
    {"rank",
     {},
     [](const PlayerOut& o) -> Value {
       return o.rank.has_value() ? Value(UpperAscii(o.p->rank())) : std::nullopt;
     },
     [](const XmlElement& e, absl::string_view a, v1::TournamentPlayer& p) {
       p.set_rank(Attr(e, a));
       // A rank the file gives is one OpenGotha reads: rank="" is none.
       // Absent, the player has no rank, as on `tournament create`.
       if (e.Attribute(a) == nullptr) return absl::OkStatus();
       const absl::Status rank = CheckPlayerRank(p, true);
       return rank.ok() ? rank : At(e, rank.message());
     }},
    // A rating OpenGotha derived from the rank ("INI") is not a rating.
    {"rating",
     {},
     [](const PlayerOut& o) -> Value {
       if (o.p->has_rating())
         return absl::StrCat(std::clamp(o.p->rating(), kMinRating, kMaxRating));
       if (o.rank.has_value()) return absl::StrCat(OpenGothaRatingFromRank(*o.rank));
       return std::nullopt;
     },
     [](const XmlElement& e, absl::string_view a, v1::TournamentPlayer& p) {
       if (e.Attribute(a) == nullptr || Attr(e, "ratingOrigin") == "INI") return absl::OkStatus();
       absl::StatusOr<int> rating = IntAttr(e, a, std::nullopt);
       if (rating.ok()) p.set_rating(*rating);
       return rating.status();
     }},
    {"ratingOrigin",
     {},
     [](const PlayerOut& o) -> Value {
       if (o.p->has_rating()) return "MAN";
       return o.rank.has_value() ? Value("INI") : std::nullopt;
     }},
    {"registeringStatus", "FIN"},
    {"smmsCorrection", "0"},
};

// <Game>: a scored pairing as written; a pairing as read.
struct GameOut {
  const v1::ScoredPairing* sp;
  int handicap;
  const KeyOf* keys;
};
struct GameIn {
  v1::Pairing p;
  const PlayerIndex* players;
};

constexpr Attribute<GameOut, GameIn> kGame[] = {
    {"blackPlayer",
     {},
     [](const GameOut& o) -> Value { return Key(*o.keys, o.sp->black()); },
     [](const XmlElement& e, absl::string_view a, GameIn& in) {
       absl::StatusOr<std::string> id = in.players->Resolve(e, a);
       if (id.ok()) in.p.set_black(*id);
       return id.status();
     }},
    {"handicap",
     {},
     [](const GameOut& o) -> Value { return absl::StrCat(o.handicap); },
     [](const XmlElement& e, absl::string_view a, GameIn& in) {
       absl::StatusOr<int> handicap = IntAttr(e, a, 0);
       if (handicap.ok()) in.p.set_handicap(*handicap);
       return handicap.status();
     }},
    {"knownColor", "true"},
    {"result",
     {},
     [](const GameOut& o) -> Value { return OpenGothaResult(*o.sp); },
     [](const XmlElement& e, absl::string_view, GameIn& in) {
       absl::StatusOr<std::pair<Result::Outcome, bool>> result = ParseResult(e);
       if (!result.ok()) return result.status();
       in.p.set_entered_outcome(result->first);
       in.p.set_entered_by_default(result->second);
       return absl::OkStatus();
     }},
    {"roundNumber",
     {},
     [](const GameOut& o) -> Value { return absl::StrCat(o.sp->round()); },
     [](const XmlElement& e, absl::string_view a, GameIn& in) {
       absl::StatusOr<int> round = IntAtLeast(e, a, std::nullopt, 1);
       if (round.ok()) in.p.set_round(*round);
       return round.status();
     }},
    {"tableNumber",
     {},
     [](const GameOut& o) -> Value { return absl::StrCat(o.sp->board()); },
     [](const XmlElement& e, absl::string_view a, GameIn& in) {
       absl::StatusOr<int> table = IntAttr(e, a, std::nullopt);
       if (table.ok()) in.p.set_board(*table);
       return table.status();
     }},
    {"whitePlayer",
     {},
     [](const GameOut& o) -> Value { return Key(*o.keys, o.sp->white()); },
     [](const XmlElement& e, absl::string_view a, GameIn& in) {
       absl::StatusOr<std::string> id = in.players->Resolve(e, a);
       if (id.ok()) in.p.set_white(*id);
       return id.status();
     }},
};

// <ByePlayer> and a team's <Board>: a player's place in a round.
struct PlaceOut {
  int board;  // 0 for a bye
  std::string key;
  int round;
};
struct PlaceIn {
  int board = 0;
  std::string id;
  int round = 0;
  const PlayerIndex* players;
};

absl::Status ReadPlacePlayer(const XmlElement& e, absl::string_view a, PlaceIn& in) {
  absl::StatusOr<std::string> id = in.players->Resolve(e, a);
  if (id.ok()) in.id = *id;
  return id.status();
}

constexpr Attribute<PlaceOut, PlaceIn> kByePlayer[] = {
    {"player", {}, [](const PlaceOut& o) -> Value { return o.key; }, ReadPlacePlayer},
    {"roundNumber",
     {},
     [](const PlaceOut& o) -> Value { return absl::StrCat(o.round); },
     [](const XmlElement& e, absl::string_view a, PlaceIn& in) {
       absl::StatusOr<int> round = IntAtLeast(e, a, std::nullopt, 1);
       if (round.ok()) in.round = *round;
       return round.status();
     }},
};

// Round 0: every round (OpenGotha's files before 3.28.04).
constexpr Attribute<PlaceOut, PlaceIn> kBoard[] = {
    {"boardNumber",
     {},
     [](const PlaceOut& o) -> Value { return absl::StrCat(o.board); },
     [](const XmlElement& e, absl::string_view a, PlaceIn& in) {
       absl::StatusOr<int> board = IntAtLeast(e, a, std::nullopt, 1);
       if (board.ok()) in.board = *board;
       return board.status();
     }},
    {"player", {}, [](const PlaceOut& o) -> Value { return o.key; }, ReadPlacePlayer},
    {"roundNumber",
     {},
     [](const PlaceOut& o) -> Value { return absl::StrCat(o.round); },
     [](const XmlElement& e, absl::string_view a, PlaceIn& in) {
       absl::StatusOr<int> round = IntAtLeast(e, a, 0, 0);
       if (round.ok()) in.round = *round;
       return round.status();
     }},
};

// <Team>: numbered from 1 in the file, T<number> here.
struct TeamOut {
  const v1::TournamentTeam* team;
  int number;
};
struct TeamIn {
  v1::TournamentTeam team;
  int number = 0;
};

constexpr Attribute<TeamOut, TeamIn> kTeam[] = {
    {"teamName",
     {},
     [](const TeamOut& o) -> Value { return o.team->name(); },
     [](const XmlElement& e, absl::string_view a, TeamIn& in) {
       in.team.set_name(Attr(e, a));
       return absl::OkStatus();
     }},
    {"teamNumber",
     {},
     [](const TeamOut& o) -> Value { return absl::StrCat(o.number); },
     [](const XmlElement& e, absl::string_view a, TeamIn& in) {
       absl::StatusOr<int> number = IntAttr(e, a, std::nullopt);
       if (!number.ok()) return number.status();
       in.number = *number;
       in.team.set_id(absl::StrCat("T", *number));
       return absl::OkStatus();
     }},
};

// <GeneralParameterSet>: the tournament's name, rounds, dates, place, komi
// and bye. The reader keeps what the caller's settings already say.
struct GeneralOut {
  const v1::Tournament* t;
  int rounds;
};

constexpr Attribute<GeneralOut, v1::TournamentCreated> kGeneralParameterSet[] = {
    {"basicTime", "0"},
    {"beginDate",
     {},
     [](const GeneralOut& o) -> Value {
       const std::string& d = o.t->settings().begin_date();
       return d.empty() ? std::nullopt : Value(d);
     },
     [](const XmlElement& e, absl::string_view a, v1::TournamentCreated& c) {
       if (c.settings().begin_date().empty()) c.mutable_settings()->set_begin_date(Attr(e, a));
       return absl::OkStatus();
     }},
    {"endDate",
     {},
     [](const GeneralOut& o) -> Value {
       const std::string& d = o.t->settings().end_date();
       return d.empty() ? std::nullopt : Value(d);
     },
     [](const XmlElement& e, absl::string_view a, v1::TournamentCreated& c) {
       if (c.settings().end_date().empty()) c.mutable_settings()->set_end_date(Attr(e, a));
       return absl::OkStatus();
     }},
    {"complementaryTimeSystem", "SUDDENDEATH"},
    {"director", ""},
    {"genCountNotPlayedGamesAsHalfPoint", "false"},
    {"genMMBar", "9D"},
    {"genMMFloor", "30K"},
    {"genMMS2ValueAbsent", "0"},
    {"genMMS2ValueBye",
     {},
     [](const GeneralOut& o) -> Value { return absl::StrCat(o.t->settings().bye_points()); }},
    {"genMMZero", "30K"},
    {"genNBW2ValueAbsent", "0"},
    // A bye's value in OpenGotha's wins x 2: arbiter's game points for it.
    {"genNBW2ValueBye",
     {},
     [](const GeneralOut& o) -> Value { return absl::StrCat(o.t->settings().bye_points()); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentCreated& c) {
       if (c.settings().bye_points() != 0) return absl::OkStatus();
       absl::StatusOr<int> bye = IntAttr(e, a, 0);
       if (bye.ok() && *bye >= 0 && *bye <= 2) c.mutable_settings()->set_bye_points(*bye);
       return bye.status();
     }},
    {"genRoundDownNBWMMS", "true"},
    // OpenGotha counts komi in points, we in stones.
    {"komi",
     {},
     [](const GeneralOut& o) -> Value { return absl::StrFormat("%g", o.t->settings().komi() * 2); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentCreated& c) {
       const std::string komi = Attr(e, a);
       if (komi.empty() || c.settings().komi() != 0) return absl::OkStatus();
       double k = 0;
       if (!absl::SimpleAtod(komi, &k))
         return At(e, absl::StrCat(a, "=\"", komi, "\" is not a number"));
       c.mutable_settings()->set_komi(k / 2);
       return absl::OkStatus();
     }},
    {"location",
     {},
     [](const GeneralOut& o) -> Value { return o.t->settings().location(); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentCreated& c) {
       if (c.settings().location().empty()) c.mutable_settings()->set_location(Attr(e, a));
       return absl::OkStatus();
     }},
    {"name",
     {},
     [](const GeneralOut& o) -> Value { return o.t->title(); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentCreated& c) {
       if (std::string name = Attr(e, a); !name.empty()) c.set_title(name);
       return absl::OkStatus();
     }},
    {"numberOfCategories", "1"},
    {"numberOfRounds",
     {},
     [](const GeneralOut& o) -> Value { return absl::StrCat(o.rounds); },
     [](const XmlElement& e, absl::string_view a, v1::TournamentCreated& c) {
       absl::StatusOr<int> rounds = IntAttr(e, a, 0);
       if (rounds.ok() && c.settings().rounds() == 0) c.mutable_settings()->set_rounds(*rounds);
       return rounds.status();
     }},
    {"shortName", {}, [](const GeneralOut& o) -> Value { return o.t->tournament_id(); }},
    {"size", "19"},
};

// <HandicapParameterSet>: the handicaps are the pairings' own, so OpenGotha
// is told none is computed (the ceiling is the largest given).
constexpr Attribute<int, int> kHandicapParameterSet[] = {
    {"hdBasedOnMMS", "false"},
    {"hdCeiling", {}, [](const int& ceiling) -> Value { return absl::StrCat(ceiling); }},
    {"hdCorrection", "0"},
    {"hdNoHdRankThreshold", "30K"},
};

// <PlacementCriterion>, of the players' and of the teams' placement.
struct CriterionOut {
  absl::string_view name;
  int number;
};

constexpr Attribute<CriterionOut, std::string> kPlacementCriterion[] = {
    {"name",
     {},
     [](const CriterionOut& o) -> Value { return std::string(o.name); },
     [](const XmlElement& e, absl::string_view a, std::string& name) {
       name = Attr(e, a);
       return absl::OkStatus();
     }},
    {"number", {}, [](const CriterionOut& o) -> Value { return absl::StrCat(o.number); }},
};

// <PairingParameterSet>: OpenGotha's own defaults (those
// importTournamentParameterSetFromXMLFile falls back to), written out.
constexpr Attribute<int, int> kPairingParameterSet[] = {
    {"paiBaAvoidDuplGame", "500000000000000"},
    {"paiBaBalanceWB", "1000"},
    {"paiBaDeterministic", "true"},
    {"paiBaRandom", "0"},
    {"paiMaAdditionalPlacementCritSystem1", "Rating"},
    {"paiMaAdditionalPlacementCritSystem2", "NULL"},
    {"paiMaAvoidMixingCategories", "20000000000000"},
    {"paiMaCompensateDUDD", "true"},
    {"paiMaDUDDLowerMode", "MID"},
    {"paiMaDUDDUpperMode", "MID"},
    {"paiMaDUDDWeight", "100000000"},
    {"paiMaLastRoundForSeedSystem1", "2"},
    {"paiMaMaximizeSeeding", "5000000"},
    {"paiMaMinimizeScoreDifference", "100000000000"},
    {"paiMaSeedSystem1", "SPLITANDRANDOM"},
    {"paiMaSeedSystem2", "SPLITANDFOLD"},
    {"paiSeAvoidSameGeo", "100000000000"},
    {"paiSeBarThresholdActive", "true"},
    {"paiSeDefSecCrit", "100000000000"},
    {"paiSeMinimizeHandicap", "0"},
    {"paiSeNbWinsThresholdActive", "true"},
    {"paiSePreferMMSDiffRatherThanSameClub", "3"},
    {"paiSePreferMMSDiffRatherThanSameClubsGroup", "2"},
    {"paiSePreferMMSDiffRatherThanSameCountry", "1"},
    {"paiSeRankThreshold", "4D"},
    {"paiStandardNX1Factor", "0.5"},
};

// <TeamGeneralParameterSet>.
constexpr Attribute<int, int> kTeamGeneralParameterSet[] = {
    {"teamSize", {}, [](const int& size) -> Value { return absl::StrCat(size); }},
};

// OpenGotha keeps no system (a round robin is paired by one of its frames);
// the placement criteria say it: a round robin is ranked by the defeated
// opponents' scores (art. 27's A, SODOSW) and not by the opponents' (SOSW),
// as ExportOpenGotha writes it.
v1::TournamentSettings::System SystemOf(const XmlElement& root) {
  bool sodosw = false, sosw = false;
  if (const XmlElement* pc = FindDeep(root, "PlacementCriteria")) {
    for (const XmlElement* c : pc->Children("PlacementCriterion")) {
      std::string name;
      if (!ReadElement(*c, kPlacementCriterion, name).ok()) continue;
      sodosw = sodosw || name == "SODOSW";
      sosw = sosw || name == "SOSW";
    }
  }
  return sodosw && !sosw ? v1::TournamentSettings::ROUND_ROBIN : v1::TournamentSettings::SWISS;
}

// The tournament's creation: `settings` where they say, else the file.
absl::StatusOr<v1::TournamentCreated> ReadCreated(const XmlElement& root,
                                                  absl::string_view tournament_id,
                                                  const v1::TournamentSettings& settings) {
  v1::TournamentCreated created;
  created.set_tournament_id(std::string(tournament_id));
  *created.mutable_settings() = settings;
  created.set_title(std::string(tournament_id));
  if (const XmlElement* g = FindDeep(root, "GeneralParameterSet")) {
    if (absl::Status s = ReadElement(*g, kGeneralParameterSet, created); !s.ok()) return s;
  }
  v1::TournamentSettings& s = *created.mutable_settings();
  if (s.system() == v1::TournamentSettings::SYSTEM_UNSPECIFIED) s.set_system(SystemOf(root));
  const XmlElement* teams = root.Child("Teams");
  if (teams != nullptr && !teams->Children("Team").empty()) s.set_teams(true);
  return created;
}

// <Players>: each player with an id from their key (reduced to what our ids
// allow, numbered where two reduce alike), indexed by the keys games name
// them by.
absl::Status ReadPlayers(const XmlElement& root, std::vector<v1::TournamentPlayer>& players,
                         PlayerIndex& index) {
  const XmlElement* players_el = root.Child("Players");
  if (players_el == nullptr) return At(root, "no <Players>");
  for (const XmlElement* pe : players_el->Children("Player")) {
    v1::TournamentPlayer p;
    if (absl::Status s = ReadElement(*pe, kPlayer, p); !s.ok()) return s;
    // OpenGotha's names are the ones its ASCII exports (EGD, AGA) write: in
    // Latin letters they are the romanized name too.
    if (IsPrintableAscii(p.name()) && IsPrintableAscii(p.first_name())) {
      p.set_romanized_family_name(p.name());
      p.set_romanized_given_name(p.first_name());
    }
    const std::string key = KeyForLookup(p.name(), p.first_name());
    std::string id = Reduced(key);
    for (const v1::TournamentPlayer& q : players) {
      if (KeyForLookup(q.name(), q.first_name()) == key) {
        return At(*pe, absl::StrCat("a second player with the key ", key));
      }
      if (q.id() == id) id.clear();  // reduces to a taken id: number it instead
    }
    if (id.empty()) id = absl::StrCat("P", players.size() + 1);
    p.set_id(id);
    index.line_of[id] = pe->line;
    index.by_key[key] = id;
    index.by_key.emplace(Reduced(key), id);
    players.push_back(std::move(p));
  }
  return absl::OkStatus();
}

v1::TournamentPlayer& PlayerWithId(std::vector<v1::TournamentPlayer>& players,
                                   const std::string& id) {
  return *std::find_if(players.begin(), players.end(),
                       [&](const v1::TournamentPlayer& p) { return p.id() == id; });
}

// The boards team players held, each round's (round 0: every round).
struct TeamBoards {
  std::map<std::pair<int, std::string>, int> in_round;  // (round, player) -> board
  std::map<std::string, std::set<int>> held;            // player -> the boards they held

  int Of(const std::string& id, int round) const {
    auto it = in_round.find({round, id});
    if (it == in_round.end()) it = in_round.find({0, id});
    return it == in_round.end() ? 0 : it->second;
  }
};

// A board of their own to each player whose board never changed and whom
// no team-mate shares it with.
void KeepOwnBoards(const TeamBoards& boards, std::vector<v1::TournamentPlayer>& players) {
  std::map<std::pair<std::string, int>, int> holders;  // (team, board) -> players
  for (v1::TournamentPlayer& p : players) {
    auto held = boards.held.find(p.id());
    if (held != boards.held.end() && held->second.size() == 1) p.set_board(*held->second.begin());
    if (p.board() != 0) ++holders[{p.team(), p.board()}];
  }
  for (v1::TournamentPlayer& p : players) {
    if (p.board() != 0 && holders[{p.team(), p.board()}] > 1) p.set_board(0);
  }
}

// <Teams>: a teamAdded each, each player's team and boards.
absl::Status ReadTeams(const XmlElement& root, const PlayerIndex& index,
                       std::vector<v1::TournamentPlayer>& players,
                       std::vector<v1::TournamentEvent>& events, TeamBoards& boards) {
  const XmlElement* teams = root.Child("Teams");
  if (teams == nullptr) return absl::OkStatus();
  std::set<std::string> ids;
  for (const XmlElement* te : teams->Children("Team")) {
    TeamIn team;
    if (absl::Status s = ReadElement(*te, kTeam, team); !s.ok()) return s;
    if (!ids.insert(team.team.id()).second)
      return At(*te, absl::StrCat("teamNumber ", team.number, " twice"));
    for (const XmlElement* be : te->Children("Board")) {
      PlaceIn place{.players = &index};
      if (absl::Status s = ReadElement(*be, kBoard, place); !s.ok()) return s;
      v1::TournamentPlayer& p = PlayerWithId(players, place.id);
      if (!p.team().empty() && p.team() != team.team.id())
        return At(*be, absl::StrCat(place.id, " is in two teams"));
      p.set_team(team.team.id());
      boards.in_round[{place.round, place.id}] = place.board;
      boards.held[place.id].insert(place.board);
    }
    events.emplace_back();
    *events.back().mutable_team_added()->mutable_team() = std::move(team.team);
  }
  KeepOwnBoards(boards, players);
  return absl::OkStatus();
}

// <Games>: the pairings of each round, with the file's results as entered.
absl::Status ReadGames(const XmlElement& root, const PlayerIndex& index, const TeamBoards* boards,
                       std::map<int, v1::TournamentRound>& rounds) {
  const XmlElement* games = root.Child("Games");
  if (games == nullptr) return absl::OkStatus();
  for (const XmlElement* ge : games->Children("Game")) {
    GameIn game{.players = &index};
    if (absl::Status s = ReadElement(*ge, kGame, game); !s.ok()) return s;
    v1::Pairing& p = game.p;
    if (boards != nullptr) {
      // OpenGotha's importer takes each game as it is, whatever boards its
      // players hold (importGamesFromXMLFile compares none): a game across
      // boards counts for each team on its own player's board, a game of
      // team-mates for no match (standings.h).
      const int b = boards->Of(p.black(), p.round());
      const int w = boards->Of(p.white(), p.round());
      p.set_team_board(b == w || w == 0 ? b : b == 0 ? w : 0);
    }
    v1::TournamentRound& r = rounds[p.round()];
    r.set_round(p.round());
    for (const v1::Pairing& q : r.pairings()) {
      if (q.board() == p.board())
        return At(*ge, absl::StrCat("round ", p.round(), " table ", p.board(), " twice"));
    }
    *r.add_pairings() = std::move(p);
  }
  return absl::OkStatus();
}

// <ByePlayers>: each round's byes.
absl::Status ReadByes(const XmlElement& root, const PlayerIndex& index,
                      std::map<int, v1::TournamentRound>& rounds) {
  const XmlElement* byes = root.Child("ByePlayers");
  if (byes == nullptr) return absl::OkStatus();
  for (const XmlElement* be : byes->Children("ByePlayer")) {
    PlaceIn bye{.players = &index};
    if (absl::Status s = ReadElement(*be, kByePlayer, bye); !s.ok()) return s;
    rounds[bye.round].set_round(bye.round);
    rounds[bye.round].add_byes(bye.id);
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// The file's events, each with the line of the element it came from (0:
// from several, or none).
struct FileEvents {
  std::vector<v1::TournamentEvent> events;
  std::vector<int> lines;
  void Add(v1::TournamentEvent e, int line) {
    events.push_back(std::move(e));
    lines.push_back(line);
  }
};

absl::StatusOr<FileEvents> ReadFile(absl::string_view xml, absl::string_view tournament_id,
                                    const v1::TournamentSettings& settings) {
  absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(xml);
  if (!doc.ok()) return doc.status();
  const XmlElement& root = **doc;
  if (root.name != "Tournament") return At(root, "the root element must be <Tournament>");
  absl::StatusOr<v1::TournamentCreated> created = ReadCreated(root, tournament_id, settings);
  if (!created.ok()) return created.status();
  FileEvents file;
  std::vector<v1::TournamentEvent> events(1);
  *events.back().mutable_created() = *created;

  std::vector<v1::TournamentPlayer> players;
  PlayerIndex index;
  if (absl::Status s = ReadPlayers(root, players, index); !s.ok()) return s;
  TeamBoards boards;
  const bool teams = created->settings().teams();
  if (teams) {
    if (absl::Status s = ReadTeams(root, index, players, events, boards); !s.ok()) return s;
  }
  const XmlElement* general = FindDeep(root, "GeneralParameterSet");
  for (v1::TournamentEvent& e : events) file.Add(std::move(e), general ? general->line : root.line);
  for (const v1::TournamentPlayer& p : players) {
    v1::TournamentEvent e;
    *e.mutable_player_added()->mutable_player() = p;
    file.Add(std::move(e), index.line_of[p.id()]);
  }
  std::map<int, v1::TournamentRound> rounds;
  if (absl::Status s = ReadGames(root, index, teams ? &boards : nullptr, rounds); !s.ok()) return s;
  if (absl::Status s = ReadByes(root, index, rounds); !s.ok()) return s;
  for (auto& [n, r] : rounds) {
    v1::TournamentEvent e;
    *e.mutable_round_paired()->mutable_round() = std::move(r);
    file.Add(std::move(e), 0);
  }
  return file;
}

}  // namespace

absl::StatusOr<std::vector<v1::TournamentEvent>> ReadOpenGotha(
    absl::string_view xml, absl::string_view tournament_id,
    const v1::TournamentSettings& settings) {
  absl::StatusOr<FileEvents> file = ReadFile(xml, tournament_id, settings);
  if (!file.ok()) return file.status();
  return std::move(file->events);
}

absl::StatusOr<std::vector<v1::TournamentEvent>> ImportOpenGotha(
    absl::string_view xml, absl::string_view tournament_id,
    const v1::TournamentSettings& settings) {
  absl::StatusOr<FileEvents> file = ReadFile(xml, tournament_id, settings);
  if (!file.ok()) return file.status();
  // The file must make a tournament the rules allow: fold it, and name the
  // element (its line) that does not, in the file's terms.
  v1::Tournament t;
  for (size_t i = 0; i < file->events.size(); ++i) {
    if (absl::Status s = Apply(file->events[i], &t); !s.ok()) {
      return absl::InvalidArgumentError(
          file->lines[i] > 0 ? absl::StrCat("line ", file->lines[i], ": ", s.message())
                             : std::string(s.message()));
    }
  }
  return std::move(file->events);
}

namespace {

// The rounds the file holds, or FAILED_PRECONDITION where OpenGotha would
// refuse the tournament's rounds or dates.
absl::StatusOr<int> RoundsToWrite(const v1::Tournament& t) {
  const v1::TournamentSettings& s = t.settings();
  int last_round = 0;
  for (const v1::TournamentRound& r : t.rounds()) last_round = std::max(last_round, r.round());
  // A round robin's rounds are its players' (and cycles'): OpenGotha pairs
  // nothing past numberOfRounds, so the file holds the event's, not only
  // those paired so far.
  const int planned =
      s.system() == v1::TournamentSettings::ROUND_ROBIN ? RoundRobinRounds(t) : s.rounds();
  const int rounds = std::max({1, planned, last_round});
  if (rounds > kMaxRounds) {
    return Refuse(absl::StrCat("the tournament has ", rounds, " rounds; OpenGotha holds at most ",
                               kMaxRounds));
  }
  for (const std::string* d : {&s.begin_date(), &s.end_date()}) {
    if (!d->empty() && !IsDate(*d))
      return Refuse(absl::StrCat("date \"", *d, "\" is not YYYY-MM-DD"));
  }
  return rounds;
}

// What OpenGotha's Player constructor refuses besides the first name: a
// country of other than 0 or 2 characters, a club of more than 4, and a
// rank it cannot read.
absl::Status CheckPlayerFields(const std::string& who, const v1::TournamentPlayer& p) {
  // XML 1.0 has no place for the C0 controls but tab, LF and CR, not even as
  // character references (&#1; is not well-formed): such a name would make
  // a file no reader opens. Tab, LF and CR travel as references.
  for (const auto& [field, value] :
       {std::pair{"name", &p.name()}, std::pair{"first name", &p.first_name()},
        std::pair{"club", &p.club()}, std::pair{"team", &p.team()}}) {
    for (const char c : *value) {
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
        return Refuse(absl::StrCat(who, ": the ", field, " holds a control character (U+",
                                   absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad4),
                                   ") that no XML file can carry"));
      }
    }
  }
  if (!p.country().empty() && (p.country().size() != 2 || !absl::ascii_isalpha(p.country()[0]) ||
                               !absl::ascii_isalpha(p.country()[1]))) {
    return Refuse(absl::StrCat(who, ": country \"", p.country(),
                               "\" is not two letters (OpenGotha requires it)"));
  }
  if (JavaLength(p.club()) > 4) {
    return Refuse(absl::StrCat(who, ": club \"", p.club(),
                               "\" has more than 4 characters (OpenGotha's limit)"));
  }
  if (!p.rank().empty() && !OpenGothaRank(p.rank()).has_value()) {
    return Refuse(absl::StrCat(who, ": rank \"", p.rank(), "\" is not a rank (", kRankForms,
                               "); correct it with tournament update --rank"));
  }
  return absl::OkStatus();
}

// Not participating: every round after a withdrawal (art. 28: the player
// takes no further part). A round robin's later games are still in <Games>,
// lost by default (_BYDEF), which OpenGotha reads whatever `participating`
// says; a bye there is left out of <ByePlayers> when not credited (WriteByes).
std::string Participating(const v1::Tournament& t, const std::string& id) {
  std::string participating(kMaxRounds, '1');
  if (const v1::PlayerWithdrawn* w = FindWithdrawal(t, id)) {
    for (int r = w->after_round() + 1; r <= kMaxRounds; ++r) participating[r - 1] = '0';
  }
  return participating;
}

// <Players>, and each player's key in `keys`; FAILED_PRECONDITION naming
// the player OpenGotha would refuse or lose.
absl::StatusOr<std::string> WritePlayers(const v1::Tournament& t, KeyOf& keys) {
  std::map<std::string, std::string> key_owner;
  std::string out = "<Players>\n";
  for (const v1::TournamentPlayer& p : t.players()) {
    const std::string who = absl::StrCat("player '", p.id(), "' (", NativeName(p), ")");
    const bool romanized = !p.romanized_family_name().empty();
    PlayerOut o{.p = &p,
                .name = romanized ? p.romanized_family_name() : p.name(),
                .first = romanized ? p.romanized_given_name() : p.first_name()};
    if (o.first.empty()) {
      return Refuse(
          absl::StrCat(who,
                       " has no given name, and OpenGotha requires a first name of at least one "
                       "character (Player.java); give a romanized family and given name"));
    }
    absl::StatusOr<std::string> k = OpenGothaKey(o.name, o.first);
    if (!k.ok())
      return Refuse(absl::StrCat(
          who, ": OpenGotha's key for the name cannot be computed: ", k.status().message()));
    if (auto [at, fresh] = key_owner.emplace(*k, p.id()); !fresh) {
      return Refuse(absl::StrCat("players '", at->second, "' and '", p.id(),
                                 "' have the same OpenGotha key ", *k, " (OpenGotha keeps one)"));
    }
    keys[p.id()] = *k;
    if (absl::Status s = CheckPlayerFields(who, p); !s.ok()) return s;
    o.rank = OpenGothaRank(p.rank());
    o.participating = Participating(t, p.id());
    WriteElement(out, "Player", kPlayer, o);
  }
  return out + "</Players>\n";
}

// <Games>: each paired game's result from the report; the largest handicap
// in `max_handicap`.
std::string WriteGames(const v1::Tournament& t, const v1::StandingsReport& report,
                       const KeyOf& keys, int& max_handicap) {
  std::string out = "<Games>\n";
  for (const v1::ScoredPairing& sp : report.pairings()) {
    if (sp.round() == 0) continue;  // never paired: no round to write it in
    const v1::Pairing* p = FindPairing(t, sp.round(), sp.board());
    const int handicap = p == nullptr ? 0 : p->handicap();
    max_handicap = std::max(max_handicap, handicap);
    WriteElement(out, "Game", kGame, GameOut{.sp = &sp, .handicap = handicap, .keys = &keys});
  }
  return out + "</Games>\n";
}

// <ByePlayers>, where a round has a bye.
// ExternalDocument.importByePlayersFromXMLFile keeps one bye per round.
absl::StatusOr<std::string> WriteByes(const v1::Tournament& t, const KeyOf& keys) {
  std::string byes;
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.byes_size() > 1) {
      return Refuse(absl::StrCat("round ", r.round(), " has ", r.byes_size(), " byes (",
                                 absl::StrJoin(r.byes(), ", "),
                                 "); OpenGotha keeps one bye player a round"));
    }
    for (const std::string& id : r.byes()) {
      // OpenGotha credits every <ByePlayer>: one credited nothing
      // (ByeCredited, after a withdrawal) is left out, as the standings count it.
      if (!ByeCredited(t, id, r.round())) continue;
      WriteElement(byes, "ByePlayer", kByePlayer,
                   PlaceOut{.board = 0, .key = Key(keys, id), .round = r.round()});
    }
  }
  return byes.empty() ? byes : absl::StrCat("<ByePlayers>\n", byes, "</ByePlayers>\n");
}

// A team's players by board in `round`: the boards played, then the
// players' own boards left free.
std::map<int, std::string> Lineup(const v1::Tournament& t, const v1::TournamentTeam& team,
                                  int round) {
  std::map<int, std::string> lineup;  // board -> player
  for (const v1::TournamentRound& tr : t.rounds()) {
    for (const v1::Pairing& pp : tr.pairings()) {
      if (tr.round() != round || pp.team_board() <= 0) continue;
      for (const std::string* id : {&pp.black(), &pp.white()}) {
        if (FindPlayer(t, *id)->team() == team.id()) lineup[pp.team_board()] = *id;
      }
    }
  }
  for (const v1::TournamentPlayer& p : t.players()) {
    if (p.team() != team.id() || p.board() <= 0) continue;
    bool placed = false;
    for (const auto& [board, id] : lineup) placed = placed || id == p.id();
    if (!placed) lineup.emplace(p.board(), p.id());
  }
  return lineup;
}

// <Teams>, each team's boards in every round; the largest board in
// `team_size`.
std::string WriteTeams(const v1::Tournament& t, int rounds, const KeyOf& keys, int& team_size) {
  std::string out = "<Teams>\n";
  for (int i = 0; i < t.teams_size(); ++i) {
    WriteElement(out, "Team", kTeam, TeamOut{.team = &t.teams(i), .number = i + 1}, ">\n");
    for (int r = 1; r <= rounds; ++r) {
      for (const auto& [board, id] : Lineup(t, t.teams(i), r)) {
        team_size = std::max(team_size, board);
        WriteElement(out, "Board", kBoard,
                     PlaceOut{.board = board, .key = Key(keys, id), .round = r});
      }
    }
    out += "</Team>\n";
  }
  return out + "</Teams>\n";
}

// <PlacementCriteria>: OpenGotha's six, `criteria` then NULL.
std::string WriteCriteria(const std::vector<absl::string_view>& criteria) {
  std::string out = "<PlacementCriteria>\n";
  for (int c = 0; c < 6; ++c) {
    const absl::string_view name = c < static_cast<int>(criteria.size()) ? criteria[c] : "NULL";
    WriteElement(out, "PlacementCriterion", kPlacementCriterion,
                 CriterionOut{.name = name, .number = c + 1});
  }
  return out + "</PlacementCriteria>\n";
}

// <TournamentParameterSet> (and a team tournament's): the importer
// (importTournamentParameterSetFromXMLFile) reads GeneralParameterSet,
// HandicapParameterSet, PlacementParameterSet and PairingParameterSet
// without checking they exist, and both inner sets of the team one once
// the outer one is there.
std::string WriteParameterSets(const v1::Tournament& t, int rounds, int max_handicap,
                               int team_size) {
  std::string out = "<TournamentParameterSet>\n";
  WriteElement(out, "GeneralParameterSet", kGeneralParameterSet,
               GeneralOut{.t = &t, .rounds = rounds});
  WriteElement(out, "HandicapParameterSet", kHandicapParameterSet, max_handicap);
  // Art. 27 as near as OpenGotha's criteria come: number of wins (half the
  // points), then the defeated opponents' scores (A, 胜者小分) for a round
  // robin, the opponents' scores for a Swiss event.
  const bool swiss = t.settings().system() == v1::TournamentSettings::SWISS;
  absl::StrAppend(&out, "<PlacementParameterSet>\n",
                  WriteCriteria(swiss ? std::vector<absl::string_view>{"NBW", "SOSW", "SOSOSW"}
                                      : std::vector<absl::string_view>{"NBW", "SODOSW"}),
                  "</PlacementParameterSet>\n");
  WriteElement(out, "PairingParameterSet", kPairingParameterSet, 0);
  out += "</TournamentParameterSet>\n";
  if (t.settings().teams()) {
    out += "<TeamTournamentParameterSet>\n";
    WriteElement(out, "TeamGeneralParameterSet", kTeamGeneralParameterSet, team_size);
    absl::StrAppend(&out, "<TeamPlacementParameterSet>\n", WriteCriteria({"TEAMP", "BDW"}),
                    "</TeamPlacementParameterSet>\n</TeamTournamentParameterSet>\n");
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> ExportOpenGotha(const v1::Tournament& t,
                                            const v1::StandingsReport& report) {
  absl::StatusOr<int> rounds = RoundsToWrite(t);
  if (!rounds.ok()) return rounds.status();
  KeyOf keys;
  absl::StatusOr<std::string> players = WritePlayers(t, keys);
  if (!players.ok()) return players.status();
  absl::StatusOr<std::string> byes = WriteByes(t, keys);
  if (!byes.ok()) return byes.status();

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  // The record it came from (export_checkpoint.h: the words hold no "--").
  if (report.has_checkpoint()) absl::StrAppend(&out, "<!-- ", DerivedFromWords(report), " -->\n");
  // The director's corrections, as comments OpenGotha skips ("--" may not
  // stand inside one).
  for (const std::string& c : CorrectionLines(t, false)) {
    absl::StrAppend(&out, "<!-- correction ", absl::StrReplaceAll(c, {{"--", "- -"}}), " -->\n");
  }
  int max_handicap = 0;
  int team_size = 1;
  absl::StrAppend(&out, "<Tournament dataVersion=\"201\">\n", *players,
                  WriteGames(t, report, keys, max_handicap), *byes);
  if (t.settings().teams()) out += WriteTeams(t, *rounds, keys, team_size);
  absl::StrAppend(&out, WriteParameterSets(t, *rounds, max_handicap, team_size), "</Tournament>\n");
  return out;
}

}  // namespace arbiter::tournament
