// What the `arbiter tournament` subcommands share (cli/tournament*.cc):
// their specs, the call to the TournamentService, and the printing of what
// it answers. --server ADDR / $ARBITER_SERVER and --json as for every
// client command (client.h).
//
//   tournament_setup.cc    create, import, player: who plays under what system
//   tournament_rounds.cc   pair, lineup, import-round, start-round, replay, withdraw, tiebreak:
//                          the rounds as played
//   tournament_reports.cc  show, standings, export
#ifndef ARBITER_CLI_TOURNAMENT_H_
#define ARBITER_CLI_TOURNAMENT_H_

#include <cstdio>
#include <optional>
#include <string>

#include "arbiter/v1/tournament.grpc.pb.h"
#include "cli/client.h"
#include "cli/flags.h"

namespace arbiter::cli {

// Each subcommand: its spec and what runs it.
extern const CommandSpec kTournamentCreate, kTournamentImport, kTournamentPlayer;
int TournamentCreate(const Args& args);
int TournamentImport(const Args& args);
int TournamentPlayer(const Args& args);
extern const CommandSpec kTournamentPair, kTournamentImportRound, kTournamentStartRound,
    kTournamentReplay, kTournamentWithdraw, kTournamentTiebreak, kTournamentLineup;
int TournamentPair(const Args& args);
int TournamentLineup(const Args& args);
int TournamentImportRound(const Args& args);
int TournamentStartRound(const Args& args);
int TournamentReplay(const Args& args);
int TournamentWithdraw(const Args& args);
int TournamentTiebreak(const Args& args);
extern const CommandSpec kTournamentAmend, kTournamentUpdate, kTournamentResult,
    kTournamentReinstate;
int TournamentAmend(const Args& args);
int TournamentUpdate(const Args& args);
int TournamentResult(const Args& args);
int TournamentReinstate(const Args& args);
extern const CommandSpec kTournamentShow, kTournamentStandings, kTournamentExport;
int TournamentShow(const Args& args);
int TournamentStandings(const Args& args);
int TournamentExport(const Args& args);

// "tournaments/ID" of the subcommands' one positional.
std::string TournamentName(const Args& args);

// The tournament as readable lines: entrants, rounds, withdrawals.
void PrintTournament(const v1::Tournament& tournament);

// Calls `method` with `request` on the server of `args`. nullopt on
// success; otherwise the exit status, after printing why (client.h Fail).
template <typename Request, typename Response>
std::optional<int> CallTournamentService(const CommandSpec& spec, const Args& args,
                                         grpc::Status (v1::TournamentService::Stub::*method)(
                                             grpc::ClientContext*, const Request&, Response*),
                                         const Request& request, Response* response) {
  const std::string server = ServerOf(args);
  auto stub = v1::TournamentService::NewStub(OpenChannel(server));
  grpc::ClientContext context;
  SetDeadline(&context);
  grpc::Status status = ((*stub).*method)(&context, request, response);
  if (status.ok()) return std::nullopt;
  return Fail(std::string(spec.name), server, status);
}

// Calls `method` and prints what it answers: with --json one line of proto3
// JSON, else `print` (by default PrintTournament).
template <typename Request, typename Response = v1::Tournament>
int CallAndPrint(const CommandSpec& spec, const Args& args,
                 grpc::Status (v1::TournamentService::Stub::*method)(grpc::ClientContext*,
                                                                     const Request&, Response*),
                 const Request& request, void (*print)(const Response&) = PrintTournament) {
  Response response;
  if (std::optional<int> exit = CallTournamentService(spec, args, method, request, &response)) {
    return *exit;
  }
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(response).c_str());
  } else {
    print(response);
  }
  return 0;
}

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_TOURNAMENT_H_
