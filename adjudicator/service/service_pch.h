// The headers the service layer's files (and the CLI's) nearly all parse:
// gRPC, protobuf and the generated arbiter.v1 services, precompiled once
// for every target that reuses arbiter_service_pch (CMakeLists.txt here and
// cli/). Third-party and generated headers only, so an edit to the code
// rebuilds no more than before; every file still includes what it uses.
#ifndef ARBITER_ADJUDICATOR_SERVICE_SERVICE_PCH_H_
#define ARBITER_ADJUDICATOR_SERVICE_SERVICE_PCH_H_

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.grpc.pb.h"
#include "arbiter/v1/tournament.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"

#endif  // ARBITER_ADJUDICATOR_SERVICE_SERVICE_PCH_H_
