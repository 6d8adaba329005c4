#include "io/work_bounds.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "io/input_error.h"
#include "io/input_file.h"

namespace mmsim {

std::uint64_t memory_available() {
  if (const char* limit = std::getenv("MMSIM_MEMORY_LIMIT"); limit && *limit) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(limit, &end, 10);
    if (*end == '\0' && v > 0) return v;
  }
  // /proc is not a user's input: a kernel file of a few lines, read as the kernel writes it.
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
  return ~std::uint64_t{0};  // unknown: refuse nothing
}

void check_memory(const std::string& who, const std::string& options, std::uint64_t bytes) {
  const std::uint64_t available = memory_available();
  if (bytes <= available) return;
  throw InputError(who + ": " + options + ": needs about " + format_bytes(bytes) +
                   " of memory (estimated before the run), more than the " + format_bytes(available) +
                   " available; choose a smaller value");
}

}  // namespace mmsim
