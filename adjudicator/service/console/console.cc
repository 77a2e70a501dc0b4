#include "adjudicator/service/console/console.h"

#include <atomic>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/time/clock.h"
#include "adjudicator/service/auth_tls.h"
#include "adjudicator/service/console/assets.h"
#include "adjudicator/service/console/broadcast.h"
#include "adjudicator/service/console/broadcast_pages.h"
#include "adjudicator/service/console/error_page.h"
#include "adjudicator/service/console/file_budget.h"
#include "adjudicator/service/console/floor.h"
#include "adjudicator/service/console/followers.h"
#include "adjudicator/service/console/guarded_server.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/http_status.h"
#include "adjudicator/service/console/json.h"
#include "adjudicator/service/console/live_feed.h"
#include "adjudicator/service/console/login_throttle.h"
#include "adjudicator/service/console/receipt_route.h"
#include "adjudicator/service/console/request_head.h"
#include "adjudicator/service/console/round_start.h"
#include "adjudicator/service/console/sessions.h"
#include "adjudicator/service/console/sign_in.h"
#include "adjudicator/service/console/slip.h"
#include "adjudicator/service/console/tlog_tiles.h"
#include "adjudicator/service/console/tournament_page.h"
#include "adjudicator/service/console/webhooks_page.h"
#include "adjudicator/service/console/witness_routes.h"
#include "adjudicator/service/game_exports.h"
#include "adjudicator/service/game_reads.h"
#include "adjudicator/service/listen_address.h"
#include "adjudicator/service/recorder.h"
#include "httplib.h"
#include "ledger/thread_name.h"
#include "proto/names/resource_name.h"

namespace arbiter::service::console {
namespace {

// The gRPC methods whose access each kind of request needs.
constexpr absl::string_view kRead = "/arbiter.v1.Arbiter/GetGame";
constexpr absl::string_view kDecide = "/arbiter.v1.Arbiter/Decide";
constexpr absl::string_view kVerify = "/arbiter.v1.Arbiter/VerifyGame";
constexpr absl::string_view kExport = "/arbiter.v1.Arbiter/ExportGame";
constexpr absl::string_view kWatch = "/arbiter.v1.Arbiter/WatchAll";
constexpr absl::string_view kStandings = "/arbiter.v1.TournamentService/GetStandings";
constexpr absl::string_view kListWebhooks = "/arbiter.v1.Arbiter/ListWebhooks";

void SendAsset(httplib::Response& res, absl::string_view name) {
  const Asset* asset = FindAsset(name);
  if (asset == nullptr) {
    SendError(res, absl::NotFoundError(absl::StrCat("no file ", name)));
    return;
  }
  res.set_content(asset->body.data(), asset->body.size(), std::string(ContentTypeOf(name)).c_str());
}

// The hall. It folds the finished games away; `/?all=1`, the link
// scripts/run prints, serves it with that section open.
void SendHall(const httplib::Request& req, httplib::Response& res) {
  const Asset* hall = FindAsset("hall.html");
  if (req.get_param_value("all") != "1" || hall == nullptr) return SendAsset(res, "hall.html");
  res.set_content(absl::StrReplaceAll(hall->body, {{"<details id=\"finished\">",
                                                    "<details id=\"finished\" open>"}}),
                  std::string(ContentTypeOf("hall.html")));
}

// The game id in the path, checked as the gRPC names are.
absl::StatusOr<std::string> GameOf(const httplib::Request& req) {
  std::string id = req.matches[1];
  if (absl::Status s = CheckId("game", id); !s.ok()) return s;
  return id;
}

}  // namespace

struct Console::Impl {
  Impl(const ConsoleParts& parts, ConsoleOptions o)
      : http(std::move(o.host_names), std::move(o.tls), o.connections),
        folds(parts.folds),
        feed(parts.folds, parts.ledger->commit_feed()),
        followers(&feed, o.feeds, /*loops=*/1, &http),
        ledger(parts.ledger),
        tokens(parts.tokens),
        gate(parts.gate),
        tournaments(parts.tournaments),
        recorder(parts.recorder),
        webhooks(parts.webhooks),
        sessions(&parts.tokens->tables()),
        insecure(o.insecure),
        witness(o.witness),
        cosignatures(o.cosignatures),
        venue_time(o.venue_time),
        broadcast_options{o.broadcast, o.broadcast_delay, o.trusted_proxies,
                          FeedLimits{.in_all = o.viewers,
                                     .per_caller = o.feeds.per_caller,
                                     .followers = "viewers follow the broadcast",
                                     .set_by = "the open-file limit's budget, ulimit -n"}} {}

