// The console's static files (static/: HTML, CSS, ES modules), embedded in
// the binary at build time by embed_assets.cmake: no build step for the
// page, nothing to install beside the binary.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ASSETS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ASSETS_H_

#include "absl/strings/string_view.h"

namespace arbiter::service::console {

struct Asset {
  absl::string_view name;  // the file's name in static/, e.g. "hall.js"
  absl::string_view body;
};

// The embedded file `name`; nullptr when there is none.
const Asset* FindAsset(absl::string_view name);

// Its Content-Type, by the name's extension.
absl::string_view ContentTypeOf(absl::string_view name);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_ASSETS_H_
