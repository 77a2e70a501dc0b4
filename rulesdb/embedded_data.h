// The rules data files compiled into the binary.
//
// The definition is generated at build time by rulesdb/tools/embed_rules.cc
// from rulesdb/data/**.textproto, after it has parsed and validated them.
#ifndef ARBITER_RULESDB_EMBEDDED_DATA_H_
#define ARBITER_RULESDB_EMBEDDED_DATA_H_

#include <cstddef>
#include <span>

namespace arbiter {

struct EmbeddedFile {
  const char* path;  // relative to rulesdb/data
  const unsigned char* data;
  size_t size;
};

std::span<const EmbeddedFile> EmbeddedRulesFiles();

}  // namespace arbiter

#endif  // ARBITER_RULESDB_EMBEDDED_DATA_H_
