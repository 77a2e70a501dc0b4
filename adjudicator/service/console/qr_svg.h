// A QR code as inline SVG, for the slip's verification line: a phone reads
// it back without typing 64 hex digits. libqrencode (Debian's
// libqrencode-dev, pkg-config libqrencode) makes the modules; we draw them.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_QR_SVG_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_QR_SVG_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::service::console {

// `text` as an <svg> element (error correction M, a quiet zone of four
// modules, black on white, scalable); INVALID_ARGUMENT when it is too long
// for a QR code, INTERNAL when the encoder fails otherwise.
absl::StatusOr<std::string> QrSvg(absl::string_view text);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_QR_SVG_H_
