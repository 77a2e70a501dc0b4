#include "adjudicator/engine/report.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "adjudicator/engine/proto_time.h"

namespace arbiter {
namespace {

// A margin of `quarters` quarter stones: "3/4", "2又1/4" and "¾", "2¼".
std::string ChineseStones(int quarters) {
  static constexpr const char* kFractions[] = {"", "1/4", "1/2", "3/4"};
  const int whole = quarters / 4;
  const int part = quarters % 4;
  if (part == 0) return absl::StrCat(whole);
  if (whole == 0) return kFractions[part];
  return absl::StrCat(whole, "又", kFractions[part]);
}

std::string EnglishStones(int quarters) {
  static constexpr const char* kFractions[] = {"", "¼", "½", "¾"};
  const int whole = quarters / 4;
  const int part = quarters % 4;
  const std::string amount = whole == 0 ? kFractions[part] : absl::StrCat(whole, kFractions[part]);
  return absl::StrCat(amount, quarters <= 4 ? " stone" : " stones");
}

std::string PartyName(v1::Ruling::Party p) {
  switch (p) {
    case v1::Ruling::BLACK:
      return "BLACK";
    case v1::Ruling::WHITE:
      return "WHITE";
    case v1::Ruling::BOTH:
      return "BOTH";
    default:
      return "-";
  }
}

}  // namespace

v1::AdjudicationReport BuildReport(const Adjudicator& a) {
  v1::AdjudicationReport r;
  r.set_game_id(a.game().game_id());
  r.set_ruleset(a.rules().id());
  r.set_ruleset_hash(a.rules().hash());
  r.set_ruleset_version(a.rules().version());
  r.set_supplement(a.rules().supplement_id());
  r.set_supplement_hash(a.rules().supplement_hash());
  for (const v1::Ruling& ruling : a.rulings()) *r.add_rulings() = ruling;
  if (a.result() != nullptr) *r.mutable_result() = *a.result();
  *r.mutable_state() = a.State();
  return r;
}

std::string ResultLine(const v1::Result* result) {
  if (result == nullptr) return "对局进行中 / Game in progress";
  const bool black = result->outcome() == v1::Result::BLACK_WINS;
  const std::string zh = black ? "黑" : "白";
  const std::string en = black ? "Black" : "White";
  const std::string loser_en = black ? "White" : "Black";
  switch (result->outcome()) {
    case v1::Result::DRAW:
      return "和棋 / Draw";
    case v1::Result::BOTH_LOSE:
      return "双方均负 / Both lose";
    case v1::Result::NO_RESULT:
      return "无胜负 / No result";
    case v1::Result::REPLAY:
      return "重赛 / Replay";
    case v1::Result::BLACK_WINS:
    case v1::Result::WHITE_WINS:
      break;
    default:
      return "? / Unknown result";
  }
  const std::string cites =
      result->clause().empty() ? "" : absl::StrCat(" (", result->clause(), ")");
  switch (result->reason()) {
    case v1::Result::COUNT: {
      const int q = static_cast<int>(result->margin_stones() * 4 + 0.5);
      return absl::StrCat(zh, "胜", ChineseStones(q), "子 / ", en, " wins by ", EnglishStones(q));
    }
    case v1::Result::RESIGNATION:
      return absl::StrCat(zh, "中盘胜 / ", en, " wins by resignation");
    case v1::Result::TIME:
      return absl::StrCat(zh, "胜（对方超时）/ ", en, " wins on time", cites);
    case v1::Result::LATENESS:
      return absl::StrCat(zh, "胜（对方迟到）/ ", en, " wins: ", loser_en, " forfeits for lateness",
                          cites);
    case v1::Result::WARNINGS:
      return absl::StrCat(zh, "胜（对方累计警告）/ ", en, " wins: ", loser_en, " loses on warnings",
                          cites);
    default:
      return absl::StrCat(zh, "胜（对方判负）/ ", en, " wins: ", loser_en, " loses (",
                          v1::Result::Reason_Name(result->reason()), ")", cites);
  }
}

namespace {

// A ruling's "sanctions" column: its sanctions, its options while pending,
// what it decides, voids or supersedes.
std::string RulingColumn(const v1::Ruling& r) {
  std::vector<std::string> sanctions;
  for (const int s : r.sanctions()) sanctions.push_back(v1::Sanction_Name(s));
  std::string what = absl::StrJoin(sanctions, " ");
  if (r.pending()) {
    std::vector<std::string> options;
    for (const v1::RulingOption& o : r.options()) options.push_back(o.id());
    absl::StrAppend(&what, what.empty() ? "" : " ", "pending {", absl::StrJoin(options, ", "), "}");
  }
  if (r.resolves() != 0) absl::StrAppend(&what, " (decides #", r.resolves(), ")");
  if (r.voided() != 0) {
    absl::StrAppend(&what, what.empty() ? "" : " ", "event ", r.voided(), " voided: supersedes #",
                    r.supersedes());
  } else if (r.supersedes() != 0) {
    absl::StrAppend(&what, what.empty() ? "" : " ", "appeal on #", r.appealed(), ": supersedes #",
                    r.supersedes());
  } else if (r.appealed() != 0) {
    absl::StrAppend(&what, what.empty() ? "" : " ", "appeal on #", r.appealed(), ": upheld");
  }
  return what;
}

}  // namespace

std::string RenderText(const v1::AdjudicationReport& report,
                       const std::vector<std::string>& event_kinds) {
  std::string out =
      absl::StrCat("game ", report.game_id(), " under ", report.ruleset(),
                   report.supplement().empty() ? "" : " + ", report.supplement(), "\n\n");
  if (report.rulings().empty()) {
    absl::StrAppend(&out, "no rulings\n");
  } else {
    absl::StrAppendFormat(&out, "%-3s %-9s %-18s %-16s %-38s %-7s %s\n", "#", "time", "event",
                          "clause", "sanctions", "against", "warnings");
    for (const v1::Ruling& r : report.rulings()) {
      const std::string what = RulingColumn(r);
      const std::string kind =
          r.event() >= 1 && r.event() <= event_kinds.size() ? event_kinds[r.event() - 1] : "";
      absl::StrAppendFormat(&out, "%-3d %-9s %-18s %-16s %-38s %-7s %d\n", r.number(),
                            absl::FormatTime("%H:%M:%S", FromProto(r.at()), absl::UTCTimeZone()),
                            absl::StrCat(r.event(), " ", kind), r.clause(), what,
                            PartyName(r.against()), r.warnings());
    }
  }
  const v1::GameState& s = report.state();
  absl::StrAppend(&out, "\nmove ", s.move_number(), ", ", v1::Color_Name(s.to_move()),
                  " to move; penalty stones B ", s.penalty_stones().black(), " W ",
                  s.penalty_stones().white(), "\n");
  if (s.dead_stones_size() > 0) {
    absl::StrAppend(&out, "死子 / dead stones (taken off for the count): ",
                    absl::StrJoin(s.dead_stones(), " "), "\n");
  }
  if (!report.has_result() && s.consecutive_passes() >= 2) {
    // Play has ended (art. 8) but the count cannot be made without the
    // dead stones: say what the record lacks, not "in progress".
    absl::StrAppend(&out, kUncounted);
  } else {
    absl::StrAppend(&out, ResultLine(report.has_result() ? &report.result() : nullptr));
  }
  if (report.has_result() && !report.result().sgf().empty()) {
    absl::StrAppend(&out, "  [RE ", report.result().sgf(), "]");
  }
  absl::StrAppend(&out, "\n");
  if (s.cancelled()) {
    absl::StrAppend(&out, "对局已取消 / Cancelled by the chief arbiter: ", s.cancelled_reason(),
                    "\n");
  }
  return out;
}

}  // namespace arbiter
