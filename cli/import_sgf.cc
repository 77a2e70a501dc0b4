// `arbiter import-sgf FILE|- [--game ID]`: one SGF FF[4] game record as event lines
// (adjudicator/sgf_events.h), one proto3 JSON Event per line. Bad input, an
// illegal move included, exits 2 naming the place, with nothing printed.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/sgf.h"
#include "adjudicator/engine/sgf_events.h"
#include "arbiter/v1/events.pb.h"
#include "cli/commands.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] =
    "usage: arbiter import-sgf FILE|- [--game ID]\n"
    "  the game id is ID, else the file's name without its extension\n";

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

}  // namespace

int RunImportSgf(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::string path;
  std::string game_id;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--game" && i + 1 < argc && argv[i + 1][0] != '\0') {
      game_id = argv[++i];
    } else if (path.empty() && (arg == "-" || arg[0] != '-')) {
      path = arg;
    } else {
      std::fputs(kUsage, stderr);
      return 2;
    }
  }
  if (path.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  auto fail = [&](const absl::Status& status) {
    std::fprintf(stderr, "arbiter import-sgf: %s: %s\n", path.c_str(),
                 std::string(status.message()).c_str());
    return 2;
  };
  const absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) return fail(text.status());
  const absl::StatusOr<SgfGame> game = ParseSgf(*text);
  if (!game.ok()) return fail(game.status());
  if (game_id.empty()) {
    game_id = path == "-" ? "stdin" : std::filesystem::path(path).stem().string();
  }
  const absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*game, game_id);
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
