// `arbiter import-sgf FILE`: one SGF FF[4] game record as event lines.
//
// The record becomes gameCreated, gameStarted, one move or pass event per
// main-line move and, when RE says X+R, the loser's resign. Every move is
// checked on a Board first; an illegal one (occupied, suicide, repetition)
// refuses the whole file, naming its place, and nothing is printed.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "adjudicator/board.h"
#include "adjudicator/point.h"
#include "adjudicator/sgf.h"
#include "arbiter/v1/events.pb.h"
#include "cli/commands.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/time_util.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] = "usage: arbiter import-sgf FILE|-\n";

absl::StatusOr<std::string> ReadInput(const std::string& path) {
  std::stringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    return text.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot open the file");
  text << in.rdbuf();
  if (in.bad()) return absl::DataLossError("cannot read the file");
  return text.str();
}

// DT is free text in practice; its leading YYYY-MM-DD, at 00:00 UTC, is the
// scheduled start. Without one the start is 2000-01-01T00:00:00Z.
absl::Time ScheduledStart(const std::string& date) {
  absl::Time start;
  std::string error;
  if (date.size() >= 10 && absl::ParseTime("%Y-%m-%d", date.substr(0, 10), absl::UTCTimeZone(),
                                           &start, &error)) {
    return start;
  }
  return absl::FromCivil(absl::CivilDay(2000, 1, 1), absl::UTCTimeZone());
}

google::protobuf::Timestamp ToTimestamp(absl::Time t) {
  const absl::Duration since_epoch = t - absl::UnixEpoch();
  google::protobuf::Timestamp out;
  out.set_seconds(absl::ToInt64Seconds(since_epoch));
  out.set_nanos(static_cast<int32_t>(
      absl::ToInt64Nanoseconds(since_epoch - absl::Seconds(out.seconds()))));
  return out;
}

google::protobuf::Duration ToDuration(absl::Duration d) {
  google::protobuf::Duration out;
  out.set_seconds(absl::ToInt64Seconds(d));
  out.set_nanos(static_cast<int32_t>(absl::ToInt64Nanoseconds(d - absl::Seconds(out.seconds()))));
  return out;
}

// Refuses a record whose main line breaks a rule of play.
absl::Status CheckMoves(const SgfGame& game, v1::Color first) {
  Board board(game.board_size);
  for (const int v : game.setup_black) board.Place(v1::BLACK, v);
  for (const int v : game.setup_white) board.Place(v1::WHITE, v);
  board.RecordSituation(first);
  for (const SgfMove& move : game.moves) {
    if (!move.vertex.has_value()) {
      board.Pass(move.color);
      continue;
    }
    const Legality legality = board.Check(move.color, *move.vertex);
    if (legality != Legality::kLegal) {
      return absl::InvalidArgumentError(absl::StrCat(
          PositionText(move.position), ": illegal move: ",
          move.color == v1::BLACK ? "Black" : "White", " at ",
          PointName(*move.vertex, game.board_size), " (", LegalityName(legality), ")"));
    }
    board.Play(move.color, *move.vertex);
  }
  return absl::OkStatus();
}

// "B+R" / "W+Resign": the winner's opponent resigned.
std::optional<v1::Color> Resigned(const std::string& result) {
  const std::string re = absl::AsciiStrToUpper(result);
  if (re != "B+R" && re != "B+RESIGN" && re != "W+R" && re != "W+RESIGN") return std::nullopt;
  return re[0] == 'B' ? v1::WHITE : v1::BLACK;
}

