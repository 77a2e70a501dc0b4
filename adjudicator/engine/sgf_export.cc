#include "adjudicator/engine/sgf_export.h"

#include <cmath>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/report.h"

namespace arbiter {
namespace {

// SGF point letters: column from the left, row from the top.
std::string SgfPoint(int vertex, int size) {
  const int column = ColumnOf(vertex, size);
  const int row_from_top = size - RowOf(vertex, size);
  return {static_cast<char>('a' + column), static_cast<char>('a' + row_from_top)};
}

std::string Seconds(absl::Duration d) {
  const double s = absl::ToDoubleSeconds(d);
  return s == std::floor(s) ? absl::StrCat(static_cast<int64_t>(s)) : absl::StrFormat("%.3f", s);
}

// "2 × komi stones" as SGF writes points: 15 quarters -> "7.5".
std::string Komi(const v1::GameCreated& g, const Rules& rules) {
  const double stones =
      g.has_komi_stones() ? g.komi_stones() : rules.params().komi_quarters() / 4.0;
  return absl::StrFormat("%g", 2 * stones);
}

std::string SanctionList(const v1::Ruling& r) {
  std::vector<std::string> names;
  for (int s : r.sanctions()) names.push_back(v1::Sanction_Name(s));
  return absl::StrJoin(names, ", ");
}

std::string RulingComment(const v1::Ruling& r) {
  std::string c = absl::StrCat("Ruling ", r.number(), ": ", r.clause());
  if (r.against() != v1::Ruling::PARTY_UNSPECIFIED) {
    absl::StrAppend(&c, " against ", v1::Ruling::Party_Name(r.against()));
  }
  if (r.pending()) {
    std::vector<std::string> options;
    for (const v1::RulingOption& o : r.options()) options.push_back(o.id());
    absl::StrAppend(&c, " - pending the arbiter's decision among ", absl::StrJoin(options, " | "));
  } else if (r.sanctions_size() > 0) {
    absl::StrAppend(&c, " - ", SanctionList(r));
  }
  if (!r.choice().empty()) absl::StrAppend(&c, " (decided: ", r.choice(), ")");
  if (r.has_time_deducted()) {
    absl::StrAppend(&c, " (", Seconds(FromProto(r.time_deducted())), "s deducted)");
  }
  if (!r.text_en().empty()) absl::StrAppend(&c, "\n", r.text_en());
  if (!r.text_zh().empty()) absl::StrAppend(&c, "\n", r.text_zh());
  if (!r.note().empty()) absl::StrAppend(&c, "\nNote: ", r.note());
  return c;
}

std::string TimeProps(const v1::TimeControl& tc) {
  if (!tc.has_main_time() && !tc.has_byo_yomi() && !tc.has_moves_in_time()) return "";
  std::string out = absl::StrCat("TM[", Seconds(FromProto(tc.main_time())), "]");
  if (tc.has_byo_yomi()) {
    absl::StrAppend(&out, "OT[", tc.byo_yomi().periods(), "x",
                    Seconds(FromProto(tc.byo_yomi().period_time())), " byo-yomi]");
  } else if (tc.has_moves_in_time()) {
    absl::StrAppend(&out, "OT[", tc.moves_in_time().moves(), "/",
                    Seconds(FromProto(tc.moves_in_time().period())), " canadian]");
  }
  return out;
}

// BL/OB (or WL/OW) for `clock`: the main time left, or in overtime the
// period time with the periods left.
std::string ClockProps(v1::Color c, const v1::Clock& clock, bool timed) {
  if (!timed) return "";
  const char* l = c == v1::BLACK ? "BL" : "WL";
  const char* o = c == v1::BLACK ? "OB" : "OW";
  const absl::Duration main = FromProto(clock.main_remaining());
  if (main > absl::ZeroDuration() || clock.periods_remaining() == 0) {
    return absl::StrCat(l, "[", Seconds(main), "]");
  }
  const absl::Duration left = clock.has_period_remaining() ? FromProto(clock.period_remaining())
                                                           : FromProto(clock.period_time());
  const int periods =
      clock.moves_remaining() > 0 ? clock.moves_remaining() : clock.periods_remaining();
  return absl::StrCat(l, "[", Seconds(left), "]", o, "[", periods, "]");
}

struct Node {
  int move_number = 0;  // the move this node plays; 0: the root
  std::string props;
  std::vector<std::string> comments;
  size_t event = 0;  // the 1-based position of the event that played it; 0: the root
};

// An `eventVoided` of an event that made a node: the node goes (the fold
// skips the voided event: DOMAIN.md §3.1), its comments move to the node
// before it, and the correction is said there.
void VoidNode(std::vector<Node>& nodes, const v1::EventVoided& voided, bool with_rulings) {
  for (size_t i = 1; i < nodes.size(); ++i) {
    if (nodes[i].event != voided.event()) continue;
    std::vector<std::string> moved = std::move(nodes[i].comments);
    nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(i));
    std::vector<std::string>& before = nodes[i - 1].comments;
    before.insert(before.end(), moved.begin(), moved.end());
    break;
  }
  if (with_rulings) {
    nodes.back().comments.push_back(
        absl::StrCat("Event ", voided.event(), " voided by the chief arbiter: ", voided.reason()));
  }
}

bool Has(const std::vector<v1::Ruling>& rulings, v1::Sanction s) {
  for (const v1::Ruling& r : rulings) {
    for (int x : r.sanctions()) {
      if (x == s) return true;
    }
  }
  return false;
}

// The setup stones (AB, AW) and the first to move (PL) of a game with a setup.
absl::StatusOr<std::string> SetupProps(const v1::GameCreated& g, int size) {
  std::string root;
  if (g.has_setup()) {
    for (const auto& [stones, prop] :
         {std::pair{&g.setup().black(), "AB"}, std::pair{&g.setup().white(), "AW"}}) {
      if (stones->empty()) continue;
      absl::StrAppend(&root, prop);
      for (const std::string& p : *stones) {
        absl::StatusOr<int> v = ParsePoint(p, size);
        if (!v.ok()) return v.status();
        absl::StrAppend(&root, "[", SgfPoint(*v, size), "]");
      }
    }
    if (g.setup().first_to_move() == v1::WHITE) absl::StrAppend(&root, "PL[W]");
    // Black's stones alone with White to move are a handicap (FF[4] HA:
    // "AB should be used to place the handicap stones").
    if (g.setup().black_size() >= 2 && g.setup().white().empty() &&
        g.setup().first_to_move() == v1::WHITE) {
      absl::StrAppend(&root, "HA[", g.setup().black_size(), "]");
    }
  }
  return root;
}

// The game comment: the rules pinned, the rulings, the result.
std::string Summary(const Adjudicator& a, const std::string& rules_pin) {
  const v1::Result* result = a.result();
  const size_t ruling_count = a.rulings().size();
  std::string summary =
      absl::StrCat("Adjudicated under ", rules_pin.empty() ? a.rules().id() : rules_pin, ". ",
                   ruling_count, ruling_count == 1 ? " ruling" : " rulings");
  for (const v1::Ruling& r : a.rulings()) {
    absl::StrAppend(&summary, "\n", r.number(), ". ", r.clause(), " ",
                    v1::Ruling::Party_Name(r.against()), r.pending() ? " pending" : "",
                    r.sanctions_size() > 0 ? absl::StrCat(": ", SanctionList(r)) : "");
  }
  absl::StrAppend(&summary, "\nResult: ", ResultLine(result));
  if (a.cancelled()) {
    absl::StrAppend(&summary, "\nCancelled by the chief arbiter: ", a.cancel_reason());
  }
  return summary;
}

// The root node's properties: the game, the players, the time, the result,
// the setup and the summary.
absl::StatusOr<std::string> RootProps(const std::vector<v1::Event>& events, const Adjudicator& a,
                                      const std::string& rules_pin, bool with_rulings) {
  const v1::GameCreated& g = events.front().game_created();
  const int size = g.board_size() == 0 ? 19 : g.board_size();
  std::string root = absl::StrCat("FF[4]GM[1]CA[UTF-8]AP[arbiter:0.1]SZ[", size, "]RU[Chinese]KM[",
                                  Komi(g, a.rules()), "]");
  if (!g.black().name().empty()) absl::StrAppend(&root, "PB[", SgfText(g.black().name()), "]");
  if (!g.black().rank().empty()) absl::StrAppend(&root, "BR[", SgfText(g.black().rank()), "]");
  if (!g.white().name().empty()) absl::StrAppend(&root, "PW[", SgfText(g.white().name()), "]");
  if (!g.white().rank().empty()) absl::StrAppend(&root, "WR[", SgfText(g.white().rank()), "]");
  const absl::Time start =
      FromProto(g.has_scheduled_start() ? g.scheduled_start() : events.front().at());
  absl::StrAppend(&root, "DT[", absl::FormatTime("%Y-%m-%d", start, absl::UTCTimeZone()), "]");
  absl::StrAppend(&root, "GN[", SgfText(g.game_id()), "]");
  if (g.has_time_control()) absl::StrAppend(&root, TimeProps(g.time_control()));
  const v1::Result* result = a.result();
  if (result != nullptr && !result->sgf().empty())
    absl::StrAppend(&root, "RE[", result->sgf(), "]");
  absl::StatusOr<std::string> setup = SetupProps(g, size);
  if (!setup.ok()) return setup.status();
  absl::StrAppend(&root, *setup);
  if (with_rulings) absl::StrAppend(&root, "GC[", SgfText(Summary(a, rules_pin)), "]");
  return root;
}

}  // namespace

