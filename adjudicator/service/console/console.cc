#include "adjudicator/service/console/console.h"

#include <atomic>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "adjudicator/service/auth_tls.h"
#include "adjudicator/service/console/assets.h"
#include "adjudicator/service/console/floor.h"
#include "adjudicator/service/console/http_status.h"
#include "adjudicator/service/console/json.h"
#include "adjudicator/service/console/live_feed.h"
#include "adjudicator/service/console/sessions.h"
#include "adjudicator/service/console/slip.h"
#include "adjudicator/service/game_reads.h"
#include "adjudicator/service/recorder.h"
#include "httplib.h"
#include "proto/names/resource_name.h"

namespace arbiter::service::console {
namespace {

// The gRPC methods whose access each kind of request needs.
constexpr absl::string_view kRead = "/arbiter.v1.Arbiter/GetGame";
constexpr absl::string_view kDecide = "/arbiter.v1.Arbiter/Decide";
constexpr absl::string_view kVerify = "/arbiter.v1.Arbiter/VerifyGame";
constexpr absl::string_view kExport = "/arbiter.v1.Arbiter/ExportGame";
constexpr absl::string_view kWatch = "/arbiter.v1.Arbiter/WatchAll";

// How long a page's feed waits before a keep-alive comment, which is also
// how soon a closed page frees its thread.
constexpr absl::Duration kKeepAlive = absl::Seconds(10);

void SendAsset(httplib::Response& res, absl::string_view name) {
  const Asset* asset = FindAsset(name);
  if (asset == nullptr) {
    SendError(res, absl::NotFoundError(absl::StrCat("no file ", name)));
    return;
  }
  res.set_content(asset->body.data(), asset->body.size(), std::string(ContentTypeOf(name)).c_str());
}

// The game id in the path, checked as the gRPC names are.
absl::StatusOr<std::string> GameOf(const httplib::Request& req) {
  std::string id = req.matches[1];
  if (absl::Status s = CheckId("game", id); !s.ok()) return s;
  return id;
}

}  // namespace

struct Console::Impl {
  explicit Impl(GameFolds* f) : folds(f), feed(f) {}

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
  void Hall(const httplib::Request& req, httplib::Response& res);
  void Game(const httplib::Request& req, httplib::Response& res);
  void Decide(const httplib::Request& req, httplib::Response& res);
  void Feed(const httplib::Request& req, httplib::Response& res);
  void Slip(const httplib::Request& req, httplib::Response& res);
  void Audit(const httplib::Request& req, httplib::Response& res);
  void Login(const httplib::Request& req, httplib::Response& res);