  // Who is asking: the session (opened on an open server when there is
  // none yet) and the caller the Gatekeeper admits it as, for `method`.
  struct Visitor {
    Session session;
    Caller caller;
  };
  absl::StatusOr<Visitor> Admit(const httplib::Request& req, httplib::Response& res,
                                absl::string_view method);
  // A write also carries the session's CSRF token in X-CSRF-Token.
  absl::StatusOr<Visitor> AdmitWrite(const httplib::Request& req, httplib::Response& res,
                                     absl::string_view method);
  // Runs a page's body, or sends a visitor who must sign in to /login.
  template <typename Fn>
  void Page(const httplib::Request& req, httplib::Response& res, absl::string_view method, Fn fn);

  void Routes();
  // Routes' parts, by page family, registered in this order.
  void SetGuardHeaders();
  void RoutePages();
  void RouteSession();
  void RouteApi();
  void Hall(const httplib::Request& req, httplib::Response& res);
  void Game(const httplib::Request& req, httplib::Response& res);
  void Decide(const httplib::Request& req, httplib::Response& res);
  void Feed(const httplib::Request& req, httplib::Response& res);
  void Slip(const httplib::Request& req, httplib::Response& res);
  void Audit(const httplib::Request& req, httplib::Response& res);
  void Login(const httplib::Request& req, httplib::Response& res);
  // OK when a sign-in comes from this console's own page, or from no page.
  absl::Status CheckSignInOrigin(const httplib::Request& req) const;
  void Tournament(const httplib::Request& req, httplib::Response& res);
  // Where the games stand in the tournaments; none without tournaments.
  absl::StatusOr<Placements> Place();

