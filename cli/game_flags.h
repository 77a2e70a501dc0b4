// The flags that say how games are played, read one way for `game create`
// (one game) and `tournament create` (every game a round starts):
// --venue, --main-time, --byo-yomi.
#ifndef ARBITER_CLI_GAME_FLAGS_H_
#define ARBITER_CLI_GAME_FLAGS_H_

#include <string>

#include "arbiter/v1/events.pb.h"
#include "cli/flags.h"

namespace arbiter::cli {

inline constexpr FlagSpec kVenueFlag = {"venue", "VENUE",
                                        "SAME_SITE (default), SEPARATE_SITE or RAPID"};
inline constexpr FlagSpec kMainTimeFlag = {"main-time", "DURATION",
                                           "main time, e.g. 2h or 90m (absent: untimed)"};
inline constexpr FlagSpec kByoYomiFlag = {"byo-yomi", "N/DURATION",
                                          "byo-yomi periods and their length, e.g. 5/60s"};

// --venue into `venue` (left as it is when absent). False, with `why`, for
// a value that is not a venue.
bool ParseVenueFlag(const Args& args, v1::GameCreated::Venue* venue, std::string* why);

// --main-time and --byo-yomi into `tc` (left as it is when both are absent).
// False, with `why`, for a malformed value.
bool ParseTimeControlFlags(const Args& args, v1::TimeControl* tc, std::string* why);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_GAME_FLAGS_H_
