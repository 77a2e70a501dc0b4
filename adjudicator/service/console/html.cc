#include "adjudicator/service/console/html.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/bidi.h"
#include "adjudicator/tournament/xml.h"

namespace arbiter::service::console {

// XML's five references are HTML's too; bidi controls go (bidi.h).
std::string Escape(absl::string_view text) {
  return tournament::XmlEscape(StripBidiControls(text));
}

std::string Both(absl::string_view zh, absl::string_view en) {
  return absl::StrCat("<span lang=\"zh\">", Escape(zh), "</span> <span lang=\"en\">", Escape(en),
                      "</span>");
}

std::string Page(absl::string_view title, absl::string_view body_class, absl::string_view body) {
  return absl::StrCat(
      "<!doctype html>\n<html lang=\"zh-Hans\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>",
      Escape(title),
      "</title><link rel=\"stylesheet\" href=\"/static/console.css\"></head>\n<body class=\"",
      Escape(body_class), "\">\n", body, "\n</body></html>\n");
}

}  // namespace arbiter::service::console
