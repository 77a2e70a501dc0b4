// The server modes of `arbiter export` and `arbiter verify` (cli/export.cc
// and cli/verify.cc hand over to these when no --db or --bundle is given).
//
//   arbiter export GAME --format sgf|json|bundle [--out FILE] [--server ADDR]
//     SGF and JSON go to stdout unless --out; a bundle needs --out (it is
//     binary) and is checked offline by `arbiter verify --bundle FILE`.
//   arbiter verify GAME [--server ADDR] [--json]
//     the server audits its ledger and re-adjudicates the game under its
//     pinned rules. Exit 0 intact, 1 not intact.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/ascii.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {

int RunRemoteExport(int argc, char** argv) {
  constexpr char kUsage[] =
      "usage: arbiter export GAME --format sgf|json|bundle [--out FILE] [--server ADDR]\n"
      "       arbiter export GAME --db PATH --bundle FILE   (offline)\n";
  ClientArgs args;
  std::string error;
  if (!args.Parse(argc, argv, &error)) return Usage(kUsage);
  bool missing = false;
  const std::string format = absl::AsciiStrToUpper(args.Take("--format", &missing).value_or(""));
  const std::optional<std::string> out = args.Take("--out", &missing);
  v1::ExportGameRequest req;
  v1::ExportGameRequest::Format f;
  if (missing || args.rest().size() != 1 || !v1::ExportGameRequest::Format_Parse(format, &f) ||
      f == v1::ExportGameRequest::FORMAT_UNSPECIFIED) {
    return Usage(kUsage);
  }
  if (f == v1::ExportGameRequest::BUNDLE && !out.has_value()) {
    std::fprintf(stderr, "arbiter export: a bundle is binary: give --out FILE\n");
    return 2;
  }
  req.set_name(GameResource(args.rest()[0]));
  req.set_format(f);
  auto stub = Connect(args.server());
  grpc::ClientContext context;
  SetDeadline(&context, absl::Seconds(120));
  v1::ExportGameResponse resp;
  if (grpc::Status s = stub->ExportGame(&context, req, &resp); !s.ok()) {
    return Fail("export", args.server(), s);
  }
  if (!out.has_value()) {
    std::fwrite(resp.content().data(), 1, resp.content().size(), stdout);
    return 0;
  }
  // Written beside the target and renamed: a reader never sees half a file.
  const std::string tmp = *out + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    if (!file || !file.write(resp.content().data(), static_cast<std::streamsize>(resp.content().size())) ||
        !file.flush()) {
      std::fprintf(stderr, "arbiter export: cannot write %s\n", tmp.c_str());
      return 3;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, *out, ec);
  if (ec) {
    std::fprintf(stderr, "arbiter export: cannot write %s: %s\n", out->c_str(), ec.message().c_str());
    return 3;
  }
  std::fprintf(stderr, "wrote %s (%zu bytes, %s)\n", out->c_str(), resp.content().size(),
               resp.content_type().c_str());
  return 0;
}

int RunRemoteVerify(int argc, char** argv) {
  constexpr char kUsage[] =
      "usage: arbiter verify GAME [--server ADDR] [--json]\n"
      "       arbiter verify --db PATH [GAME] | --bundle FILE   (offline)\n";
  ClientArgs args;
  std::string error;
  if (!args.Parse(argc, argv, &error) || args.rest().size() != 1) return Usage(kUsage);
  auto stub = Connect(args.server());
  grpc::ClientContext context;
  SetDeadline(&context, absl::Seconds(300));
  v1::VerifyGameRequest req;
  req.set_name(GameResource(args.rest()[0]));
  v1::VerifyGameResponse resp;
  if (grpc::Status s = stub->VerifyGame(&context, req, &resp); !s.ok()) {
    return Fail("verify", args.server(), s);
  }
  if (args.json()) {
    std::printf("%s\n", ToJson(resp).c_str());
  } else if (resp.intact()) {
    std::printf("%s intact: %llu event(s) and %llu ruling(s), re-adjudicated under %s: same rulings\n",
                req.name().c_str(), static_cast<unsigned long long>(resp.game_events()),
                static_cast<unsigned long long>(resp.game_rulings()), resp.rules_pin().c_str());
    std::printf("ledger: %llu event(s) in %llu game(s), %llu checkpoint(s); signed root %s at size %llu,"
                " key %s\n",
                static_cast<unsigned long long>(resp.events()),
                static_cast<unsigned long long>(resp.games()),
                static_cast<unsigned long long>(resp.checkpoints()), resp.signed_root().c_str(),
                static_cast<unsigned long long>(resp.signed_size()), resp.key_id().c_str());
  } else {
    std::printf("%s is NOT intact%s: %s\n", req.name().c_str(),
                resp.first_bad_position() > 0
                    ? (" at position " + std::to_string(resp.first_bad_position())).c_str()
                    : "",
                resp.why().c_str());
  }
  return resp.intact() ? 0 : 1;
}

}  // namespace arbiter::cli

namespace arbiter::cli {

bool WantsServer(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--db" || arg == "--bundle" || arg.rfind("--db=", 0) == 0 ||
        arg.rfind("--bundle=", 0) == 0) {
      return false;
    }
  }
  return true;
}

}  // namespace arbiter::cli
