// Events, sanctions and results in words, Chinese or English, for the pages
// the server renders (the slip): "黑 Q16", "phone rang (Black)", "警告一次，
// 罚一子", "White wins on warnings". The words are those of static/words.json,
// the table the browser's pages read through static/words.js, so a slip and
// the game page it came from say the same thing.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WORDS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WORDS_H_

#include <string>

#include "absl/strings/string_view.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter::service::console {

enum class Lang { kZh, kEn };

// A colour or party by its enum name ("BLACK", "BOTH") as its player:
// 黑方 / Black. An unknown name is returned as it is.
std::string SideWord(absl::string_view colour, Lang lang);

// Another enum value in words (CHIEF_ARBITER: 裁判长 / the chief arbiter);
// an unknown one as it is.
std::string EnumWord(absl::string_view value, Lang lang);

// Who recorded an event, as a label before a name: a role (CHIEF_ARBITER:
// 裁判长 / Chief arbiter), or an actor that is no person (server:clock);
// an unknown one as it is.
std::string WhoWord(absl::string_view who, Lang lang);

// The event in words ("黑 Q16", "phone rang (Black)"); its kind's JSON name
// when the table has no words for it.
std::string EventWords(const v1::Event& event, Lang lang);

// The ruling's sanctions in words, repeated ones counted: "a warning, one
// penalty stone" / "警告一次，罚一子"; a deduction with its time.
std::string SanctionWords(const v1::Ruling& ruling, Lang lang);

// The result from its outcome and reason: "白中盘胜", "Black wins by 3¾
// stones (7.5 points)", "White wins on warnings".
std::string ResultWords(const v1::Result& result, Lang lang);

// A word of the tournament page's team matches (words.json "teamMatch":
// "title", "playing"...; a template's {n} and {team} left for the caller);
// the key itself when the table has none.
std::string TeamMatchWord(absl::string_view key, Lang lang);

// A word of the public broadcast's pages (words.json "broadcast": "title",
// "round"...; a template's {n} left for the caller); the key itself when
// the table has none.
std::string BroadcastWord(absl::string_view key, Lang lang);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WORDS_H_