  // First, so that it is made before the followers' loops it hosts and
  // outlives them.
  GuardedServer http;
  GameFolds* folds;
  LiveFeed feed;
  Followers followers;  // the pages following `feed`
  ledger::Ledger* ledger = nullptr;
  TokenStore* tokens = nullptr;
  Gatekeeper* gate = nullptr;
  tournament::TournamentHost* tournaments = nullptr;
  Recorder* recorder = nullptr;       // the server's, shared with gRPC
  std::unique_ptr<FloorPages> floor;  // /tables (floor.h)
  std::unique_ptr<TlogTiles> tiles;   // /checkpoint, /tile/... (tlog_tiles.h)
  // /webhooks: the endpoints as ListWebhooks answers; empty: no page.
  std::function<absl::StatusOr<v1::ListWebhooksResponse>()> webhooks;
  // With --broadcast: the delayed view, then its pages (which follow it).
  std::unique_ptr<Broadcast> broadcast;
  std::unique_ptr<BroadcastPages> broadcast_pages;
  Sessions sessions;
  LoginThrottle logins;
  const bool insecure;
  ledger::Witness* const witness;                // null: not a witness
  ledger::CosignatureStore* const cosignatures;  // null: receipts carry no cosignature
  const VenueTime venue_time;                    // the times the pages say
  struct BroadcastOptions {
    bool on = false;
    absl::Duration delay;
    std::vector<std::string> trusted_proxies;
    FeedLimits viewers;
  } broadcast_options;
  std::thread thread;
  std::string address;
  bool stopped = false;
};

namespace {

// The session the request's cookie names; none without a cookie, or when
// it names no live session.
absl::StatusOr<std::optional<Session>> SessionOf(Sessions& sessions, const httplib::Request& req) {
  std::optional<std::string> id = CookieValue(req.get_header_value("Cookie"), kSessionCookie);
  if (!id.has_value()) return std::nullopt;
  return sessions.Find(*id);
}

}  // namespace

absl::StatusOr<Console::Impl::Visitor> Console::Impl::Admit(const httplib::Request& req,
                                                            httplib::Response& res,
                                                            absl::string_view method) {
  absl::StatusOr<bool> secured = tokens->Any();
  if (!secured.ok()) return secured.status();
  absl::StatusOr<std::optional<Session>> session = SessionOf(sessions, req);
  if (!session.ok()) return session.status();
  if (*secured && (!session->has_value() || !(*session)->token_id.has_value())) {
    return absl::UnauthenticatedError("sign in with a token first (/login)");
  }
  if (!session->has_value()) {
    absl::StatusOr<Session> opened = sessions.Open(std::nullopt);
    if (!opened.ok()) return opened.status();
    *session = *std::move(opened);
    res.set_header("Set-Cookie", SessionCookieHeader((*session)->id, http.secure()));
  }
  absl::StatusOr<Caller> caller = gate->AdmitSession(
      method, (*session)->token_id, absl::StrCat("ipv4:", req.remote_addr, ":", req.remote_port));
  if (!caller.ok()) return caller.status();
  return Visitor{**std::move(session), *std::move(caller)};
}

absl::StatusOr<Console::Impl::Visitor> Console::Impl::AdmitWrite(const httplib::Request& req,
                                                                 httplib::Response& res,
                                                                 absl::string_view method) {
  absl::StatusOr<std::optional<Session>> session = SessionOf(sessions, req);
  if (!session.ok()) return session.status();
  const std::string csrf = req.get_header_value("X-CSRF-Token");
  if (!session->has_value() || csrf.empty() || !SameSecret(csrf, (*session)->csrf)) {
    return absl::PermissionDeniedError(
        "a write needs this session's CSRF token in X-CSRF-Token (reload the page)");
  }
  return Admit(req, res, method);
}

template <typename Fn>
void Console::Impl::Page(const httplib::Request& req, httplib::Response& res,
                         absl::string_view method, Fn fn) {
  absl::StatusOr<Visitor> visitor = Admit(req, res, method);
  if (absl::IsUnauthenticated(visitor.status())) {
    res.set_redirect(SignInPath(req), 303);
    return;
  }
  if (!visitor.ok()) {
    SendError(res, visitor.status());
    return;
  }
  fn(*visitor);
}

void Console::Impl::Hall(const httplib::Request& req, httplib::Response& res) {
  absl::StatusOr<Visitor> visitor = Admit(req, res, kRead);
  if (!visitor.ok()) return SendError(res, visitor.status());
  const bool all = req.get_param_value("all") == "1";
  // Taken before the games are read: a commit after it reaches the page.
  const uint64_t head = feed.Head();
  std::vector<std::string> games;
  uint64_t after = 0;
  for (;;) {
    absl::StatusOr<std::vector<ledger::GameListing>> page = ledger->log().ListGames(after, 1000);
    if (!page.ok()) return SendError(res, page.status());
    if (page->empty()) break;
    for (const ledger::GameListing& listing : *page) {
      after = listing.first_position;
      v1::Game game;
      if (absl::Status s = FillGame(*folds, listing.game_id, &game); !s.ok()) {
        return SendError(res, s);
      }
      // A cancelled game (DOMAIN.md §3.2) was never the hall's.
      if (game.state().cancelled()) continue;
      if (all || !game.has_result()) games.push_back(ToJson(game));
    }
  }
  absl::StatusOr<Placements> placements = Place();
  if (!placements.ok()) return SendError(res, placements.status());
  SendJson(res, absl::StrCat("{\"feed\":\"", head, "\",\"games\":[", absl::StrJoin(games, ","),
                             "],\"placements\":", PlacementsJson(*placements), "}"));
}

absl::StatusOr<Placements> Console::Impl::Place() {
  if (tournaments == nullptr) return Placements{};
  return PlaceGames(*tournaments);
}

void Console::Impl::Tournament(const httplib::Request& req, httplib::Response& res) {
  Page(req, res, kStandings, [&](const Visitor&) {
    std::string id = req.matches[1];
    if (absl::Status s = CheckId("tournament", id); !s.ok()) return SendError(res, s);
    if (tournaments == nullptr) {
      return SendError(res, absl::NotFoundError(absl::StrCat("no tournament '", id, "'")));
    }
    TournamentFacts facts;
    facts.feed = feed.Head();
    const std::string round = req.get_param_value("round");
    if (!round.empty() && (!absl::SimpleAtoi(round, &facts.round) || facts.round < 1)) {
      return SendError(res, absl::InvalidArgumentError("round: a number from 1"));
    }
    tournament::GameFactsMap games;
    absl::StatusOr<v1::StandingsReport> report =
        tournaments->service->Standings(id, &facts.tournament, &games);
    if (!report.ok()) return SendError(res, report.status());
    facts.report = *std::move(report);
    SendHtml(res, RenderTournament(facts));
  });
}

void Console::Impl::Game(const httplib::Request& req, httplib::Response& res) {
  absl::StatusOr<Visitor> visitor = Admit(req, res, kRead);
  if (!visitor.ok()) return SendError(res, visitor.status());
  absl::StatusOr<std::string> id = GameOf(req);
  if (!id.ok()) return SendError(res, id.status());
  const uint64_t head = feed.Head();
  v1::Game game;
  if (absl::Status s = FillGame(*folds, *id, &game); !s.ok()) return SendError(res, s);
  absl::StatusOr<v1::GameRecord> record = ReadRecord(*ledger, *folds, *id);
  if (!record.ok()) return SendError(res, record.status());
  SendJson(res, absl::StrCat("{\"feed\":\"", head, "\",\"game\":", ToJson(game),
                             ",\"record\":", ToJson(*record), "}"));
}

void Console::Impl::Decide(const httplib::Request& req, httplib::Response& res) {
  if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
    return SendError(res, absl::InvalidArgumentError("the body must be application/json"));
  }
  absl::StatusOr<Visitor> visitor = AdmitWrite(req, res, kDecide);
  if (!visitor.ok()) return SendError(res, visitor.status());
  absl::StatusOr<std::string> id = GameOf(req);
  if (!id.ok()) return SendError(res, id.status());
  uint32_t ruling = 0;
  if (!absl::SimpleAtoi(std::string(req.matches[2]), &ruling)) {
    return SendError(res, absl::InvalidArgumentError("ruling: a number"));
  }
  v1::DecideRequest decide;
  if (absl::Status s = FromJson(req.body, &decide); !s.ok()) return SendError(res, s);
  decide.set_game(ResourceName("games", *id));
  decide.set_ruling(ruling);
  absl::StatusOr<v1::AppendEventsResponse> r = recorder->Decide(visitor->caller, decide);
  if (!r.ok()) return SendError(res, r.status());
  SendJson(res, ToJson(*r));
}

