#include "tests/ledger/fault_vfs.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

namespace arbiter::ledger::testing {
namespace {

struct Op {
  bool truncate = false;
  int64_t offset = 0;  // write offset, or the new size of a truncate
  std::string before;  // bytes overwritten (or cut off), as far as they existed
  std::string after;   // bytes written
};

struct Journal {
  int64_t synced_size = 0;  // the file's size when the first unsynced op came
  std::vector<Op> ops;
};

struct State {
  std::mutex mu;
  sqlite3_vfs* real = nullptr;
  int fail_writes_after = -1, write_rc = SQLITE_OK;
  int fail_syncs_after = -1, sync_rc = SQLITE_OK;
  bool tracking = false;
  bool cut = false;
  int cut_at_write = 0;
  int64_t writes = 0, syncs = 0;
  std::map<std::string, Journal> journals;
};

State& S() {
  static State* s = new State;
  return *s;
}

struct FaultFile {
  sqlite3_file base;
  sqlite3_file* real;
  std::string* path;
};

sqlite3_file* Real(sqlite3_file* f) { return reinterpret_cast<FaultFile*>(f)->real; }
const std::string& PathOf(sqlite3_file* f) { return *reinterpret_cast<FaultFile*>(f)->path; }

int64_t SizeOf(sqlite3_file* real) {
  sqlite3_int64 size = 0;
  real->pMethods->xFileSize(real, &size);
  return size;
}

// Journals an op on `f`; S().mu held.
void Record(sqlite3_file* f, Op op) {
  Journal& j = S().journals[PathOf(f)];
  if (j.ops.empty()) j.synced_size = SizeOf(Real(f));
  j.ops.push_back(std::move(op));
}

std::string ReadExisting(sqlite3_file* real, int64_t offset, int64_t amount) {
  int64_t size = SizeOf(real);
  if (offset >= size) return "";
  std::string out(std::min(amount, size - offset), '\0');
  real->pMethods->xRead(real, out.data(), static_cast<int>(out.size()), offset);
  return out;
}

int Close(sqlite3_file* f) {
  int rc = Real(f)->pMethods->xClose(Real(f));
  delete reinterpret_cast<FaultFile*>(f)->path;
  return rc;
}
int Read(sqlite3_file* f, void* buf, int amt, sqlite3_int64 off) {
  return Real(f)->pMethods->xRead(Real(f), buf, amt, off);
}
int Write(sqlite3_file* f, const void* buf, int amt, sqlite3_int64 off) {
  std::lock_guard<std::mutex> lock(S().mu);
  if (S().cut_at_write > 0 && --S().cut_at_write == 0) S().cut = true;
  if (S().cut) return SQLITE_IOERR_WRITE;
  if (S().fail_writes_after == 0) return S().write_rc;
  if (S().fail_writes_after > 0) --S().fail_writes_after;
  ++S().writes;
  if (S().tracking) {
    Op op;
    op.offset = off;
    op.before = ReadExisting(Real(f), off, amt);
    op.after.assign(static_cast<const char*>(buf), amt);
    Record(f, std::move(op));
  }
  return Real(f)->pMethods->xWrite(Real(f), buf, amt, off);
}
int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  std::lock_guard<std::mutex> lock(S().mu);
  if (S().cut) return SQLITE_IOERR_TRUNCATE;
  if (S().tracking) {
    Op op;
    op.truncate = true;
    op.offset = size;
    op.before = ReadExisting(Real(f), size, SizeOf(Real(f)) - size);
    Record(f, std::move(op));
  }
  return Real(f)->pMethods->xTruncate(Real(f), size);
}
int Sync(sqlite3_file* f, int flags) {
  std::lock_guard<std::mutex> lock(S().mu);
  if (S().cut) return SQLITE_IOERR_FSYNC;
  if (S().fail_syncs_after == 0) return S().sync_rc;
  if (S().fail_syncs_after > 0) --S().fail_syncs_after;
  ++S().syncs;
  int rc = Real(f)->pMethods->xSync(Real(f), flags);
  if (rc == SQLITE_OK && S().tracking) S().journals.erase(PathOf(f));
  return rc;
}
int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  return Real(f)->pMethods->xFileSize(Real(f), size);
}
int Lock(sqlite3_file* f, int l) { return Real(f)->pMethods->xLock(Real(f), l); }
int Unlock(sqlite3_file* f, int l) { return Real(f)->pMethods->xUnlock(Real(f), l); }
int CheckReservedLock(sqlite3_file* f, int* out) {
  return Real(f)->pMethods->xCheckReservedLock(Real(f), out);
}
int FileControl(sqlite3_file* f, int op, void* arg) {
  return Real(f)->pMethods->xFileControl(Real(f), op, arg);
}
int SectorSize(sqlite3_file* f) { return Real(f)->pMethods->xSectorSize(Real(f)); }
int DeviceCharacteristics(sqlite3_file* f) {
  return Real(f)->pMethods->xDeviceCharacteristics(Real(f));
}
int ShmMap(sqlite3_file* f, int page, int size, int extend, void volatile** out) {
  return Real(f)->pMethods->xShmMap(Real(f), page, size, extend, out);
}
int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
  return Real(f)->pMethods->xShmLock(Real(f), offset, n, flags);
}
void ShmBarrier(sqlite3_file* f) { Real(f)->pMethods->xShmBarrier(Real(f)); }
int ShmUnmap(sqlite3_file* f, int del) { return Real(f)->pMethods->xShmUnmap(Real(f), del); }
int Fetch(sqlite3_file* f, sqlite3_int64 off, int amt, void** out) {
  *out = nullptr;  // no memory-mapped reads: every read goes through xRead
  (void)f, (void)off, (void)amt;
  return SQLITE_OK;
}
int Unfetch(sqlite3_file* f, sqlite3_int64 off, void* p) {
  (void)f, (void)off, (void)p;
  return SQLITE_OK;
}

