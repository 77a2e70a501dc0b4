// The server modes of `arbiter export` and `arbiter verify` (cli/export.cc
// and cli/verify.cc parse the command line and hand over to these when no
// --db or --bundle is given).
//
//   arbiter export GAME --format FORMAT [--out FILE] [--server ADDR]
//     the formats of adjudicator/service/game_exports.h; a text one goes to
//     stdout unless --out, a binary one (a bundle) needs --out; a bundle is
//     checked offline by `arbiter verify --bundle FILE`.
//   arbiter verify GAME [--server ADDR] [--json]
//     the server audits its ledger and re-adjudicates the game under its
//     pinned rules. Exit 0 intact, 1 not intact.
#include <cstdio>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/game_exports.h"
#include "cli/client.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"

namespace arbiter::cli {

int RunRemoteExport(const CommandSpec& spec, const Args& args) {
  const std::optional<std::string> format = args.Value("format");
  const std::optional<std::string> out = args.Value("out");
  if (!format.has_value())
    return UsageError(spec, "missing --format (or --db and --bundle, offline)");
  v1::ExportGameRequest req;
  const service::GameExportFormat* f = service::FindGameExport(*format);
  if (f == nullptr) {
    return UsageError(spec, absl::StrCat("--format '", *format, "': ", service::GameExportNames()));
  }
  if (f->binary && !out.has_value()) {
    return UsageError(spec, absl::StrCat("a ", f->name, " is binary: give --out FILE"));
  }
  if (out.has_value()) {
    if (absl::Status s = CheckWritable(*out); !s.ok()) {
      return UsageError(spec, absl::StrCat("--out ", *out, ": ", s.message()));
    }
  }
  req.set_name(GameResource(args.positionals()[0]));
  req.set_format(f->format);
  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  // The file comes in pages of at most 1 MiB (client.h CallPages).
  std::string content;
  v1::ExportGameResponse resp;
  const grpc::Status status =
      CallPages<v1::Arbiter::Stub, v1::ExportGameRequest, v1::ExportGameResponse>(
          *stub, &v1::Arbiter::Stub::ExportGame, req, [&] { content.clear(); },
          [&](v1::ExportGameResponse& page) {
            content += page.content();
            resp = std::move(page);
          });
  if (!status.ok()) return Fail("export", server, status);
  if (!out.has_value()) {
    std::fwrite(content.data(), 1, content.size(), stdout);
    return 0;
  }
  if (absl::Status s = WriteFileAtomically(*out, content); !s.ok()) {
    return Complain("export", absl::StrCat("--out: ", s.message()), ExitCodeOf(s));
  }
  std::fprintf(stderr, "wrote %s (%zu bytes, %s)\n", out->c_str(), content.size(),
               resp.content_type().c_str());
  return 0;
}

int RunRemoteVerify(const CommandSpec& spec, const Args& args) {
  if (args.positionals().size() != 1)
    return UsageError(spec, "which GAME (or --db or --bundle, offline)?");
  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  grpc::ClientContext context;
  SetDeadline(&context, absl::Seconds(300));
  v1::VerifyGameRequest req;
  req.set_name(GameResource(args.positionals()[0]));
  v1::VerifyGameResponse resp;
  if (grpc::Status s = stub->VerifyGame(&context, req, &resp); !s.ok()) {
    return Fail("verify", server, s);
  }
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(resp).c_str());
  } else if (resp.intact()) {
    std::printf(
        "%s intact: %llu event(s) and %llu ruling(s), re-adjudicated under %s: same rulings\n",
        req.name().c_str(), static_cast<unsigned long long>(resp.game_events()),
        static_cast<unsigned long long>(resp.game_rulings()), resp.rules_pin().c_str());
    std::printf(
        "ledger: %llu event(s) in %llu game(s), %llu checkpoint(s); signed root %s at size %llu,"
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
  return resp.intact() ? kExitOk : kExitNegative;
}

}  // namespace arbiter::cli