void Console::Impl::Feed(const httplib::Request& req, httplib::Response& res) {
  absl::StatusOr<Visitor> visitor = Admit(req, res, kWatch);
  if (!visitor.ok()) return SendError(res, visitor.status());
  uint64_t after = feed.Head();
  const std::string resume = req.has_header("Last-Event-ID") ? req.get_header_value("Last-Event-ID")
                                                             : req.get_param_value("after");
  if (!resume.empty() && !absl::SimpleAtoi(resume, &after)) {
    return SendError(res, absl::InvalidArgumentError("after: a feed position"));
  }
  // Per caller too, so that one token's pages cannot take every place and
  // the chief arbiter's and the floor's pages still get one.
  const std::string caller = visitor->caller.key;
  const std::optional<Role>& role = visitor->caller.role;
  const bool official = !role.has_value() || *role == Role::kArbiter ||
                        *role == Role::kChiefArbiter;  // an open server has no roles to tell apart
  if (absl::Status s = followers.Reserve(caller, official); !s.ok()) {
    res.set_header("Retry-After", absl::StrCat(absl::ToInt64Seconds(kFeedRetryAfter)));
    return SendError(res, s);
  }
  // httplib writes the head (a chunked text/event-stream), then calls the
  // provider, which hands the connection to the followers' loop: the server
  // serves it no further (guarded_server.h).
  auto parked = std::make_shared<bool>(false);
  res.set_header("Cache-Control", "no-store");
  res.set_chunked_content_provider(
      "text/event-stream",
      [this, after, parked, caller](size_t, httplib::DataSink&) {
        *parked = true;
        GuardedServer::HandOver([this, after, caller](std::unique_ptr<Connection> page) {
          followers.Park(std::move(page), after, caller);
        });
        return false;  // httplib writes nothing more
      },
      [this, parked, caller](bool) {
        if (!*parked) followers.Unreserve(caller);
      });
}

