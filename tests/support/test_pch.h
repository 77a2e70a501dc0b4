// The headers nearly every test file parses, precompiled once for all the
// test targets built on GoogleTest (tests/CMakeLists.txt: each reuses this
// one precompiled header; helpers without gtest do not). Only third-party
// and generated headers: they change with a package or a .proto, never with
// an edit to the code under test, so an edit rebuilds no more than it did
// before. Each test file still includes what it uses; this list only
// decides what is parsed ahead of time.
#ifndef ARBITER_TESTS_SUPPORT_TEST_PCH_H_
#define ARBITER_TESTS_SUPPORT_TEST_PCH_H_

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"

#endif  // ARBITER_TESTS_SUPPORT_TEST_PCH_H_
