// Bidirectional-text controls in recorded strings. A player named
// "Li\u202eWei" (RIGHT-TO-LEFT OVERRIDE) would reverse the text after the
// name on a page or a printed slip, making a slip read otherwise than it
// was recorded. The console strips the embedding, override and isolate
// controls (U+202A-202E, U+2066-2069) and the marks (U+200E, U+200F) from
// every string it shows: the server-rendered pages through html.h's Escape,
// the JSON the pages read through json.h's ToJson. The ledger keeps the
// bytes as recorded (the audit bundle carries them unchanged).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BIDI_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BIDI_H_

#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace arbiter::service::console {

// `text` (UTF-8) without its bidi controls.
std::string StripBidiControls(absl::string_view text);

// Every string field of `message`, however deep, without its bidi controls.
void StripBidiControls(google::protobuf::Message* message);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_BIDI_H_