void Console::Impl::Slip(const httplib::Request& req, httplib::Response& res) {
  Page(req, res, kRead, [&](const Visitor&) {
    absl::StatusOr<std::string> id = GameOf(req);
    if (!id.ok()) return SendError(res, id.status());
    SlipFacts facts;
    facts.paper = req.get_param_value("paper") == "a4" ? Paper::kA4 : Paper::kA5;
    facts.time = venue_time;
    if (absl::Status s = FillGame(*folds, *id, &facts.game); !s.ok()) return SendError(res, s);
    absl::StatusOr<GameView> view = folds->Get(*id);
    if (!view.ok()) return SendError(res, view.status());
    uint32_t n = 0;
    if (!absl::SimpleAtoi(std::string(req.matches[2]), &n) || n == 0 ||
        n > view->game().rulings().size()) {
      return SendError(res, absl::NotFoundError(absl::StrCat("game '", *id, "' has no ruling ",
                                                             std::string(req.matches[2]))));
    }
    facts.ruling = view->game().rulings()[n - 1];
    if (const uint32_t of = facts.ruling.resolves();
        of >= 1 && of <= view->game().rulings().size()) {
      facts.resolved = view->game().rulings()[of - 1];
    }
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        ledger->log().ReadGame(*id, facts.ruling.event() - 1, 1);
    if (!entries.ok()) return SendError(res, entries.status());
    if (entries->empty()) return SendError(res, absl::InternalError("the ruling's event vanished"));
    absl::StatusOr<v1::RecordedEvent> event = Decode(entries->front());
    if (!event.ok()) return SendError(res, event.status());
    facts.event = *std::move(event);
    absl::StatusOr<v1::Checkpoint> checkpoint = CheckpointCovering(*ledger, facts.event.position());
    if (!checkpoint.ok()) return SendError(res, checkpoint.status());
    facts.checkpoint = *std::move(checkpoint);
    facts.receipt_url = absl::StrCat(http.secure() ? "https://" : "http://",
                                     req.get_header_value("Host"), ReceiptPath(*id, n));
    // The decision that resolved it, and who took it (its event's actor).
    for (const v1::Ruling& later : view->game().rulings()) {
      if (later.resolves() != n) continue;
      absl::StatusOr<std::vector<v1::LedgerEntry>> decided =
          ledger->log().ReadGame(*id, later.event() - 1, 1);
      if (!decided.ok()) return SendError(res, decided.status());
      if (decided->empty()) return SendError(res, absl::InternalError("the decision vanished"));
      absl::StatusOr<v1::RecordedEvent> decision = Decode(decided->front());
      if (!decision.ok()) return SendError(res, decision.status());
      facts.resolution = later;
      facts.resolution_event = decision->event();
    }
    absl::StatusOr<Placements> placements = Place();
    if (!placements.ok()) return SendError(res, placements.status());
    if (auto it = placements->find(*id); it != placements->end()) facts.placement = it->second;
    SendHtml(res, RenderSlip(facts));
  });
}

void Console::Impl::Audit(const httplib::Request& req, httplib::Response& res) {
  Page(req, res, kVerify, [&](const Visitor&) {
    absl::StatusOr<std::string> id = GameOf(req);
    if (!id.ok()) return SendError(res, id.status());
    AuditFacts facts;
    if (absl::Status s = FillGame(*folds, *id, &facts.game); !s.ok()) return SendError(res, s);
    absl::StatusOr<v1::VerifyGameResponse> verified = VerifyGame(*ledger, *folds, *id);
    if (!verified.ok()) return SendError(res, verified.status());
    facts.verified = *std::move(verified);
    absl::StatusOr<v1::GameRecord> record = ReadRecord(*ledger, *folds, *id);
    if (!record.ok()) return SendError(res, record.status());
    for (const v1::RecordedEvent& e : record->events()) {
      if (e.position() > facts.verified.signed_size()) ++facts.unsigned_events;
    }
    SendHtml(res, RenderAudit(facts));
  });
}

namespace {

// Too many sign-ins: 429, as a page (a form posted here) saying when to
// try again.
void Busy(httplib::Response& res, absl::Duration wait) {
  const int64_t seconds = absl::ToInt64Seconds(absl::Ceil(wait, absl::Seconds(1)));
  res.status = 429;
  res.set_header("Retry-After", absl::StrCat(seconds));
  SendHtml(res, absl::StrCat("<!doctype html><meta charset=\"utf-8\"><title>429</title><p>",
                             "登录尝试过多，请 ", seconds,
                             " 秒后再试。 Too many sign-ins: try again in ", seconds,
                             " s.</p><p><a href=\"/login\">/login</a></p>\n"));
}

}  // namespace