  GameFolds* folds;
  LiveFeed feed;
  ledger::Ledger* ledger = nullptr;
  TokenStore* tokens = nullptr;
  Gatekeeper* gate = nullptr;
  std::unique_ptr<Recorder> recorder;
  std::unique_ptr<FloorPages> floor;  // /tables (floor.h)
  Sessions sessions;
  httplib::Server http;
  std::thread thread;
  std::string address;
  std::atomic<int> followers{0};
  bool stopped = false;
};

absl::StatusOr<Console::Impl::Visitor> Console::Impl::Admit(const httplib::Request& req,
                                                            httplib::Response& res,
                                                            absl::string_view method) {
  absl::StatusOr<bool> secured = tokens->Any();
  if (!secured.ok()) return secured.status();
  std::optional<Session> session;
  if (std::optional<std::string> id = CookieValue(req.get_header_value("Cookie"), kSessionCookie)) {
    session = sessions.Find(*id);
  }
  if (*secured && (!session.has_value() || !session->secret.has_value())) {
    return absl::UnauthenticatedError("sign in with a token first (/login)");
  }
  if (!session.has_value()) {
    absl::StatusOr<Session> opened = sessions.Open(std::nullopt);
    if (!opened.ok()) return opened.status();
    session = *std::move(opened);
    res.set_header("Set-Cookie", SessionCookieHeader(session->id));
  }
  std::optional<std::string> authorization;
  if (*secured) authorization = absl::StrCat("Bearer ", *session->secret);
  absl::StatusOr<Caller> caller = gate->Admit(
      method, authorization, absl::StrCat("ipv4:", req.remote_addr, ":", req.remote_port));
  if (!caller.ok()) return caller.status();
  return Visitor{*std::move(session), *std::move(caller)};
}

absl::StatusOr<Console::Impl::Visitor> Console::Impl::AdmitWrite(const httplib::Request& req,
                                                                 httplib::Response& res,
                                                                 absl::string_view method) {
  std::optional<Session> session;
  if (std::optional<std::string> id = CookieValue(req.get_header_value("Cookie"), kSessionCookie)) {
    session = sessions.Find(*id);
  }
  const std::string csrf = req.get_header_value("X-CSRF-Token");
  if (!session.has_value() || csrf.empty() || !SameSecret(csrf, session->csrf)) {
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
    res.set_redirect("/login", 303);
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
    absl::StatusOr<std::vector<ledger::GameListing>> page = ledger->ListGames(after, 1000);
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
  SendJson(res,
           absl::StrCat("{\"feed\":\"", head, "\",\"games\":[", absl::StrJoin(games, ","), "]}"));
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
  // What the gRPC interceptor checks for an ARBITER's record calls.
  if (absl::Status s = visitor->caller.MayRecordIn(*id); !s.ok()) return SendError(res, s);
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
  if (followers.fetch_add(1) >= kMaxFollowers) {
    followers.fetch_sub(1);
    return SendError(res, absl::UnavailableError(absl::StrCat(
                              "at most ", kMaxFollowers, " pages follow the live feed at once")));
  }
  struct State {
    uint64_t cursor;
    bool greeted = false;
  };
  auto state = std::make_shared<State>(State{after});
  res.set_header("Cache-Control", "no-store");
  res.set_chunked_content_provider(
      "text/event-stream",
      [this, state](size_t, httplib::DataSink& sink) {
        if (!state->greeted) {
          state->greeted = true;
          constexpr absl::string_view kHello = "retry: 1000\n: following\n\n";
          return sink.write(kHello.data(), kHello.size());
        }
        LiveFeed::Batch batch = feed.Next(state->cursor, kKeepAlive);
        if (batch.closed) {
          sink.done();
          return true;
        }
        state->cursor = batch.next;
        const std::string text = batch.text.empty() ? ": keep-alive\n\n" : batch.text;
        return sink.write(text.data(), text.size());
      },
      [this](bool) { followers.fetch_sub(1); });
}

void Console::Impl::Slip(const httplib::Request& req, httplib::Response& res) {
  Page(req, res, kRead, [&](const Visitor&) {
    absl::StatusOr<std::string> id = GameOf(req);
    if (!id.ok()) return SendError(res, id.status());
    SlipFacts facts;
    facts.paper = req.get_param_value("paper") == "a4" ? Paper::kA4 : Paper::kA5;
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
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        ledger->ReadGame(*id, facts.ruling.event() - 1, 1);
    if (!entries.ok()) return SendError(res, entries.status());
    if (entries->empty()) return SendError(res, absl::InternalError("the ruling's event vanished"));
    absl::StatusOr<v1::RecordedEvent> event = Decode(entries->front());
    if (!event.ok()) return SendError(res, event.status());
    facts.event = *std::move(event);
    absl::StatusOr<v1::Checkpoint> checkpoint = CheckpointCovering(*ledger, facts.event.position());
    if (!checkpoint.ok()) return SendError(res, checkpoint.status());
    facts.checkpoint = *std::move(checkpoint);
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

void Console::Impl::Login(const httplib::Request& req, httplib::Response& res) {
  absl::StatusOr<bool> secured = tokens->Any();
  if (!secured.ok()) return SendError(res, secured.status());
  if (!*secured) return res.set_redirect("/", 303);
  const std::string secret = req.get_param_value("token");
  if (!tokens->Verify(secret).ok()) return res.set_redirect("/login?failed=1", 303);
  absl::StatusOr<Session> session = sessions.Open(secret);
  if (!session.ok()) return SendError(res, session.status());
  res.set_header("Set-Cookie", SessionCookieHeader(session->id));
  res.set_redirect("/", 303);
}

void Console::Impl::Routes() {
  http.set_default_headers({
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"X-Frame-Options", "DENY"},
  });
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  http.Get("/", [this](Req req, Res res) {
    Page(req, res, kRead, [&](const Visitor&) { SendAsset(res, "hall.html"); });
  });
  http.Get(R"(/games/([^/]+))", [this](Req req, Res res) {
    Page(req, res, kRead, [&](const Visitor&) { SendAsset(res, "game.html"); });
  });
  http.Get(R"(/games/([^/]+)/rulings/([0-9]+)/slip)", [this](Req q, Res s) { Slip(q, s); });
  http.Get(R"(/games/([^/]+)/audit)", [this](Req q, Res s) { Audit(q, s); });
  http.Get(R"(/games/([^/]+)/bundle)", [this](Req req, Res res) {
    Page(req, res, kExport, [&](const Visitor&) {
      absl::StatusOr<std::string> id = GameOf(req);
      if (!id.ok()) return SendError(res, id.status());
      absl::StatusOr<v1::AuditBundle> bundle = ledger->ExportBundle(*id);
      if (!bundle.ok()) return SendError(res, bundle.status());
      res.set_header("Content-Disposition",
                     absl::StrCat("attachment; filename=\"", *id, ".bundle\""));
      res.set_content(bundle->SerializeAsString(),
                      "application/x-protobuf; messageType=arbiter.v1.AuditBundle");
    });
  });
  http.Get(R"(/static/([a-z0-9-]+\.(css|js|html|svg)))",
           [](Req req, Res res) { SendAsset(res, std::string(req.matches[1])); });
  http.Get("/login", [](Req, Res res) { SendAsset(res, "login.html"); });
  http.Post("/login", [this](Req q, Res s) { Login(q, s); });
  http.Post("/logout", [this](Req req, Res res) {
    absl::StatusOr<Visitor> visitor = AdmitWrite(req, res, kRead);
    if (!visitor.ok() && !absl::IsUnauthenticated(visitor.status())) {
      return SendError(res, visitor.status());
    }
    if (visitor.ok()) sessions.Close(visitor->session.id);
    res.set_header("Set-Cookie", ClearedCookieHeader());
    res.status = 204;
  });
  http.Get("/api/session", [this](Req req, Res res) {
    absl::StatusOr<Visitor> visitor = Admit(req, res, kRead);
    if (!visitor.ok()) return SendError(res, visitor.status());
    const Caller& c = visitor->caller;
    SendJson(res, absl::StrCat("{\"secured\":", c.role.has_value() ? "true" : "false",
                               ",\"role\":\"", c.role.has_value() ? RoleName(*c.role) : "",
                               "\",\"actor\":", JsonString(c.actor), ",\"csrf\":\"",
                               visitor->session.csrf, "\"}"));
  });
  http.Get("/api/games", [this](Req q, Res s) { Hall(q, s); });
  http.Get(R"(/api/games/([^/]+))", [this](Req q, Res s) { Game(q, s); });
  http.Post(R"(/api/games/([^/]+)/rulings/([0-9]+)/decide)",
            [this](Req q, Res s) { Decide(q, s); });
  http.Get("/api/feed", [this](Req q, Res s) { Feed(q, s); });
  floor->Route(http);
}

Console::Console(GameFolds* folds) : impl_(std::make_unique<Impl>(folds)) {
  folds->OnCommitted([feed = &impl_->feed](const std::vector<GameView>& g) { feed->Committed(g); });
}

Console::~Console() { Stop(); }

const std::string& Console::address() const { return impl_->address; }

absl::Status Console::Serve(const std::string& listen, ledger::Ledger* ledger, TokenStore* tokens,
                            Gatekeeper* gate, VenueGames* venue_games) {
  Impl& p = *impl_;
  p.ledger = ledger;
  p.tokens = tokens;
  p.gate = gate;
  p.recorder = std::make_unique<Recorder>(ledger, p.folds);
  p.recorder->set_venue_games(venue_games);
  p.floor = std::make_unique<FloorPages>(
      p.recorder.get(),
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
  // Each page following the feed holds a thread; leave room for requests.
  p.http.new_task_queue = [] { return new httplib::ThreadPool(kMaxFollowers + 16); };
  p.http.set_keep_alive_max_count(1000);
  p.Routes();
  const int bound =
      port == 0 ? p.http.bind_to_any_port(host) : (p.http.bind_to_port(host, port) ? port : -1);
  if (bound <= 0) return absl::UnavailableError(absl::StrCat("cannot listen on ", listen));
  p.address = absl::StrCat(listen.substr(0, colon), ":", bound);
  p.feed.Start();
  p.thread = std::thread([&p] { p.http.listen_after_bind(); });
  // Stop() ends the accept loop only once it runs: wait for it.
  const absl::Time give_up = absl::Now() + absl::Seconds(5);
  while (!p.http.is_running() && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(1));
  return absl::OkStatus();
}

void Console::Stop() {
  Impl& p = *impl_;
  if (p.stopped) return;
  p.stopped = true;
  p.feed.Stop();  // the pages' feeds end, freeing their threads
  p.http.stop();
  if (p.thread.joinable()) p.thread.join();
}

}  // namespace arbiter::service::console
