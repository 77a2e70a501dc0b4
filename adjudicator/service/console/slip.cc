#include "adjudicator/service/console/slip.h"

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/service/console/html.h"
#include "adjudicator/service/console/json.h"

namespace arbiter::service::console {
namespace {

std::string When(const google::protobuf::Timestamp& t) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", FromProto(t), absl::UTCTimeZone());
}

std::string PlayerText(const v1::Player& p) {
  return p.rank().empty() ? p.name() : absl::StrCat(p.name(), " ", p.rank());
}

// A row of the slip's table: label in both languages, value as HTML.
std::string Row(absl::string_view zh, absl::string_view en, absl::string_view value_html) {
  return absl::StrCat("<tr><th><span lang=\"zh\">", zh, "</span> <span lang=\"en\">", en,
                      "</span></th><td>", value_html, "</td></tr>\n");
}

std::string Sanctions(const v1::Ruling& r) {
  std::vector<std::string> names;
  for (int s : r.sanctions()) names.push_back(v1::Sanction_Name(static_cast<v1::Sanction>(s)));
  std::string out = Escape(absl::StrJoin(names, ", "));
  if (r.has_time_deducted()) {
    absl::StrAppend(&out, " (", Escape(absl::FormatDuration(FromProto(r.time_deducted()))), ")");
  }
  if (r.warnings() > 0) absl::StrAppend(&out, " · 警告 warnings: ", r.warnings());
  return out;
}

std::string EventText(const v1::Event& e) {
  const auto* field = e.GetDescriptor()->FindFieldByNumber(e.kind_case());
  if (field == nullptr) return "?";
  std::string details = ToJson(e.GetReflection()->GetMessage(e, field));
  return details == "{}" ? field->json_name() : absl::StrCat(field->json_name(), " ", details);
}

std::string Decision(const v1::Ruling& r) {
  if (r.pending()) {
    std::vector<std::string> options;
    for (const v1::RulingOption& o : r.options()) {
      options.push_back(absl::StrCat(Escape(o.title_zh()), " / ", Escape(o.title_en()), " (",
                                     Escape(o.id()), ")"));
    }
    return absl::StrCat("待定 pending — ", v1::Authority_Name(r.decided_by()), ": ",
                        absl::StrJoin(options, " | "));
  }
  std::string out = r.choice().empty() ? "—" : absl::StrCat("裁定 decided: ", Escape(r.choice()));
  if (r.resolves() != 0) absl::StrAppend(&out, " (resolves #", r.resolves(), ")");
  if (!r.note().empty()) absl::StrAppend(&out, "<br>", Escape(r.note()));
  return out;
}

}  // namespace