// Login CSRF: a form on another site could sign this browser in with the
// attacker's token, and the decisions taken then would be recorded under
// the attacker's name. A browser says which page a POST comes from in
// Origin (Referer when it sends no Origin); a script or a CLI sends
// neither and comes from no page, so it is let through (OWASP's CSRF
// guidance). "Origin: null" (a sandboxed or opaque page) is refused.
absl::Status Console::Impl::CheckSignInOrigin(const httplib::Request& req) const {
  const bool has_origin = req.has_header("Origin");
  if (!has_origin && !req.has_header("Referer")) return absl::OkStatus();
  const std::string header = has_origin ? "Origin" : "Referer";
  const std::string from = req.get_header_value(header.c_str());
  const HostRule hosts{http.host_names(), req.local_addr, IsLoopbackIp(req.local_addr)};
  if (IsOwnOrigin(from, http.secure() ? "https" : "http", req.local_port, hosts)) {
    return absl::OkStatus();
  }
  return absl::PermissionDeniedError(absl::StrCat("a sign-in from another site is refused (",
                                                  header, ": ", from.substr(0, 200),
                                                  "): sign in on this console's own page, /login"));
}

void Console::Impl::Login(const httplib::Request& req, httplib::Response& res) {
  absl::StatusOr<bool> secured = tokens->Any();
  if (!secured.ok()) return SendError(res, secured.status());
  if (!*secured) return res.set_redirect("/", 303);
  // A token in the URL ends up in logs and history: only the form's body.
  if (req.target.find('?') != std::string::npos) {
    return SendError(res, absl::InvalidArgumentError(
                              "sign in with the token in the form's body, never in the URL"));
  }
  if (absl::Status s = CheckSignInOrigin(req); !s.ok()) return SendError(res, s);
  if (absl::Duration wait = logins.TakeAddress(req.remote_addr, absl::Now());
      wait > absl::ZeroDuration()) {
    return Busy(res, wait);
  }
  httplib::Params form;
  if (req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0) {
    httplib::detail::parse_query_text(req.body, form);
  }
  auto field = form.find("token");
  const std::string secret = field == form.end() ? "" : field->second;
  // The page the visitor asked for before being sent here (SignInPath).
  auto next_field = form.find("next");
  const std::string next = AfterSignIn(next_field == form.end() ? "" : next_field->second);
  absl::StatusOr<TokenInfo> token = tokens->Verify(secret);
  if (!token.ok()) {
    return res.set_redirect(
        next == "/" ? "/login?failed=1" : absl::StrCat("/login?failed=1&next=", QueryValue(next)),
        303);
  }
  if (absl::Duration wait = logins.TakeToken(token->id, absl::Now()); wait > absl::ZeroDuration()) {
    return Busy(res, wait);
  }
  absl::StatusOr<Session> session = sessions.Open(token->id);
  if (!session.ok()) return SendError(res, session.status());
  res.set_header("Set-Cookie", SessionCookieHeader(session->id, http.secure()));
  res.set_redirect(next, 303);
}

// The headers every answer carries, so that no page can be framed, sniffed
// or cached, whichever handler answered it.
void Console::Impl::SetGuardHeaders() {
  http.set_default_headers({
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      // No URL of the console leaves it; within it, a form's POST carries
      // its true Origin (under "no-referrer" it is "null", which the
      // sign-in's origin check refuses).
      {"Referrer-Policy", "same-origin"},
      {"X-Frame-Options", "DENY"},
  });
  // Whatever is not one of the embedded pages' files carries ledger data, or
  // a session: never kept by a browser or a proxy. Over TLS, HSTS.
  http.set_post_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (req.path.rfind("/static/", 0) != 0 && !res.has_header("Cache-Control")) {
      res.set_header("Cache-Control", "no-store");
    }
    if (http.secure()) res.set_header("Strict-Transport-Security", kStrictTransportSecurity);
  });
}