absl::StatusOr<std::vector<v1::Event>> ToEvents(const SgfGame& game, const std::string& base_name) {
  v1::Color first = game.player_to_move;
  if (first == v1::COLOR_UNSPECIFIED) {
    first = !game.moves.empty() && game.moves[0].color == v1::WHITE ? v1::WHITE : v1::BLACK;
  }
  if (absl::Status s = CheckMoves(game, first); !s.ok()) return s;

  const absl::Time start = ScheduledStart(game.date);
  // Remaining times (BL/WL) give each move's duration; the main time is the
  // largest remaining time seen, rounded up to a whole minute.
  absl::Duration main_time = absl::ZeroDuration();
  for (const SgfMove& move : game.moves) {
    if (move.time_left.has_value()) main_time = std::max(main_time, *move.time_left);
  }
  const bool timed = main_time > absl::ZeroDuration();
  if (timed) main_time = absl::Minutes(std::ceil(absl::ToDoubleMinutes(main_time)));

  std::vector<v1::Event> events;
  v1::Event& created_event = events.emplace_back();
  *created_event.mutable_at() = ToTimestamp(start);
  v1::GameCreated& created = *created_event.mutable_game_created();
  created.set_game_id(game.game_name.empty() ? base_name : game.game_name);
  created.set_ruleset("cn-2002");
  created.set_board_size(game.board_size);
  created.mutable_black()->set_name(game.black_name);
  created.mutable_black()->set_rank(game.black_rank);
  created.mutable_white()->set_name(game.white_name);
  created.mutable_white()->set_rank(game.white_rank);
  created.set_venue(v1::GameCreated::SAME_SITE);
  *created.mutable_scheduled_start() = ToTimestamp(start);
  if (timed) *created.mutable_time_control()->mutable_main_time() = ToDuration(main_time);
  if (game.komi.has_value()) created.set_komi_stones(*game.komi / 2);  // points are half stones
  if (!game.setup_black.empty() || !game.setup_white.empty() || first != v1::BLACK) {
    v1::Setup& setup = *created.mutable_setup();
    for (const int v : game.setup_black) setup.add_black(PointName(v, game.board_size));
    for (const int v : game.setup_white) setup.add_white(PointName(v, game.board_size));
    setup.set_first_to_move(first);
  }

  v1::Event& started = events.emplace_back();
  *started.mutable_at() = ToTimestamp(start);
  started.mutable_game_started();

  absl::Time now = start;
  absl::Duration black_left = main_time;
  absl::Duration white_left = main_time;
  for (const SgfMove& move : game.moves) {
    if (!timed) {
      now += absl::Seconds(1);  // untimed: one second apart
    } else if (move.time_left.has_value()) {
      absl::Duration& left = move.color == v1::BLACK ? black_left : white_left;
      // A remaining time that went up (byo-yomi, a correction) costs nothing.
      now += std::max(absl::ZeroDuration(), left - *move.time_left);
      left = *move.time_left;
    }
    v1::Event& event = events.emplace_back();
    *event.mutable_at() = ToTimestamp(now);
    if (move.vertex.has_value()) {
      event.mutable_move()->set_color(move.color);
      event.mutable_move()->set_point(PointName(*move.vertex, game.board_size));
    } else {
      event.mutable_pass()->set_color(move.color);
    }
  }
  if (const std::optional<v1::Color> loser = Resigned(game.result); loser.has_value()) {
    v1::Event& resign = events.emplace_back();
    *resign.mutable_at() = ToTimestamp(timed ? now : now + absl::Seconds(1));
    resign.mutable_resign()->set_color(*loser);
  }
  return events;
}

}  // namespace

int RunImportSgf(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (argc != 2 || (argv[1][0] == '-' && argv[1][1] != '\0')) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string path = argv[1];
  auto fail = [&](const absl::Status& status) {
    std::fprintf(stderr, "arbiter import-sgf: %s: %s\n", path.c_str(),
                 std::string(status.message()).c_str());
    return 2;
  };
  const absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) return fail(text.status());
  const absl::StatusOr<SgfGame> game = ParseSgf(*text);
  if (!game.ok()) return fail(game.status());
  const std::string base_name =
      path == "-" ? "stdin" : std::filesystem::path(path).stem().string();
  const absl::StatusOr<std::vector<v1::Event>> events = ToEvents(*game, base_name);
  if (!events.ok()) return fail(events.status());

  // Everything is rendered before anything is printed.
  std::string out;
  for (const v1::Event& event : *events) {
    std::string line;
    if (const auto s = google::protobuf::util::MessageToJsonString(event, &line); !s.ok()) {
      return fail(absl::InternalError(absl::StrCat("cannot render an event: ", s.ToString())));
    }
    absl::StrAppend(&out, line, "\n");
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 3;
}

}  // namespace arbiter::cli
