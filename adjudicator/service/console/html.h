// HTML text for the pages the server renders itself (the ruling slip and the
// audit view, which must print and read without scripts). Every recorded
// string goes through Escape: a player named "<script>" shows as text.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTML_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTML_H_

#include <string>

#include "absl/strings/string_view.h"

namespace arbiter::service::console {

// `text` safe in element content and in quoted attribute values: & < > " '
// become character references, and bidi controls are stripped (bidi.h).
std::string Escape(absl::string_view text);

// Chinese, then English, each in a span marked with its language, as every
// server-rendered page reads them (both escaped).
std::string Both(absl::string_view zh, absl::string_view en);

// A whole page: doctype, charset, `title` (escaped), the console's style
// sheet, and `body` (already HTML) inside <body class="`body_class`">.
std::string Page(absl::string_view title, absl::string_view body_class, absl::string_view body);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTML_H_