// The pages a browser opens, and the files they are made of.
void Console::Impl::RoutePages() {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  http.Get("/", [this](Req req, Res res) {
    Page(req, res, kRead, [&](const Visitor&) { SendHall(req, res); });
  });
  // A game that is not there is said so (error_page.h), not a blank page.
  http.Get(R"(/games/([^/]+))", [this](Req req, Res res) {
    Page(req, res, kRead, [&](const Visitor&) {
      absl::StatusOr<std::string> id = GameOf(req);
      if (!id.ok()) return SendError(res, id.status());
      if (absl::StatusOr<GameView> game = folds->Get(*id); !game.ok()) {
        return SendError(res, game.status());
      }
      SendAsset(res, "game.html");
    });
  });
  http.Get(R"(/games/([^/]+)/rulings/([0-9]+)/slip)", [this](Req q, Res s) { Slip(q, s); });
  http.Get(R"(/games/([^/]+)/audit)", [this](Req q, Res s) { Audit(q, s); });
  http.Get(R"(/tournaments/([^/]+))", [this](Req q, Res s) { Tournament(q, s); });
  // The chief arbiter's (ListWebhooks' access): what failed for good.
  http.Get("/webhooks", [this](Req req, Res res) {
    Page(req, res, kListWebhooks, [&](const Visitor&) {
      if (!webhooks) return SendError(res, absl::NotFoundError("this server sends no webhooks"));
      absl::StatusOr<v1::ListWebhooksResponse> list = webhooks();
      if (!list.ok()) return SendError(res, list.status());
      SendHtml(res, RenderWebhooks(*list, venue_time));
    });
  });
  http.Get(R"(/games/([^/]+)/bundle)", [this](Req req, Res res) {
    Page(req, res, kExport, [&](const Visitor&) {
      absl::StatusOr<std::string> id = GameOf(req);
      if (!id.ok()) return SendError(res, id.status());
      const GameExportFormat& f = *FindGameExport(v1::ExportGameRequest::BUNDLE);
      absl::StatusOr<std::string> bundle = f.write(*ledger, *folds, *id);
      if (!bundle.ok()) return SendError(res, bundle.status());
      res.set_header("Content-Disposition",
                     absl::StrCat("attachment; filename=\"", *id, f.extension, "\""));
      res.set_content(*std::move(bundle), std::string(f.content_type));
    });
  });
  http.Get(R"(/static/([a-z0-9-]+\.(css|js|json|html|svg)))",
           [](Req req, Res res) { SendAsset(res, std::string(req.matches[1])); });
  http.Get("/login", [](Req, Res res) { SendAsset(res, "login.html"); });
}

// Signing in and out, and what a page learns of its session.
void Console::Impl::RouteSession() {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  http.Post("/login", [this](Req q, Res s) { Login(q, s); });
  http.Post("/logout", [this](Req req, Res res) {
    absl::StatusOr<Visitor> visitor = AdmitWrite(req, res, kRead);
    if (!visitor.ok() && !absl::IsUnauthenticated(visitor.status())) {
      return SendError(res, visitor.status());
    }
    if (visitor.ok()) {
      if (absl::Status s = sessions.Close(visitor->session.id); !s.ok()) return SendError(res, s);
    }
    res.set_header("Set-Cookie", ClearedCookieHeader(http.secure()));
    res.status = 204;
  });
  http.Get("/api/session", [this](Req req, Res res) {
    absl::StatusOr<Visitor> visitor = Admit(req, res, kRead);
    if (!visitor.ok()) return SendError(res, visitor.status());
    const Caller& c = visitor->caller;
    SendJson(res,
             absl::StrCat("{\"secured\":", c.role.has_value() ? "true" : "false", ",\"role\":\"",
                          c.role.has_value() ? RoleName(*c.role) : "",
                          "\",\"actor\":", JsonString(c.actor), ",\"csrf\":\"",
                          visitor->session.csrf, "\",\"timeZone\":", JsonString(venue_time.name()),
                          ",\"timeZoneGiven\":", venue_time.given() ? "true" : "false", "}"));
  });
}

// The JSON the pages read and the forms they post.
void Console::Impl::RouteApi() {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  http.Get("/api/games", [this](Req q, Res s) { Hall(q, s); });
  http.Get(R"(/api/games/([^/]+))", [this](Req q, Res s) { Game(q, s); });
  http.Post(R"(/api/games/([^/]+)/rulings/([0-9]+)/decide)",
            [this](Req q, Res s) { Decide(q, s); });
  http.Get("/api/feed", [this](Req q, Res s) { Feed(q, s); });
  http.Post(kStartRoundPath, [this](Req req, Res res) {
    absl::StatusOr<Visitor> visitor = AdmitWrite(req, res, kStartRoundMethod);
    if (!visitor.ok()) return SendError(res, visitor.status());
    StartRound(tournaments != nullptr ? tournaments->service.get() : nullptr, visitor->caller, req,
               res);
  });
}