std::string RenderSlip(const SlipFacts& f) {
  const v1::Ruling& r = f.ruling;
  const v1::GameCreated& g = f.game.created();
  std::string clause = Escape(r.clause());
  if (!r.also_cites().empty()) {
    absl::StrAppend(&clause, " (also ", Escape(absl::StrJoin(r.also_cites(), ", ")), ")");
  }
  std::string body = absl::StrCat(
      "<article class=\"slip\">\n<h1><span lang=\"zh\">裁判裁定书</span> "
      "<span lang=\"en\">Ruling slip</span> #",
      r.number(), "</h1>\n<table>\n", Row("对局", "Game", Escape(f.game.game_id())),
      Row("黑方", "Black",
          absl::StrCat("<span class=\"player\">", Escape(PlayerText(g.black())), "</span>")),
      Row("白方", "White",
          absl::StrCat("<span class=\"player\">", Escape(PlayerText(g.white())), "</span>")),
      Row("时间", "Time", Escape(When(r.at()))),
      Row("事件", "Event",
          absl::StrCat("#", r.event(), " ", Escape(EventText(f.event.event())),
                       f.event.event().actor().empty()
                           ? ""
                           : absl::StrCat(" — ", Escape(f.event.event().actor())))),
      Row("条款", "Clause", clause),
      Row("条文", "Text",
          absl::StrCat("<p lang=\"zh\" class=\"clause-zh\">", Escape(r.text_zh()),
                       "</p><p lang=\"en\">", Escape(r.text_en()), "</p>")),
      Row("处罚对象", "Against", Escape(v1::Ruling::Party_Name(r.against()))),
      Row("处罚", "Sanctions", Sanctions(r)), Row("裁定", "Decision", Decision(r)),
      Row("规则", "Rules", Escape(f.game.rules_pin())),
      Row("账本位置", "Ledger position",
          absl::StrCat("position ", f.event.position(), ", revision ", f.event.revision())),
      Row("签名检查点", "Signed checkpoint",
          absl::StrCat("tree size ", f.checkpoint.tree_size(), ", root <code class=\"root\">",
                       absl::BytesToHexString(f.checkpoint.root_hash()), "</code><br>key ",
                       "<code>", absl::BytesToHexString(f.checkpoint.key_id()), "</code>, ",
                       Escape(When(f.checkpoint.issued_at())))),
      "</table>\n<p class=\"verify\">", "<span lang=\"zh\">核验：</span><code>arbiter verify ",
      Escape(f.game.game_id()), "</code> · <code>arbiter verify --bundle ",
      Escape(f.game.game_id()), ".bundle</code></p>\n",
      "<div class=\"signatures\"><div>裁判员 Arbiter</div><div>黑方 Black</div>"
      "<div>白方 White</div></div>\n</article>\n"
      "<nav class=\"no-print\"><a href=\"/games/",
      Escape(f.game.game_id()), "\">← ", Escape(f.game.game_id()),
      "</a> · <a href=\"?paper=a5\">A5</a> · <a href=\"?paper=a4\">A4</a></nav>");
  const char* sheet = f.paper == Paper::kA4 ? "a4" : "a5";
  return Page(
      absl::StrCat("裁定书 Ruling ", r.number(), " · ", f.game.game_id()),
      absl::StrCat("slip paper-", sheet),
      absl::StrCat("<link rel=\"stylesheet\" href=\"/static/slip-", sheet, ".css\">\n", body));
}

std::string RenderAudit(const AuditFacts& f) {
  const v1::VerifyGameResponse& v = f.verified;
  const std::string id = Escape(f.game.game_id());
  std::string status =
      v.intact() ? "<strong class=\"ok\">完好 intact</strong>"
                 : absl::StrCat("<strong class=\"bad\">受损 NOT intact</strong>: ", Escape(v.why()),
                                v.first_bad_position() != 0
                                    ? absl::StrCat(" (position ", v.first_bad_position(), ")")
                                    : "");
  std::string body = absl::StrCat(
      "<main class=\"audit\">\n<h1><span lang=\"zh\">审计</span> <span lang=\"en\">Audit</span> · ",
      id, "</h1>\n<table>\n", Row("状态", "Status", status),
      Row("本局", "This game",
          absl::StrCat(v.game_events(), " events, ", v.game_rulings(), " rulings; ",
                       v.readjudicated() ? "re-adjudicated: same rulings" : "not re-adjudicated")),
      Row("规则", "Rules", Escape(v.rules_pin())),
      Row("账本", "Ledger",
          absl::StrCat(v.events(), " events in ", v.games(), " games, ", v.checkpoints(),
                       " checkpoints")),
      Row("签名根", "Signed root",
          absl::StrCat("<code class=\"root\">", Escape(v.signed_root()), "</code> at size ",
                       v.signed_size(), ", key <code>", Escape(v.key_id()), "</code>")),
      Row("未签名", "Unsigned tail",
          absl::StrCat("<span id=\"unsigned\">", f.unsigned_events,
                       "</span> event(s) of this game after the latest signed checkpoint")),
      "</table>\n<p><a class=\"button\" href=\"/games/", id,
      "/bundle\" download>下载审计包 Download the audit bundle</a> "
      "<code>arbiter verify --bundle ",
      id, ".bundle</code></p>\n<p><a href=\"/games/", id, "\">← ", id, "</a></p>\n</main>");
  return Page(absl::StrCat("审计 Audit · ", f.game.game_id()), "audit", body);
}

}  // namespace arbiter::service::console
