#include "adjudicator/service/console/slip.h"

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/auth_role.h"
#include "adjudicator/service/console/html.h"
#include "adjudicator/service/console/qr_svg.h"
#include "adjudicator/service/console/words.h"

namespace arbiter::service::console {
namespace {

// In the venue's time, its offset said (venue_time.h).
std::string When(const SlipFacts& f, const google::protobuf::Timestamp& t) {
  return f.time.Format(FromProto(t));
}

// A row of the slip's table: label in both languages, value as HTML.
std::string Row(absl::string_view zh, absl::string_view en, absl::string_view value_html) {
  return absl::StrCat("<tr><th><span lang=\"zh\">", zh, "</span> <span lang=\"en\">", en,
                      "</span></th><td>", value_html, "</td></tr>\n");
}

// Chinese above English, each marked with its language: a printed slip keeps
// both, one under the other.
std::string Stacked(absl::string_view zh, absl::string_view en) {
  return absl::StrCat("<span lang=\"zh\">", Escape(zh), "</span><br><span lang=\"en\">", Escape(en),
                      "</span>");
}

// "Zhao Min, 6d"
std::string Named(const v1::Player& p) {
  return p.rank().empty() ? p.name() : absl::StrCat(p.name(), ", ", p.rank());
}

// The player (or both) the ruling is against: 白方 Zhao Min, 6d.
std::string Against(const v1::Ruling& r, const v1::GameCreated& g) {
  const std::string party = v1::Ruling::Party_Name(r.against());
  if (r.against() == v1::Ruling::BLACK || r.against() == v1::Ruling::WHITE) {
    const std::string name = Named(r.against() == v1::Ruling::BLACK ? g.black() : g.white());
    return absl::StrCat("<span class=\"player\">",
                        Stacked(absl::StrCat(SideWord(party, Lang::kZh), " ", name),
                                absl::StrCat(SideWord(party, Lang::kEn), ": ", name)),
                        "</span>");
  }
  if (r.against() == v1::Ruling::BOTH) return Stacked("双方", "both players");
  return "—";
}

std::string Sanctions(const v1::Ruling& r) {
  if (r.sanctions().empty()) return Stacked("无处罚", "no sanction");
  std::string zh = SanctionWords(r, Lang::kZh), en = SanctionWords(r, Lang::kEn);
  if (r.warnings() > 0) {
    absl::StrAppend(&zh, "（累计警告", r.warnings(), "次）");
    absl::StrAppend(&en, " (", r.warnings(), r.warnings() == 1 ? " warning" : " warnings",
                    " in this game)");
  }
  return Stacked(zh, en);
}

std::string OptionTitle(const v1::Ruling& r, absl::string_view id, Lang lang) {
  for (const v1::RulingOption& o : r.options()) {
    if (o.id() == id) return lang == Lang::kZh ? o.title_zh() : o.title_en();
  }
  return std::string(id);
}

// The option a decision chose, in words: its title among the pending
// ruling's options, else the sanctions the decision brought, never the
// option's id (WARNING is a code name, not what a player reads).
std::string Chosen(const v1::Ruling& pending, const v1::Ruling& decision, Lang lang) {
  for (const v1::RulingOption& o : pending.options()) {
    if (o.id() == decision.choice()) return lang == Lang::kZh ? o.title_zh() : o.title_en();
  }
  if (!decision.sanctions().empty()) return SanctionWords(decision, lang);
  return EnumWord(decision.choice(), lang);
}

// The role an event was recorded under, as an Authority name: the
// authority the service stamped, else the role its actor names (an event
// from before Event.authority); "" when neither (an open server's).
std::string RoleOf(const v1::Event& e, const RecordedActor& actor) {
  if (e.authority() != v1::AUTHORITY_UNSPECIFIED) return v1::Authority_Name(e.authority());
  if (actor.role == Role::kArbiter || actor.role == Role::kChiefArbiter) {
    return std::string(RoleName(*actor.role));
  }
  return "";
}

// Who took a decision, inside a sentence: "裁判长 Li Wei", "the chief
// arbiter Li Wei"; the stamped actor's role code and token stay off the
// slip's text (the token's id is in its foot, TokenLine).
std::string Decider(const v1::Event& e, Lang lang) {
  if (e.actor().empty()) return lang == Lang::kZh ? "裁判员（未登录）" : "an arbiter (open server)";
  const RecordedActor actor = ParseActor(e.actor());
  const std::string role = RoleOf(e, actor);
  if (role.empty()) return WhoWord(actor.name, lang);
  return absl::StrCat(EnumWord(role, lang), " ", actor.name);
}

// Who recorded an event, as a label: "裁判长 Chief arbiter Li Wei", as HTML.
std::string Recorder(const v1::Event& e) {
  const RecordedActor actor = ParseActor(e.actor());
  const std::string role = RoleOf(e, actor);
  // An actor that is no person (server:clock) is named by its words alone;
  // a name with no role (an open server's, an imported file's) as it is.
  const std::string label = role.empty() ? actor.name : role;
  const std::string zh = WhoWord(label, Lang::kZh);
  if (zh == label) return Escape(actor.name);
  std::string out = absl::StrCat("<span lang=\"zh\">", Escape(zh), "</span> <span lang=\"en\">",
                                 Escape(WhoWord(label, Lang::kEn)), "</span>");
  if (!role.empty()) absl::StrAppend(&out, " ", Escape(actor.name));
  return out;
}

// The foot's audit line names the tokens the event and the decision were
// recorded under (their short ids), which the text above does not.
std::string TokenLine(const SlipFacts& f) {
  std::string out;
  const std::string event = ParseActor(f.event.event().actor()).token_id;
  if (!event.empty()) {
    absl::StrAppend(&out, "; recorded under token <code>", Escape(event), "</code>");
  }
  if (f.resolution.has_value()) {
    const std::string decided = ParseActor(f.resolution_event.actor()).token_id;
    if (!decided.empty()) {
      absl::StrAppend(&out, "; decided under token <code>", Escape(decided), "</code>");
    }
  }
  return out;
}

std::string Decision(const SlipFacts& f) {
  const v1::Ruling& r = f.ruling;
  if (f.resolution.has_value()) {
    const v1::Ruling& d = *f.resolution;
    const std::string at = When(f, d.at());
    std::string out = Stacked(absl::StrCat("已裁定：", Chosen(r, d, Lang::kZh), "；",
                                           Decider(f.resolution_event, Lang::kZh), " 裁定，", at),
                              absl::StrCat("Decided: ", Chosen(r, d, Lang::kEn), ", by ",
                                           Decider(f.resolution_event, Lang::kEn), ", ", at));
    if (!d.note().empty()) absl::StrAppend(&out, "<br>", Escape(d.note()));
    return out;
  }
  if (r.pending()) {
    std::vector<std::string> zh, en;
    for (const v1::RulingOption& o : r.options()) {
      zh.push_back(o.title_zh());
      en.push_back(o.title_en());
    }
    return Stacked(
        absl::StrCat("待定。可裁定者：", EnumWord(v1::Authority_Name(r.decided_by()), Lang::kZh),
                     "。选项：", absl::StrJoin(zh, "、")),
        absl::StrCat(
            "Pending. May decide: ", EnumWord(v1::Authority_Name(r.decided_by()), Lang::kEn),
            ". Options: ", absl::StrJoin(en, "; ")));
  }
  std::string out;
  if (r.resolves() != 0) {
    const v1::Ruling& of = f.resolved.has_value() ? *f.resolved : r;
    out = Stacked(
        absl::StrCat("对第", r.resolves(), "号裁定的裁决：", Chosen(of, r, Lang::kZh), "；",
                     Decider(f.event.event(), Lang::kZh), " 裁定"),
        absl::StrCat("The decision on ruling #", r.resolves(), ": ", Chosen(of, r, Lang::kEn),
                     ", by ", Decider(f.event.event(), Lang::kEn)));
  } else {
    out = Stacked("依规则直接适用", "Applied as the rules direct");
  }
  if (!r.note().empty()) absl::StrAppend(&out, "<br>", Escape(r.note()));
  return out;
}

// The event in words; a decision names the option chosen by its title.
std::string EventIn(const SlipFacts& f, Lang lang) {
  v1::Event e = f.event.event();
  if (e.has_arbiter_decision() && f.resolved.has_value()) {
    e.mutable_arbiter_decision()->set_choice(
        OptionTitle(*f.resolved, e.arbiter_decision().choice(), lang));
  }
  return EventWords(e, lang);
}

// Tournament, round, table and venue, as far as they are known.
std::string Where(const SlipFacts& f) {
  std::vector<std::string> parts;
  const uint32_t table = f.game.created().table() != 0
                             ? f.game.created().table()
                             : (f.placement.has_value() ? f.placement->board : 0);
  if (f.placement.has_value()) {
    parts.push_back(
        absl::StrCat("<span class=\"tournament\">", Escape(f.placement->title), "</span>"));
    parts.push_back(absl::StrCat("<span lang=\"zh\">第", f.placement->round,
                                 "轮</span> <span lang=\"en\">Round ", f.placement->round,
                                 "</span>"));
  }
  if (table != 0) {
    parts.push_back(absl::StrCat("<span lang=\"zh\">第", table,
                                 "台</span> <span lang=\"en\">Table ", table, "</span>"));
  }
  if (f.placement.has_value() && !f.placement->location.empty()) {
    parts.push_back(absl::StrCat("<span lang=\"zh\">地点</span> <span lang=\"en\">Venue</span> ",
                                 Escape(f.placement->location)));
  }
  return absl::StrJoin(parts, " · ");
}

}  // namespace

std::string VerificationLine(const SlipFacts& f) {
  return absl::StrCat("arbiter verify ", f.game.game_id(), " ruling ", f.ruling.number(),
                      " position ", f.event.position(), " root ",
                      absl::BytesToHexString(f.checkpoint.root_hash()), " size ",
                      f.checkpoint.tree_size());
}

std::string RenderSlip(const SlipFacts& f) {
  const v1::Ruling& r = f.ruling;
  const v1::GameCreated& g = f.game.created();
  std::string clause = Escape(r.clause());
  if (!r.also_cites().empty()) {
    absl::StrAppend(&clause, " (also ", Escape(absl::StrJoin(r.also_cites(), ", ")), ")");
  }
  const v1::Event& e = f.event.event();
  const std::string line = VerificationLine(f);
  absl::StatusOr<std::string> qr = QrSvg(f.receipt_url.empty() ? line : f.receipt_url);
  std::string body = absl::StrCat(
      "<article class=\"slip\">\n<h1><span lang=\"zh\">裁判裁定书</span> "
      "<span lang=\"en\">Ruling slip</span> #",
      r.number(), "</h1>\n<p class=\"where\">", Where(f), "</p>\n<table>\n",
      Row("时间", "Time", Escape(When(f, r.at()))), Row("对局", "Game", Escape(f.game.game_id())),
      Row("黑方", "Black",
          absl::StrCat("<span class=\"player\">", Escape(Named(g.black())), "</span>")),
      Row("白方", "White",
          absl::StrCat("<span class=\"player\">", Escape(Named(g.white())), "</span>")),
      Row("事件", "Event",
          absl::StrCat(Stacked(EventIn(f, Lang::kZh), EventIn(f, Lang::kEn)),
                       " <span class=\"muted\">(", Escape(When(f, e.at())),
                       e.actor().empty() ? "" : absl::StrCat(" — ", Recorder(e)), ")</span>")),
      Row("处罚对象", "Against", Against(r, g)), Row("条款", "Clause", clause),
      Row("条文", "Text",
          absl::StrCat("<p lang=\"zh\" class=\"clause-zh\">", Escape(r.text_zh()),
                       "</p><p lang=\"en\">", Escape(r.text_en()), "</p>")),
      Row("处罚", "Sanctions", Sanctions(r)), Row("裁定", "Decision", Decision(f)),
      Row("规则", "Rules", Escape(f.game.rules_pin())),
      "</table>\n<div class=\"signatures\"><div>裁判员 Arbiter</div><div>黑方 Black</div>"
      "<div>白方 White</div></div>\n<div class=\"verify\">",
      qr.ok() ? *qr : "",
      "<p><span lang=\"zh\">核验</span> <span lang=\"en\">Verify</span>: <code class=\"line\">",
      Escape(line), "</code><br>",
      f.receipt_url.empty()
          ? ""
          : absl::StrCat("<span lang=\"zh\">收据</span> <span lang=\"en\">Receipt</span>: "
                         "<code class=\"receipt\">",
                         Escape(f.receipt_url), "</code><br>"),
      "<span class=\"muted\">",
      absl::StrCat("ledger position ", f.event.position(), ", revision ", f.event.revision(),
                   "; signed checkpoint of ", f.checkpoint.tree_size(), " entries, key "),
      "<code>", absl::BytesToHexString(f.checkpoint.key_id()), "</code>, ",
      Escape(When(f, f.checkpoint.issued_at())), TokenLine(f), "</span></p></div>\n</article>\n",
      "<nav class=\"no-print\"><a href=\"/games/", Escape(f.game.game_id()), "\">← ",
      Escape(f.game.game_id()),
      "</a> · <a href=\"?paper=a5\">A5</a> · <a href=\"?paper=a4\">A4</a></nav>");
  const char* sheet = f.paper == Paper::kA4 ? "a4" : "a5";
  return Page(
      absl::StrCat("裁定书 Ruling ", r.number(), " · ", f.game.game_id()),
      absl::StrCat("slip paper-", sheet),
      absl::StrCat("<link rel=\"stylesheet\" href=\"/static/slip-", sheet, ".css\">\n", body));
}

namespace {

// "1 game", "2 games": the audit's counts in English.
std::string Count(uint64_t n, absl::string_view one, absl::string_view many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

}  // namespace

std::string RenderAudit(const AuditFacts& f) {
  const v1::VerifyGameResponse& v = f.verified;
  const std::string id = Escape(f.game.game_id());
  std::string status =
      v.intact() ? "<strong class=\"ok\">完好 intact</strong>"
                 : absl::StrCat("<strong class=\"bad\">受损 NOT intact</strong>: ", Escape(v.why()),
                                v.first_bad_position() != 0
                                    ? absl::StrCat(" (position ", v.first_bad_position(), ")")
                                    : "");
  // Each value in both languages, as the labels are: the auditor may read
  // either, and the page prints as it shows.
  const std::string game = Stacked(
      absl::StrCat(v.game_events(), " 个事件，", v.game_rulings(), " 项裁定；",
                   v.readjudicated() ? "重新裁决：裁定相同" : "未重新裁决"),
      absl::StrCat(Count(v.game_events(), "event", "events"), ", ",
                   Count(v.game_rulings(), "ruling", "rulings"), "; ",
                   v.readjudicated() ? "re-adjudicated: same rulings" : "not re-adjudicated"));
  const std::string ledger = Stacked(
      absl::StrCat(v.events(), " 个事件，", v.games(), " 局，", v.checkpoints(), " 个签名检查点"),
      absl::StrCat(Count(v.events(), "event", "events"), " in ", Count(v.games(), "game", "games"),
                   ", ", Count(v.checkpoints(), "checkpoint", "checkpoints")));
  const std::string root =
      absl::StrCat("<code class=\"hash\">", Escape(v.signed_root()), "</code><br>",
                   Stacked(absl::StrCat("树大小 ", v.signed_size(), "；密钥"),
                           absl::StrCat("at size ", v.signed_size(), "; key")),
                   " <code class=\"hash\">", Escape(v.key_id()), "</code>");
  const std::string tail =
      absl::StrCat("<span id=\"unsigned\">", f.unsigned_events, "</span> ",
                   Stacked("个本局事件在最新的签名检查点之后",
                           absl::StrCat(f.unsigned_events == 1 ? "event" : "events",
                                        " of this game after the latest signed checkpoint")));
  std::string body = absl::StrCat(
      "<main class=\"audit\">\n<h1><span lang=\"zh\">审计</span> <span lang=\"en\">Audit</span> · ",
      id, "</h1>\n<table>\n", Row("状态", "Status", status), Row("本局", "This game", game),
      Row("规则", "Rules", absl::StrCat("<code class=\"hash\">", Escape(v.rules_pin()), "</code>")),
      Row("账本", "Ledger", ledger), Row("签名根", "Signed root", root),
      Row("未签名", "Unsigned tail", tail), "</table>\n<p><a class=\"button\" href=\"/games/", id,
      "/bundle\" download>下载审计包 Download the audit bundle</a> "
      "<code class=\"hash\">arbiter verify --bundle ",
      id, ".bundle</code></p>\n<p><a href=\"/games/", id, "\">← ", id, "</a></p>\n</main>");
  return Page(absl::StrCat("审计 Audit · ", f.game.game_id()), "audit", body);
}

}  // namespace arbiter::service::console