void Console::Impl::Routes() {
  SetGuardHeaders();
  ServeErrorPages(http);
  RoutePages();
  RouteSession();
  RouteApi();
  // Then those of the console's parts, each in its own file.
  floor->Route(http);
  tiles->Route(http);
  if (broadcast_pages != nullptr) broadcast_pages->Route(http);
  if (witness != nullptr) RouteWitness(http, witness);
  RouteReceipts(http, ledger, folds, cosignatures);
}

Console::Console(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Console::~Console() { Stop(); }

const std::string& Console::address() const { return impl_->address; }

absl::StatusOr<std::unique_ptr<Console>> Console::Serve(const std::string& listen,
                                                        ConsoleParts parts,
                                                        ConsoleOptions options) {
  if (options.feeds.in_all < 1 || options.feeds.per_caller < 1 || options.connections < 1 ||
      (options.broadcast && options.viewers < 1)) {
    return absl::InvalidArgumentError(
        "the console's caps: at least one connection, page and viewer, in all and per caller");
  }
  // Made first, so that a refusal below stops what the parts started, as
  // the destructor does.
  std::unique_ptr<Console> console(new Console(std::make_unique<Impl>(parts, std::move(options))));
  Impl& p = *console->impl_;
  ledger::Ledger* ledger = parts.ledger;
  TokenStore* tokens = parts.tokens;
  p.tiles = std::make_unique<TlogTiles>(ledger);
  if (p.broadcast_options.on) {
    absl::StatusOr<std::unique_ptr<Broadcast>> broadcast =
        Broadcast::Open(ledger, Broadcast::Options{.delay = p.broadcast_options.delay,
                                                   // Its releases take turns on the console's loop.
                                                   .host = &p.http});
    if (!broadcast.ok()) return broadcast.status();
    p.broadcast = *std::move(broadcast);
    p.broadcast_pages = std::make_unique<BroadcastPages>(p.broadcast.get(), parts.tournaments,
                                                         p.broadcast_options.viewers,
                                                         p.broadcast_options.trusted_proxies);
  }
  p.floor = std::make_unique<FloorPages>(
      p.recorder,
      [&p](const httplib::Request& req, httplib::Response& res, absl::string_view method,
           bool write) -> absl::StatusOr<Caller> {
        absl::StatusOr<Impl::Visitor> v =
            write ? p.AdmitWrite(req, res, method) : p.Admit(req, res, method);
        if (!v.ok()) return v.status();
        return std::move(v->caller);
      });
  absl::StatusOr<bool> secured = tokens->Any();
  if (!secured.ok()) return secured.status();
  if (!*secured && !IsLoopback(listen)) {
    return absl::FailedPreconditionError(
        absl::StrCat("no tokens: the console runs open, so only on loopback; create one with "
                     "`arbiter token create` before serving it on ",
                     listen));
  }
  if (!p.http.secure() && !p.insecure && !IsLoopback(listen)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "--http ", listen,
        ": plain HTTP beyond loopback would carry tokens and session cookies in clear; give "
        "--tls-cert and --tls-key (the console then serves HTTPS), or --http-insecure"));
  }
  const size_t colon = listen.rfind(':');
  int port = -1;
  if (colon == std::string::npos || !absl::SimpleAtoi(listen.substr(colon + 1), &port) ||
      port < 0 || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("--http: HOST:PORT, not '", listen, "'"));
  }
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  p.Routes();
  // cpp-httplib sets SO_REUSEPORT, with which a second server bound the
  // same port and took a share of the requests: SO_REUSEADDR only, so a
  // port in use is refused and a restart still binds at once.
  p.http.set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  const int bound =
      port == 0 ? p.http.bind_to_any_port(host) : (p.http.bind_to_port(host, port) ? port : -1);
  if (bound <= 0) return CannotListen("--http", listen);
  p.http.WidenBacklog();
  p.address = absl::StrCat(listen.substr(0, colon), ":", bound);
  RaiseOpenFileLimit();  // each page and viewer holds a socket
  p.thread = std::thread([&p] {
    NameThisThread("console");
    p.http.Listen();
  });
  p.http.AwaitRunning();
  return console;
}

void Console::Stop() {
  Impl& p = *impl_;
  if (p.stopped) return;
  p.stopped = true;
  p.feed.Stop();
  p.followers.Stop();  // every following page's stream ends
  if (p.broadcast_pages != nullptr) p.broadcast_pages->Stop();
  if (p.broadcast != nullptr) p.broadcast->Stop();
  p.http.Stop();
  if (p.thread.joinable()) p.thread.join();
}

}  // namespace arbiter::service::console