const sqlite3_io_methods kMethods = {
    3,
    Close,
    Read,
    Write,
    Truncate,
    Sync,
    FileSize,
    Lock,
    Unlock,
    CheckReservedLock,
    FileControl,
    SectorSize,
    DeviceCharacteristics,
    ShmMap,
    ShmLock,
    ShmBarrier,
    ShmUnmap,
    Fetch,
    Unfetch,
};

int Open(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  auto* ff = reinterpret_cast<FaultFile*>(f);
  ff->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(f) + sizeof(FaultFile));
  ff->base.pMethods = nullptr;
  (void)vfs;
  int rc = S().real->xOpen(S().real, name, ff->real, flags, out_flags);
  if (rc != SQLITE_OK || ff->real->pMethods == nullptr) return rc;
  ff->path = new std::string(name == nullptr ? "" : name);
  ff->base.pMethods = &kMethods;
  return SQLITE_OK;
}

int Delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  (void)vfs;
  std::lock_guard<std::mutex> lock(S().mu);
  if (S().cut) return SQLITE_IOERR_DELETE;
  S().journals.erase(name);
  return S().real->xDelete(S().real, name, sync_dir);
}

}  // namespace

FaultVfs& FaultVfs::Get() {
  static FaultVfs* vfs = [] {
    static sqlite3_vfs wrapper;
    S().real = sqlite3_vfs_find(nullptr);
    wrapper = *S().real;
    wrapper.zName = kName;
    wrapper.szOsFile = static_cast<int>(sizeof(FaultFile)) + S().real->szOsFile;
    wrapper.xOpen = Open;
    wrapper.xDelete = Delete;
    wrapper.pNext = nullptr;
    sqlite3_vfs_register(&wrapper, /*makeDflt=*/0);
    return new FaultVfs;
  }();
  return *vfs;
}

void FaultVfs::FailWrites(int after, int rc) {
  std::lock_guard<std::mutex> lock(S().mu);
  S().fail_writes_after = after;
  S().write_rc = rc;
}

void FaultVfs::FailSyncs(int after, int rc) {
  std::lock_guard<std::mutex> lock(S().mu);
  S().fail_syncs_after = after;
  S().sync_rc = rc;
}

void FaultVfs::Heal() {
  std::lock_guard<std::mutex> lock(S().mu);
  S().fail_writes_after = S().fail_syncs_after = -1;
}

void FaultVfs::TrackUnsynced() {
  std::lock_guard<std::mutex> lock(S().mu);
  S().journals.clear();
  S().tracking = true;
  S().cut = false;
  S().cut_at_write = 0;
}

void FaultVfs::PowerCut() {
  std::lock_guard<std::mutex> lock(S().mu);
  S().cut = true;
}

void FaultVfs::PowerCutAtWrite(int n) {
  std::lock_guard<std::mutex> lock(S().mu);
  S().cut_at_write = n;
}

bool FaultVfs::power_cut() const {
  std::lock_guard<std::mutex> lock(S().mu);
  return S().cut;
}

int FaultVfs::RestorePowerLoss(uint32_t seed, double keep) {
  std::lock_guard<std::mutex> lock(S().mu);
  std::mt19937 rng(seed);
  std::bernoulli_distribution keep_it(keep);
  int dropped = 0;
  for (auto& [path, j] : S().journals) {
    int fd = open(path.c_str(), O_RDWR);
    if (fd < 0) continue;
    for (auto it = j.ops.rbegin(); it != j.ops.rend(); ++it) {
      if (!it->before.empty()) {
        (void)!pwrite(fd, it->before.data(), it->before.size(), it->offset);
      }
    }
    (void)!ftruncate(fd, j.synced_size);
    for (const Op& op : j.ops) {
      if (!keep_it(rng)) {
        ++dropped;
        continue;
      }
      if (op.truncate) {
        (void)!ftruncate(fd, op.offset);
      } else {
        (void)!pwrite(fd, op.after.data(), op.after.size(), op.offset);
      }
    }
    fsync(fd);
    close(fd);
  }
  S().journals.clear();
  S().tracking = false;
  S().cut = false;
  S().cut_at_write = 0;
  return dropped;
}

int64_t FaultVfs::writes() const {
  std::lock_guard<std::mutex> lock(S().mu);
  return S().writes;
}

int64_t FaultVfs::syncs() const {
  std::lock_guard<std::mutex> lock(S().mu);
  return S().syncs;
}

}  // namespace arbiter::ledger::testing