std::string SgfText(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    if (ch == ']' || ch == '\\') out.push_back('\\');
    out.push_back(ch);
  }
  return out;
}

namespace {

// Once counted, the stones agreed dead are marked (MA, an X in every
// reader) on the last node, where they still stand.
absl::Status MarkDeadStones(const v1::GameState& end, int size, bool with_rulings, Node& last) {
  if (end.dead_stones_size() == 0) return absl::OkStatus();
  absl::StrAppend(&last.props, "MA");
  for (const std::string& p : end.dead_stones()) {
    absl::StatusOr<int> v = ParsePoint(p, size);
    if (!v.ok()) return v.status();
    absl::StrAppend(&last.props, "[", SgfPoint(*v, size), "]");
  }
  if (with_rulings) {
    last.comments.push_back(absl::StrCat("死子 / Dead stones (marked X, taken off for the count): ",
                                         absl::StrJoin(end.dead_stones(), " ")));
  }
  return absl::OkStatus();
}

// The game tree: each node's properties, then its comments as one C.
std::string Written(const std::vector<Node>& nodes) {
  std::string out = "(";
  for (const Node& n : nodes) {
    absl::StrAppend(&out, ";", n.props);
    if (!n.comments.empty())
      absl::StrAppend(&out, "C[", SgfText(absl::StrJoin(n.comments, "\n\n")), "]");
    absl::StrAppend(&out, "\n");
  }
  out.back() = ')';
  out.push_back('\n');
  return out;
}

absl::StatusOr<std::string> WriteSgf(Rules rules, const std::vector<v1::Event>& events,
                                     const std::string& rules_pin, bool with_rulings) {
  if (events.empty() || !events.front().has_game_created()) {
    return absl::InvalidArgumentError("the first event must be gameCreated");
  }
  const v1::GameCreated& g = events.front().game_created();
  const int size = g.board_size() == 0 ? 19 : g.board_size();
  const bool timed = g.has_time_control();
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(std::move(rules));
  if (!a.ok()) return a.status();

  std::vector<Node> nodes(1);
  int moves = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const v1::Event& e = events[i];
    absl::StatusOr<std::vector<v1::Ruling>> rulings = a->Apply(e);
    if (!rulings.ok()) {
      return absl::Status(rulings.status().code(),
                          absl::StrCat("event ", i + 1, ": ", rulings.status().message()));
    }
    if (e.has_event_voided()) VoidNode(nodes, e.event_voided(), with_rulings);
    const v1::GameState state = a->State();
    if (state.move_number() > moves && (e.has_move() || e.has_pass() || e.has_time_expired())) {
      const v1::Color c = e.has_move()   ? e.move().color()
                          : e.has_pass() ? e.pass().color()
                                         : e.time_expired().color();
      const bool stone = e.has_move() && !Has(*rulings, v1::MOVE_VOID);
      std::string point;
      if (stone) {
        absl::StatusOr<int> v = ParsePoint(e.move().point(), size);
        if (!v.ok()) return v.status();
        point = SgfPoint(*v, size);
      }
      const v1::Clock& clock = c == v1::BLACK ? state.clocks().black() : state.clocks().white();
      nodes.push_back(Node{
          state.move_number(),
          absl::StrCat(c == v1::BLACK ? "B" : "W", "[", point, "]", ClockProps(c, clock, timed)),
          {},
          i + 1});
    }
    moves = state.move_number();
    if (!with_rulings) continue;
    for (const v1::Ruling& r : *rulings) nodes.back().comments.push_back(RulingComment(r));
  }

  if (absl::Status s = MarkDeadStones(a->State(), size, with_rulings, nodes.back()); !s.ok())
    return s;
  absl::StatusOr<std::string> root = RootProps(events, *a, rules_pin, with_rulings);
  if (!root.ok()) return root.status();
  nodes.front().props = *std::move(root);

  return Written(nodes);
}

}  // namespace

absl::StatusOr<std::string> ExportSgf(Rules rules, const std::vector<v1::Event>& events,
                                      const std::string& rules_pin) {
  return WriteSgf(std::move(rules), events, rules_pin, /*with_rulings=*/true);
}

absl::StatusOr<std::string> ExportPublicSgf(Rules rules, const std::vector<v1::Event>& events) {
  return WriteSgf(std::move(rules), events, "", /*with_rulings=*/false);
}

}  // namespace arbiter
